package maddpg

import (
	"fmt"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
)

// Episode plays one episode of e, reset with seed, until every agent has
// left, and returns the mean over the agents of their summed rewards. With
// explore the actions carry exploration noise; with learn every transition
// is stored and Update runs every UpdateEvery env steps (counting
// Counters.EnvSteps across episodes).
func (m *MADDPG) Episode(e multiagent.Parallel, seed env.Seed, explore, learn bool) (float64, error) {
	obs, _, err := e.Reset(seed)
	if err != nil {
		return 0, err
	}
	var ret float64
	for len(e.Agents()) > 0 {
		act, err := m.Act(obs, explore)
		if err != nil {
			return 0, err
		}
		next, rew, term, _, _, err := e.Step(act)
		if err != nil {
			return 0, fmt.Errorf("maddpg: step: %w", err)
		}
		for _, r := range rew {
			ret += r
		}
		if learn {
			if err := m.Store(next, rew, term); err != nil {
				return 0, err
			}
			m.Counters.EnvSteps++
			if m.Counters.EnvSteps%int64(m.cfg.UpdateEvery) == 0 {
				if _, err := m.Update(); err != nil {
					return 0, err
				}
			}
		}
		obs = next
	}
	return ret / float64(len(m.ids)), nil
}
