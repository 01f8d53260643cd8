package marl

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
)

// Store is what a collector needs from an agent's buffer: buffer.Buffer's
// Add.
type Store interface {
	Add(data *batch.Batch, ids []int, steps []buffer.Step) ([]buffer.Step, error)
}

// Episode is what one collected episode gave each agent.
type Episode struct {
	// Returns holds each agent's sum of rewards.
	Returns map[string]float64
	// Steps counts the env's steps (turns of live agents in an AEC env,
	// dead steps not counted).
	Steps int
}

// AECCollector plays a turn-based env with a Dispatcher and stores each
// agent's transitions in that agent's buffer (see the package comment). It
// is not safe for concurrent use.
type AECCollector struct {
	env   multiagent.AEC
	disp  *Dispatcher
	bufs  map[string]Store
	seed  env.Seed
	open  map[string]*openTurn
	steps []buffer.Step
}

// openTurn is an agent's last turn, waiting for its outcome.
type openTurn struct {
	obs any
	act *nd.Array
}

// NewAECCollector returns a collector of e's games. bufs maps agents to
// their buffers; an agent without one is not recorded (a fixed opponent),
// and agents may share a buffer. seed seeds the first Reset; later games
// continue the env's random stream.
func NewAECCollector(e multiagent.AEC, d *Dispatcher, bufs map[string]Store, seed env.Seed) *AECCollector {
	return &AECCollector{env: e, disp: d, bufs: bufs, seed: seed, open: map[string]*openTurn{}}
}

// Collect plays n games, each agent acting with its policy (explore is
// passed to the policies), and returns what each game gave each agent.
// It returns the first error of the env, a policy or a buffer.
func (c *AECCollector) Collect(n int, explore bool) ([]Episode, error) {
	return play(n, explore, c.episode)
}

func (c *AECCollector) episode(explore bool) (Episode, error) {
	e := c.env
	if err := e.Reset(c.seed); err != nil {
		return Episode{}, err
	}
	c.seed = env.NoSeed
	clear(c.open)
	ep := Episode{Returns: map[string]float64{}}
	for len(e.Agents()) > 0 {
		a := e.AgentSelection()
		obs, r, term, trunc, _ := e.Last()
		ep.Returns[a] += r
		obs = copyValue(obs)
		if err := c.close(a, obs, r, term, trunc); err != nil {
			return ep, err
		}
		if term || trunc {
			if err := e.Step(nil); err != nil {
				return ep, err
			}
			continue
		}
		act, err := c.disp.Act(a, obs, explore)
		if err != nil {
			return ep, err
		}
		if c.bufs[a] != nil {
			c.open[a] = &openTurn{obs: obs, act: act.(*nd.Array).Copy()}
		}
		if err := e.Step(act); err != nil {
			return ep, fmt.Errorf("marl: %s's step: %w", a, err)
		}
		ep.Steps++
	}
	return ep, nil
}

// close completes agent a's open turn with what it sees now and stores the
// transition.
func (c *AECCollector) close(a string, obs any, r float64, term, trunc bool) error {
	t := c.open[a]
	if t == nil {
		return nil
	}
	delete(c.open, a)
	return store(c.bufs[a], a, t.obs, t.act, r, term, trunc, obs, &c.steps)
}

// store adds one transition to buf.
func store(buf Store, agent string, obs any, act *nd.Array, r float64, term, trunc bool, next any, steps *[]buffer.Step) error {
	tr, err := batch.New(batch.KeyObs, obs, batch.KeyAct, act, batch.KeyRew, r,
		batch.KeyTerminated, term, batch.KeyTruncated, trunc, batch.KeyObsNext, next)
	if err != nil {
		return fmt.Errorf("marl: %s's transition: %w", agent, err)
	}
	if *steps, err = buf.Add(tr, nil, (*steps)[:0]); err != nil {
		return fmt.Errorf("marl: %s's buffer: %w", agent, err)
	}
	return nil
}

// ParallelCollector plays a Parallel env with a Dispatcher and stores each
// agent's transition of every step in that agent's buffer. It is not safe
// for concurrent use.
type ParallelCollector struct {
	env   multiagent.Parallel
	disp  *Dispatcher
	bufs  map[string]Store
	seed  env.Seed
	acts  map[string]any
	prev  map[string]any
	steps []buffer.Step
}

// NewParallelCollector returns a collector of e's episodes, with bufs and
// seed as in NewAECCollector.
func NewParallelCollector(e multiagent.Parallel, d *Dispatcher, bufs map[string]Store, seed env.Seed) *ParallelCollector {
	return &ParallelCollector{env: e, disp: d, bufs: bufs, seed: seed, acts: map[string]any{}, prev: map[string]any{}}
}

// Collect plays n episodes and returns what each gave each agent. It
// returns the first error of the env, a policy or a buffer.
func (c *ParallelCollector) Collect(n int, explore bool) ([]Episode, error) {
	return play(n, explore, c.episode)
}

// play runs n episodes and returns them, up to the first error.
func play(n int, explore bool, episode func(explore bool) (Episode, error)) ([]Episode, error) {
	eps := make([]Episode, 0, n)
	for range n {
		ep, err := episode(explore)
		if err != nil {
			return eps, err
		}
		eps = append(eps, ep)
	}
	return eps, nil
}

func (c *ParallelCollector) episode(explore bool) (Episode, error) {
	e := c.env
	obs, _, err := e.Reset(c.seed)
	if err != nil {
		return Episode{}, err
	}
	c.seed = env.NoSeed
	clear(c.prev)
	for a, o := range obs {
		c.prev[a] = copyValue(o)
	}
	ep := Episode{Returns: map[string]float64{}}
	for len(e.Agents()) > 0 {
		clear(c.acts)
		for _, a := range e.Agents() {
			act, err := c.disp.Act(a, c.prev[a], explore)
			if err != nil {
				return ep, err
			}
			c.acts[a] = act
		}
		obs, rew, term, trunc, _, err := e.Step(c.acts)
		if err != nil {
			return ep, err
		}
		ep.Steps++
		for a, act := range c.acts {
			next := copyValue(obs[a])
			ep.Returns[a] += rew[a]
			if buf := c.bufs[a]; buf != nil {
				if err := store(buf, a, c.prev[a], act.(*nd.Array), rew[a], term[a], trunc[a], next, &c.steps); err != nil {
					return ep, err
				}
			}
			c.prev[a] = next
		}
	}
	return ep, nil
}

// copyValue copies an observation the env may overwrite.
func copyValue(v any) any {
	switch x := v.(type) {
	case *nd.Array:
		return x.Copy()
	case *batch.Batch:
		return x.Clone()
	}
	return v
}
