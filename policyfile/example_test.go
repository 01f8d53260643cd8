package policyfile_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers CartPole-v1
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
)

// A policy file as gorl train writes it is loaded by building the same
// algorithm from the stored configuration; the loaded policy then acts.
// Here the file is written in the example, as gorl train writes it; a
// program reads a run's best.gorl with LoadFile instead.
func Example() {
	probe, _ := env.Make("CartPole-v1")
	obsSpace, actSpace := probe.ObservationSpace(), probe.ActionSpace()
	cfg := ppo.DefaultConfig()
	cfg.Net.Hidden = []int{16}
	trained, _ := ppo.New(cfg, obsSpace, actSpace, rand.New(rand.NewPCG(1, 2)))
	run := map[string]any{"algo": "ppo", "env": "CartPole-v1", "seed": 1, "algorithm": cfg}
	var file bytes.Buffer
	if err := policyfile.Write(&file, &run, trained.Policy(), nil); err != nil { // no normalization
		fmt.Println(err)
		return
	}

	f, err := policyfile.Load(&file, func(h policyfile.Header) (policy.Policy, error) {
		if h.Algo != "ppo" {
			return nil, fmt.Errorf("not a PPO policy: %s", h.Algo)
		}
		c := ppo.DefaultConfig()
		if err := json.Unmarshal(h.Algorithm, &c); err != nil {
			return nil, err
		}
		p, err := ppo.New(c, obsSpace, actSpace, rand.New(rand.NewPCG(0, 0))) // weights replaced by the file's
		if err != nil {
			return nil, err
		}
		return p.Policy(), nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	f.Policy.SetTrainingStep(false) // the most likely action
	same, _ := policy.ComputeAction(trained.Policy(), nd.MustNew([]float32{0, 0, 0.1, 0}))
	act, err := policy.ComputeAction(f.Policy, nd.MustNew([]float32{0, 0, 0.1, 0}))
	fmt.Println(f.Algo, f.Env, act, err, "same as the trained policy:", act.Str() == same.Str())
	// Output:
	// ppo CartPole-v1 array(0) <nil> same as the trained policy: true
}
