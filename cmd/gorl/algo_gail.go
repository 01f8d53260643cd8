package main

import (
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/gail"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
)

// gailRun is the algorithm configuration of --algo gail: GAIL's (PPO's
// fields at the top level, the discriminator's beside them) and the file
// of expert transitions.
type gailRun struct {
	gail.Config
	// Expert is a buffer file (buffer.Save's format, as gorl collect and
	// the offline runs write) of the expert's transitions to imitate.
	Expert string `json:"expert"`
}

func init() {
	Register("gail", Algorithm[gailRun]{
		Doc: "generative adversarial imitation (a discriminator's reward, PPO); on-policy, Discrete or Box actions, expert data from algorithm.expert=FILE",
		Defaults: func(envID string) (*gailRun, RunDefaults) {
			// The trainer of PPO's defaults on the same env: Tianshou's
			// GAIL test uses its Pendulum PPO test's.
			_, rd := algorithms["ppo"].defaults(envID)
			cfg := gail.DiscreteConfig()
			if boxActions(envID) {
				cfg = gail.DefaultConfig()
			}
			return &gailRun{Config: cfg}, rd
		},
		New: func(c *gailRun, obs, act env.Space, rng *rand.Rand) (algo.Algorithm, error) {
			if err := gail.CheckSpaces(obs, act); err != nil {
				return nil, err
			}
			expert, err := loadExpert(c.Expert)
			if err != nil {
				return nil, err
			}
			return gail.New(c.Config, obs, act, expert, rng)
		},
	})
}

// loadExpert reads the expert transitions of a GAIL run from a buffer
// file: the one place expert data comes from files.
func loadExpert(path string) (buffer.Buffer, error) {
	if path == "" {
		return nil, fmt.Errorf("gail imitates an expert: give its transitions with --set algorithm.expert=FILE (a buffer file)")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("expert data: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("expert data: %w", err)
	}
	b, err := buffer.Load(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("expert data %s: %w", path, err)
	}
	return b, nil
}
