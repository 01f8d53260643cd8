package main

import (
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// TestSmoke exports an untrained PPO policy, reads the file back with
// nn.Load, and checks that the forward pass the README gives for the
// Python side (Linear layers x·Wᵀ + b, ReLU after each hidden one, the
// largest logit as the action) acts as the policy does.
func TestSmoke(t *testing.T) {
	probe, err := env.Make("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := ppo.DefaultConfig()
	cfg.Net.Hidden = []int{16, 16}
	a, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "best.gorl"), filepath.Join(dir, "policy.safetensors")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	header := map[string]any{"algo": "ppo", "env": "CartPole-v1", "algorithm": cfg}
	err = algo.SaveParts(f, algo.JSONPart("config", &header), algo.ParamsPart("policy", a.Policy().Params()),
		algo.Part{Name: "normalize", Save: func(io.Writer) error { return nil }})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if err := run(&log, in, out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"trunk.0.weight", "actor.bias", "relu activation", "greedy action"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("output %q lacks %q", log.String(), want)
		}
	}

	// Read the file into a fresh network of the same shape.
	fresh, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	meta, err := nn.Load(r, fresh.Policy().Params())
	if err != nil {
		t.Fatal(err)
	}
	if meta["algo"] != "ppo" || meta["env"] != "CartPole-v1" || meta["activation"] != "relu" {
		t.Errorf("metadata %v", meta)
	}
	w := map[string][]float32{}
	shape := map[string][]int{}
	for _, p := range fresh.Policy().Params() {
		w[p.Name], shape[p.Name] = p.Tensor.Data(), p.Tensor.Shape()
	}
	linear := func(x []float32, name string, relu bool) []float32 {
		out, in := shape[name+".weight"][0], shape[name+".weight"][1]
		y := make([]float32, out)
		for i := range out {
			s := w[name+".bias"][i]
			for j := range in {
				s += w[name+".weight"][i*in+j] * x[j]
			}
			if relu {
				s = max(s, 0)
			}
			y[i] = s
		}
		return y
	}
	a.Policy().SetTrainingStep(false)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		obs := []float32{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64() * 0.2), float32(rng.NormFloat64())}
		logits := linear(linear(linear(obs, "trunk.0", true), "trunk.2", true), "actor", false)
		want := int64(0)
		if logits[1] > logits[0] {
			want = 1
		}
		if math.Abs(float64(logits[1]-logits[0])) < 1e-4 {
			continue // a tie within rounding: either action
		}
		act, err := policy.ComputeAction(a.Policy(), nd.MustNew(obs))
		if err != nil {
			t.Fatal(err)
		}
		if got := act.Item().(int64); got != want {
			t.Fatalf("observation %v: policy acts %d, the README's forward pass %d (logits %v)", obs, got, want, logits)
		}
	}
}
