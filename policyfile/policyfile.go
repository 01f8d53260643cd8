// Package policyfile writes and reads the policy files of gorl train (a
// run's best.gorl and last.gorl), so that a program can act with a trained
// policy without the command.
//
// # Overview
//
// A policy file is an algo.SaveParts container of three parts, in order:
//
//	config     the run's configuration as JSON (the run's config.json)
//	policy     the policy's parameters (nn.Save, the safetensors format)
//	normalize  the observation and reward statistics (env.Normalizer's
//	           MarshalBinary), empty for a run without normalization
//
// The parameters are only numbers: to act, the program builds the same
// algorithm from the stored configuration (Header.Algorithm is the JSON of
// the algorithm's Config, such as ppo.Config), and Load copies the
// parameters into its policy. Load calls back for that, so one function
// reads files of every algorithm the program knows.
//
// # Invariants
//
// Load reads nothing beyond the file's checked parts, never allocates more
// than the bytes it reads justify (algo.LoadParts), and refuses a file whose
// parameters do not match the built policy's names and shapes.
package policyfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
)

// Header is what a policy file says about its run.
type Header struct {
	// Algo and Env name the algorithm and the env id ("ppo",
	// "CartPole-v1"); Seed is the run's seed.
	Algo string `json:"algo"`
	Env  string `json:"env"`
	Seed uint64 `json:"seed"`
	// Normalize is the run's normalization, nil when it had none.
	Normalize *env.NormalizeConfig `json:"normalize"`
	// Algorithm is the JSON of the algorithm's configuration.
	Algorithm json.RawMessage `json:"algorithm"`
	// Run is the JSON of the whole run configuration (config.json).
	Run json.RawMessage `json:"-"`
}

// File is a loaded policy file.
type File struct {
	Header
	// Policy is the policy that Load's build function returned, holding
	// the file's parameters.
	Policy policy.Policy
	stats  []byte // the normalize part
}

// Write writes a policy file to w: run, the run's configuration (a value
// that encodes as config.json does), the parameters of p, and the
// statistics of norm (nil for a run without normalization).
func Write(w io.Writer, run any, p policy.Policy, norm *env.Normalizer) error {
	stats := algo.Part{Name: "normalize", Save: func(w io.Writer) error {
		if norm == nil {
			return nil
		}
		b, err := norm.MarshalBinary()
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}}
	return algo.SaveParts(w, algo.JSONPart("config", run), algo.ParamsPart("policy", p.Params()), stats)
}

// Load reads a policy file from r. It decodes the header, calls build with
// it for a policy of the same algorithm and configuration (its initial
// weights do not matter), and loads the file's parameters into that policy.
// Files written before normalization existed, without the normalize part,
// load too. It returns an error for a file that is not a policy file, is
// truncated or corrupt, or whose parameters do not fit the policy, and
// build's error.
func Load(r io.Reader, build func(Header) (policy.Policy, error)) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("policyfile: %w", err)
	}
	f := &File{}
	config := algo.Part{Name: "config", Load: func(r io.Reader) error {
		b, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &f.Header); err != nil {
			return err
		}
		f.Run = b
		return nil
	}}
	params := algo.Part{Name: "policy", Load: func(r io.Reader) error {
		p, err := build(f.Header)
		if err != nil {
			return err
		}
		if p == nil {
			return errors.New("build returned no policy")
		}
		f.Policy = p
		return algo.ParamsPart("policy", p.Params()).Load(r)
	}}
	stats := algo.Part{Name: "normalize", Load: func(r io.Reader) error {
		var err error
		f.stats, err = io.ReadAll(r)
		return err
	}}
	err = algo.LoadParts(bytes.NewReader(data), config, params, stats)
	if err != nil && f.Policy != nil && (f.Normalize == nil || !f.Normalize.Enabled()) {
		// An older file of a run without normalization ends after its
		// parameters.
		*f = File{}
		if algo.LoadParts(bytes.NewReader(data), config, params) == nil {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("policyfile: %w", err)
	}
	if len(f.stats) > 0 && (f.Normalize == nil || !f.Normalize.Enabled()) {
		return nil, errors.New("policyfile: normalization statistics for a run without normalization")
	}
	return f, nil
}

// LoadFile is Load of the file at path; errors name the path.
func LoadFile(path string, build func(Header) (policy.Policy, error)) (*File, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := Load(r, build)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Normalizer returns the run's observation and reward statistics for
// observations of obsSize numbers, to wrap the envs the policy acts in
// (Normalizer.Wrap with train false freezes them); nil when the run had no
// normalization.
func (f *File) Normalizer(obsSize int) (*env.Normalizer, error) {
	if f.Normalize == nil || !f.Normalize.Enabled() {
		return nil, nil
	}
	n, err := env.NewNormalizer(*f.Normalize, obsSize)
	if err != nil {
		return nil, fmt.Errorf("policyfile: %w", err)
	}
	if err := n.UnmarshalBinary(f.stats); err != nil {
		return nil, fmt.Errorf("policyfile: normalization statistics: %w", err)
	}
	return n, nil
}
