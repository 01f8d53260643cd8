package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gorl/gorl/algo"
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
	obs, _, err := spaces(rc.Env)
	if err != nil {
		return nil, err
	}
	if obs.DType() == 0 {
		return nil, fmt.Errorf("normalize: the observations of %s are not arrays", rc.Env)
	}
	n, err := env.NewNormalizer(*rc.Normalize, nd.Zeros(nd.Float32, obs.Shape()...).Size())
	if err != nil {
		return nil, fmt.Errorf("normalize: %w", err)
	}
	return n, nil
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

// normalizePart is the part of a policy file that holds the normalization
// statistics: empty without normalization. Loading builds the Normalizer
// of the configuration *rc read before it into *n.
func normalizePart(rc *RunConfig, n **env.Normalizer) algo.Part {
	return algo.Part{
		Name: "normalize",
		Save: func(w io.Writer) error {
			if *n == nil {
				return nil
			}
			b, err := (*n).MarshalBinary()
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		},
		Load: func(r io.Reader) error {
			b, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			if rc.Normalize == nil || !rc.Normalize.Enabled() {
				if len(b) != 0 {
					return errors.New("statistics for a run without normalization")
				}
				return nil
			}
			if *n, err = newNormalizer(*rc); err != nil {
				return err
			}
			return (*n).UnmarshalBinary(b)
		},
	}
}
