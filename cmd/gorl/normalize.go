package main

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// newNormalizer returns the Normalizer of rc's "normalize" section, or nil
// when it normalizes nothing. The statistics are shared by one goroutine's
// envs, so a run with normalization cannot step its envs asynchronously.
func newNormalizer(rc RunConfig) (*env.Normalizer, error) {
	if rc.Normalize == nil || !rc.Normalize.Enabled() {
		return nil, nil
	}
	if rc.Async {
		return nil, errors.New("normalize: the statistics are shared by the envs of a sequential vector env; set async to false")
	}
	size, err := obsSize(rc.Env)
	if err != nil {
		return nil, err
	}
	n, err := env.NewNormalizer(*rc.Normalize, size)
	if err != nil {
		return nil, fmt.Errorf("normalize: %w", err)
	}
	return n, nil
}

// obsSize is the number of values in an observation of the env id, the
// size of its normalization statistics.
func obsSize(id string) (int, error) {
	obs, _, err := spaces(id)
	if err != nil {
		return 0, err
	}
	if obs.DType() == 0 {
		return 0, fmt.Errorf("normalize: the observations of %s are not arrays", id)
	}
	return nd.Zeros(nd.Float32, obs.Shape()...).Size(), nil
}

// normalizeEnvs puts es behind n (nothing when n is nil), as training envs
// (updating the statistics) or test envs (reading them). On error it closes
// es.
func normalizeEnvs(n *env.Normalizer, es []env.Env, train bool) ([]env.Env, error) {
	if n == nil {
		return es, nil
	}
	out := make([]env.Env, len(es))
	for i, e := range es {
		w, err := n.Wrap(e, train)
		if err != nil {
			closeEnvs(es)
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}
