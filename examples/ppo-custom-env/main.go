// Command ppo-custom-env trains PPO on an env written here, in Go: a
// corridor whose agent must walk right to the exit. An env is any type
// with the five methods of env.Env; the trainer runs it like CartPole.
//
//	go run ./examples/ppo-custom-env
package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/trainer"
)

// corridor is an env of cells 0 … length-1: the agent starts in cell 0
// and moves left (action 0) or right (action 1). Reaching the last cell
// ends the episode with a reward of 1; every other step costs 0.01, and
// an episode is cut short after 4·length steps. The observation is the
// agent's position scaled to [0, 1]. Like every env, it refuses a Step
// after the end of an episode until the next Reset (env.ErrNeedReset).
type corridor struct {
	length, pos, steps int
	done               bool
	obs                *env.Box
	act                *env.Discrete
}

func newCorridor(length int) *corridor {
	obs, _ := env.NewBox(0.0, 1.0, []int{1}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	return &corridor{length: length, obs: obs, act: act}
}

func (c *corridor) Reset(env.Seed) (any, env.Info, error) {
	c.pos, c.steps, c.done = 0, 0, false
	return c.observe(), nil, nil
}

func (c *corridor) Step(action any) (any, float64, bool, bool, env.Info, error) {
	a, err := c.act.Int(action)
	if err != nil || c.done {
		return nil, 0, false, false, nil, cmp.Or(err, env.ErrNeedReset)
	}
	c.pos = max(0, min(c.length-1, c.pos+2*int(a)-1))
	c.steps++
	if c.pos == c.length-1 {
		c.done = true
		return c.observe(), 1, true, false, nil, nil
	}
	c.done = c.steps >= 4*c.length
	return c.observe(), -0.01, false, c.done, nil, nil
}

func (c *corridor) observe() any {
	return nd.MustNew([]float32{float32(c.pos) / float32(c.length-1)})
}

func (c *corridor) ObservationSpace() env.Space { return c.obs }
func (c *corridor) ActionSpace() env.Space      { return c.act }
func (c *corridor) Close() error                { return nil }

// settings are what the smoke test shrinks.
type settings struct {
	epochs, stepPerEpoch int
}

func main() {
	if err := run(os.Stdout, settings{epochs: 10, stepPerEpoch: 4000}); err != nil {
		fmt.Fprintln(os.Stderr, "ppo-custom-env:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, s settings) error {
	const length = 8
	envs := func(n int) []env.Env {
		es := make([]env.Env, n)
		for i := range es {
			es[i] = newCorridor(length)
		}
		return es
	}
	probe := newCorridor(length)
	cfg := ppo.DefaultConfig()
	cfg.Net.Hidden = []int{32, 32}
	agent, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return err
	}
	// The best return walks straight to the exit: 1 − 0.01·(length−2).
	threshold := 0.9
	tc := trainer.Config{Epochs: s.epochs, StepPerEpoch: s.stepPerEpoch, StepPerCollect: 400, RepeatPerCollect: 4,
		BatchSize: 64, TestEpisodes: 8, RewardThreshold: &threshold}
	tr, err := trainer.New(agent, tc, trainer.Setup{TrainEnvs: envs(4), TestEnvs: envs(4), Seed: 1,
		OnEpoch: func(e trainer.EpochStats) {
			fmt.Fprintf(w, "epoch %d: test return %.2f after %d env steps\n", e.Epoch, e.TestReturn, e.EnvSteps)
		}})
	if err != nil {
		return err
	}
	defer tr.Close()
	res, err := tr.Run(context.Background())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "solved: %v, best test return %.2f\n", res.Solved, res.BestReturn)
	return nil
}
