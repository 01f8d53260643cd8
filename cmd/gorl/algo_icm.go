package main

import (
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/icm"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/trainer"
)

// icmDQNRun is the algorithm configuration of --algo icm-dqn: DQN's (with
// its prioritized replay option) at the top level, as for --algo dqn, and
// the module's under "icm". The module's n-step horizon follows DQN's.
type icmDQNRun struct {
	dqnRun
	ICM icm.Config `json:"icm"`
}

func init() {
	// ICM wraps an algorithm, so it is registered once per wrapped
	// algorithm as a name of its own (icm-dqn), which keeps each run's
	// configuration one flat JSON object with the module under "icm".
	Register("icm-dqn", Algorithm[icmDQNRun]{
		Doc: "DQN with the intrinsic curiosity module (curiosity bonus, forward and inverse models); off-policy, Discrete actions",
		Defaults: func(envID string) (*icmDQNRun, RunDefaults) {
			// Tianshou's test/modelbased/test_dqn_icm.py: the DQN of its
			// CartPole test (γ 0.9, 3-step, target copy every 320) and the
			// module's settings; ε 0.1 in training and 0.05 in tests.
			d := dqn.DefaultConfig()
			d.EpsTrain, d.EpsTrainFinal, d.EpsTest = 0.1, 0.1, 0.05
			tc := trainer.DefaultConfig()
			tc.Epochs, tc.StepPerEpoch = 20, 10_000
			return &icmDQNRun{dqnRun: dqnRun{Config: d}, ICM: icm.DefaultConfig()}, RunDefaults{
				Trainer: tc, TrainEnvs: 10, TestEnvs: 100, BufferSize: 20_000,
			}
		},
		New: func(c *icmDQNRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			d, err := dqn.New(c.Config, obs, act, rng)
			if err != nil {
				return nil, err
			}
			ic := c.ICM
			ic.NStep = c.Config.NStep
			return icm.New(ic, d, obs, act, rng)
		},
		Buffer: func(c *icmDQNRun, size, n int) (buffer.Buffer, error) {
			if c.Prioritized == nil {
				return buffer.NewVector(buffer.Config{Size: size}, n)
			}
			return buffer.NewPrioritizedVector(buffer.Config{Size: size}, n, *c.Prioritized)
		},
	})
}
