package main

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
)

// TestSmoke writes a policy file with the parts gorl train writes (an
// untrained PPO policy; the command's own test checks that package
// policyfile reads its files) and runs two episodes with it.
func TestSmoke(t *testing.T) {
	probe, err := env.Make("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := ppo.DefaultConfig()
	cfg.Net.Hidden = []int{8}
	a, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "best.gorl"))
	if err != nil {
		t.Fatal(err)
	}
	header := map[string]any{"algo": "ppo", "env": "CartPole-v1", "seed": 5, "algorithm": cfg}
	err = algo.SaveParts(f, algo.JSONPart("config", &header), algo.ParamsPart("policy", a.Policy().Params()),
		algo.Part{Name: "normalize", Save: func(io.Writer) error { return nil }})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(&out, dir, 2); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ppo policy for CartPole-v1, trained with seed 5", "episode 1: return", "episode 2: return"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q lacks %q", out.String(), want)
		}
	}
	if err := run(&out, filepath.Join(dir, "missing.gorl"), 1); err == nil {
		t.Error("a missing file: no error")
	}
}
