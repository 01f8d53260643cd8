package policy_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// BenchmarkAct acts for 1 env and 8 envs (the collector benchmark's
// setting) with the MLP 4→64→64→2 of the collector benchmark: the Q policy
// ε-greedily (q-hold: with εz-greedy holds, from zero states), the Actor
// by sampling a Categorical.
func BenchmarkAct(b *testing.B) {
	space, _ := env.NewDiscrete(2, 0)
	for _, k := range []int{1, 8} {
		rng := rand.New(rand.NewPCG(1, 2))
		mlp, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{64, 64}, Out: 2}, rng)
		if err != nil {
			b.Fatal(err)
		}
		obs := batch.MustNew("obs", nd.Zeros(nd.Float32, k, 4))
		q, _ := policy.NewQ(policy.ObsNet{Layer: mlp}, space, rng)
		q.SetEps(0.1, 0.05)
		q.SetTrainingStep(true)
		qh, _ := policy.NewQ(policy.ObsNet{Layer: mlp}, space, rng)
		qh.SetEps(0.1, 0.05)
		qh.SetHold(policy.HoldConfig{Mu: 2, MaxDuration: 100})
		qh.SetTrainingStep(true)
		actor, _ := policy.NewActor(policy.ObsNet{Layer: mlp}, policy.CategoricalHead{}, space, rng, policy.ActorConfig{})
		actor.SetTrainingStep(true)
		for _, p := range []struct {
			name string
			p    policy.Policy
		}{{"q", q}, {"q-hold", qh}, {"actor", actor}} {
			b.Run(algotest.BLASTag()+"/"+p.name+"/envs="+strconv.Itoa(k), func(b *testing.B) {
				var out batch.Batch
				cputime.Measure(b, func() {
					if err := p.p.Act(&out, obs, nil, true); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}
