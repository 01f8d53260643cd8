package icm_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/icm"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update cycle of DQN + ICM with the settings
// of Tianshou's DQN + ICM test (DQN: MLP 4→128×4→2, 3-step returns; ICM:
// feature net 4→128×3→128, models with one hidden layer of 128): sample 64
// from a Collection of 20,000 transitions over 10 envs, the module's
// bonuses over the 3-step windows, the DQN's Preprocess and Update, and the
// module's Adam step; the same with ObsNorm and RewardNorm; the same with
// the module of the matrix's presets (one hidden layer of 64 per net, 64
// features); and the DQN alone, for the module's share.
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, c := range []struct {
		name                    string
		withICM, obsNorm, small bool
	}{{"dqn+icm", true, false, false}, {"dqn+icm-norm", true, true, false}, {"dqn+icm-small", true, true, true}, {"dqn", false, false, false}} {
		b.Run(algotest.BLASTag()+"/"+c.name, func(b *testing.B) {
			act := algotest.Discrete(b, 2, 0)
			buf := algotest.Collection(b, 10, 2000, act, rand.New(rand.NewPCG(1, 2)))
			obs := algotest.Box(b, -10, 10, 4)
			dcfg := dqn.DefaultConfig()
			dcfg.Gamma, dcfg.NStep, dcfg.TargetUpdateFreq = 0.9, 3, 320
			rng := rand.New(rand.NewPCG(3, 4))
			d, err := dqn.New(dcfg, obs, act, rng)
			if err != nil {
				b.Fatal(err)
			}
			var a algo.OffPolicy = d
			if c.withICM {
				cfg := icm.DefaultConfig()
				cfg.ObsNorm, cfg.RewardNorm = c.obsNorm, c.obsNorm
				if c.small {
					cfg.FeatureHidden, cfg.FeatureDim, cfg.ModelHidden = []int{64}, 64, []int{64}
				}
				if a, err = icm.New(cfg, d, obs, act, rng); err != nil {
					b.Fatal(err)
				}
			}
			var l algo.Learner
			srng := rand.New(rand.NewPCG(5, 6))
			cputime.Measure(b, func() {
				if _, err := l.Step(a, buf, 64, srng); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
