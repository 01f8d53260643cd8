package collector

import (
	"context"
	"fmt"
	"time"

	"github.com/gorl/gorl/env"
)

// Collector runs a policy in a vector env and stores the transitions in a
// buffer, Tianshou's Collector. Every Collect steps the envs it uses
// together, one vector step at a time, and waits for all of them.
//
// Each vector step acts on the envs' last observations, steps the envs,
// adds one transition per env (obs, act, rew, terminated, truncated,
// obs_next, info, policy) to env i's sub-buffer i, and resets the envs whose
// episode ended, so that a stored obs_next is the true last observation.
// The last observation, Info and hidden state of every env are kept across
// Collects: a Collect continues the episodes the previous one left in
// progress unless ResetBeforeCollect is set.
//
// With NEpisode, the first min(NEpisode, n) envs step, and once as many
// episodes have been started as are still wanted, an env whose episode ends
// is reset but steps no more, so exactly NEpisode episodes are stored
// (Tianshou's rule; every env used contributes at least one episode). With
// NStep, every env steps until at least NStep steps are stored.
//
// A Collector is not safe for concurrent use.
type Collector struct {
	e      *engine
	active []int
}

// New returns a Collector for cfg. It returns an error wrapping ErrConfig
// if cfg has no Env, if Buffer has fewer sub-buffers than Env has envs, or
// if Policy is an ActionMapper and the action space is a Dict or Tuple. The
// envs are reset by the first Collect (or by Reset, with seeds).
func New(cfg Config) (*Collector, error) {
	e, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	return &Collector{e: e, active: make([]int, 0, e.n)}, nil
}

// Buffer returns the buffer the collector stores into: Config.Buffer, or
// the *buffer.Vector it made when that was nil.
func (c *Collector) Buffer() Buffer { return c.e.buf }

// Reset resets every env, env i with seeds[i] (seeds may be nil: no
// seeds), and forgets the episodes in progress: observations, Infos,
// running returns and lengths start afresh and hidden states become zero.
// Transitions already stored stay in the buffer, and the episodes in
// progress end there: the last transition stored of each is marked
// truncated (Buffer.EndEpisode), as at a time limit. Seeded resets
// make a run reproducible, with a reproducible policy and Config.Rand.
func (c *Collector) Reset(ctx context.Context, seeds []env.Seed) error {
	if seeds != nil && len(seeds) != c.e.n {
		return fmt.Errorf("collector: Reset with %d seeds for %d envs", len(seeds), c.e.n)
	}
	c.e.ready = false
	c.e.abandon()
	if err := c.e.reset(ctx, nil, seeds); err != nil {
		return err
	}
	c.e.ready = true
	return nil
}

// Collect collects NStep steps or NEpisode episodes as req says (see
// Collector for which envs step), storing every step in the buffer, and
// returns the statistics of what it collected.
//
// It returns an error wrapping ErrRequest for an invalid req, before doing
// anything. Errors of the envs (naming the env), of the policy, of the
// buffer, and ctx's error end the Collect and are returned, wrapped, with
// the statistics of the steps stored until then. The buffer holds whole
// vector steps only: a step that failed stored nothing. After a failure
// within a vector step (an env's error or panic, the buffer refusing the
// data, an Info that does not fit, ctx ending the step midway), the envs
// are out of step with the collector, and the next Collect resets them all
// first, as ResetBeforeCollect does; after an error of the policy, or ctx
// ending before a vector step, nothing was stepped and the next Collect
// continues.
func (c *Collector) Collect(ctx context.Context, req Request) (Stats, error) {
	e := c.e
	if err := e.validate(req); err != nil {
		return Stats{}, err
	}
	e.begin(req)
	if req.ResetBeforeCollect || !e.ready {
		if err := c.Reset(ctx, nil); err != nil {
			return e.end(), err
		}
	}
	k := e.n
	if req.NEpisode > 0 {
		k = min(k, req.NEpisode)
	}
	c.active = append(c.active[:0], e.all[:k]...)
	for {
		if err := c.step(ctx, req); err != nil {
			return e.end(), err
		}
		if req.NStep > 0 && e.stats.Steps >= req.NStep {
			break
		}
		if req.NEpisode > 0 {
			left := req.NEpisode - len(e.stats.Returns)
			if left <= 0 {
				break
			}
			// Envs whose episode just ended and that are not needed for
			// the episodes left step no more.
			if surplus := len(c.active) - left; surplus > 0 {
				c.drop(e.doneIDs[:surplus])
			}
		}
	}
	return e.end(), nil
}

// step runs one vector step of the active envs.
func (c *Collector) step(ctx context.Context, req Request) error {
	e := c.e
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collector: %w", err)
	}
	t0 := time.Now()
	a, err := e.act(c.active, req.Random)
	t1 := time.Now()
	e.stats.PolicyTime += t1.Sub(t0)
	if err != nil {
		return err
	}
	res, err := e.venv.Step(ctx, c.active, a.send)
	e.stats.EnvTime += time.Since(t1)
	if err != nil {
		e.ready = false
		return fmt.Errorf("collector: step: %w", err)
	}
	if err := e.store(ctx, c.active, a.obs, a.stored, a.pdata, res); err != nil {
		e.ready = false
		return err
	}
	return nil
}

// drop removes the envs ids from the active envs.
func (c *Collector) drop(ids []int) {
	kept := c.active[:0]
	for _, id := range c.active {
		gone := false
		for _, d := range ids {
			gone = gone || d == id
		}
		if !gone {
			kept = append(kept, id)
		}
	}
	c.active = kept
}
