package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
)

// TestPolicyFileReadsSavePolicy checks that package policyfile, the
// library's reader of policy files, reads what savePolicy writes: the
// header, and parameters equal to the saved ones, for the algorithms whose
// configurations a library user decodes into ppo.Config and dqn.Config.
func TestPolicyFileReadsSavePolicy(t *testing.T) {
	for _, tc := range []struct {
		algo string
		sets []string
		norm bool
	}{
		{"ppo", []string{"algorithm.net.hidden=[8]"}, false},
		{"ppo", []string{"algorithm.net.hidden=[8]", `normalize={"obs":true,"reward":false}`}, true},
		{"dqn", []string{"algorithm.hidden=[8]"}, false},
	} {
		rc, acfg, err := resolve(tc.algo, "CartPole-v1", nil, tc.sets)
		if err != nil {
			t.Fatal(err)
		}
		rc.Seed = 7
		alg, err := newAlgorithm(rc, acfg)
		if err != nil {
			t.Fatal(err)
		}
		norm, err := newNormalizer(rc)
		if err != nil {
			t.Fatal(err)
		}
		if norm != nil { // statistics other than the initial ones
			obs, ret := norm.Stats()
			obs.Update([]float64{1, 2, 3, 4})
			if err := norm.SetStats(obs, ret); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(t.TempDir(), bestFile)
		if err := savePolicy(path, rc, alg.Policy(), norm); err != nil {
			t.Fatal(err)
		}
		probe, _ := env.Make("CartPole-v1")
		f, err := policyfile.LoadFile(path, func(h policyfile.Header) (policy.Policy, error) {
			rng := rand.New(rand.NewPCG(99, 99)) // other initial weights than the saved ones
			switch h.Algo {
			case "ppo":
				c := ppo.DefaultConfig()
				if err := json.Unmarshal(h.Algorithm, &c); err != nil {
					return nil, err
				}
				a, err := ppo.New(c, probe.ObservationSpace(), probe.ActionSpace(), rng)
				if err != nil {
					return nil, err
				}
				return a.Policy(), nil
			case "dqn":
				c := dqn.DefaultConfig()
				if err := json.Unmarshal(h.Algorithm, &c); err != nil {
					return nil, err
				}
				a, err := dqn.New(c, probe.ObservationSpace(), probe.ActionSpace(), rng)
				if err != nil {
					return nil, err
				}
				return a.Policy(), nil
			}
			return nil, nil
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.algo, err)
		}
		if f.Algo != tc.algo || f.Env != "CartPole-v1" || f.Seed != 7 || !strings.Contains(string(f.Run), `"trainer"`) {
			t.Errorf("%s: header %+v", tc.algo, f.Header)
		}
		want, got := alg.Policy().Params(), f.Policy.Params()
		if len(want) != len(got) {
			t.Fatalf("%s: %d parameters, want %d", tc.algo, len(got), len(want))
		}
		for i := range want {
			if want[i].Name != got[i].Name || !slices.Equal(want[i].Tensor.Data(), got[i].Tensor.Data()) {
				t.Errorf("%s: parameter %s differs from the saved one", tc.algo, want[i].Name)
			}
		}
		n, err := f.Normalizer(4)
		if err != nil || (n != nil) != tc.norm {
			t.Fatalf("%s: Normalizer = %v, %v; want one: %v", tc.algo, n, err, tc.norm)
		}
		if n != nil {
			gotObs, _ := n.Stats()
			wantObs, _ := norm.Stats()
			if !slices.Equal(gotObs.Mean, wantObs.Mean) || gotObs.Count != wantObs.Count {
				t.Errorf("%s: statistics %+v, want %+v", tc.algo, gotObs, wantObs)
			}
		}
	}
	// A file that is not a policy file is an error naming it.
	bad := filepath.Join(t.TempDir(), "bad.gorl")
	if err := os.WriteFile(bad, []byte("GRLS\x01garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := policyfile.LoadFile(bad, nil); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("corrupt file: %v, want an error naming it", err)
	}
}
