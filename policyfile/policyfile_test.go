package policyfile_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
)

// TestLoad checks Write and Load against each other, and that a file
// written before normalization existed (config and policy parts only)
// loads, while one whose statistics belong to no normalization does not.
func TestLoad(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	cfg := ppo.DefaultConfig()
	cfg.Net.Hidden = []int{8}
	trained, err := ppo.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]any{"algo": "ppo", "env": "test", "algorithm": cfg}
	build := func(h policyfile.Header) (policy.Policy, error) {
		c := ppo.DefaultConfig()
		if err := json.Unmarshal(h.Algorithm, &c); err != nil {
			return nil, err
		}
		p, err := ppo.New(c, obs, act, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			return nil, err
		}
		return p.Policy(), nil
	}
	var current, legacy bytes.Buffer
	if err := policyfile.Write(&current, &run, trained.Policy(), nil); err != nil {
		t.Fatal(err)
	}
	if err := algo.SaveParts(&legacy, algo.JSONPart("config", &run), algo.ParamsPart("policy", trained.Policy().Params())); err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string][]byte{"current": current.Bytes(), "without normalize part": legacy.Bytes()} {
		f, err := policyfile.Load(bytes.NewReader(file), build)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if f.Algo != "ppo" || !algotest.EqualParams(f.Policy.Params(), trained.Policy().Params()) {
			t.Errorf("%s: loaded %s with other parameters", name, f.Algo)
		}
	}
	norm, err := env.NewNormalizer(env.NormalizeConfig{Obs: true}, 4)
	if err != nil {
		t.Fatal(err)
	}
	var stray bytes.Buffer
	if err := policyfile.Write(&stray, &run, trained.Policy(), norm); err != nil {
		t.Fatal(err)
	}
	if _, err := policyfile.Load(&stray, build); err == nil {
		t.Error("statistics for a run without normalization loaded")
	}
}
