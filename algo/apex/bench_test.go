package apex

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

// sampled returns k n-step transitions of obsDim observations and act as
// actions, with discounts and importance weights: what the learner gets
// from the distributed buffer.
func sampled(b *testing.B, k, obsDim int, act *nd.Array) *batch.Batch {
	rng := rand.New(rand.NewPCG(7, 8))
	f32 := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(2*rng.Float64() - 1)
		}
		return x
	}
	obs, err := nd.FromSlice(f32(k*obsDim), k, obsDim)
	if err != nil {
		b.Fatal(err)
	}
	next, err := nd.FromSlice(f32(k*obsDim), k, obsDim)
	if err != nil {
		b.Fatal(err)
	}
	rew, disc, w := make([]float64, k), make([]float32, k), make([]float64, k)
	term := make([]bool, k)
	for i := range rew {
		rew[i], disc[i], w[i], term[i] = rng.Float64(), 0.97, 0.5+rng.Float64(), i%10 == 0
	}
	return batch.MustNew(batch.KeyObs, obs, batch.KeyAct, act, batch.KeyRew, rew, batch.KeyTerminated, term,
		batch.KeyTruncated, make([]bool, k), batch.KeyObsNext, next, KeyDiscount, disc, batch.KeyWeight, w)
}

// BenchmarkLearnerUpdate measures one learner update as Run makes it on a
// sampled minibatch: the n-step targets (targets.set), the update, its
// TD errors. dqn: DefaultConfig's CartPole learner on 64 transitions;
// ddpg: DefaultDDPGConfig's Pendulum learner on 128, the benches' sizes.
func BenchmarkLearnerUpdate(b *testing.B) {
	spaces := func(id string) (env.Space, env.Space) {
		e, err := env.Make(id)
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		return e.ObservationSpace(), e.ActionSpace()
	}
	run := func(b *testing.B, a agent, bt *batch.Batch) {
		n, _ := bt.Len()
		var tg targets
		cputime.Measure(b, func() {
			if err := tg.set(a, bt, n); err != nil {
				b.Fatal(err)
			}
			if _, err := a.Update(bt); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.Run("dqn", func(b *testing.B) {
		obs, act := spaces("CartPole-v1")
		d, err := dqn.New(dqn.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			b.Fatal(err)
		}
		acts := make([]int64, 64)
		for i := range acts {
			acts[i] = int64(i % 2)
		}
		a, _ := nd.FromSlice(acts, 64)
		run(b, dqnAgent{d}, sampled(b, 64, 4, a))
	})
	b.Run("ddpg", func(b *testing.B) {
		obs, act := spaces("Pendulum-v1")
		d, err := ddpg.New(ddpg.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			b.Fatal(err)
		}
		acts := make([]float32, 128)
		for i := range acts {
			acts[i] = float32(i%7)/3 - 1
		}
		a, _ := nd.FromSlice(acts, 128, 1)
		run(b, &ddpgAgent{DDPG: d}, sampled(b, 128, 3, a))
	})
}
