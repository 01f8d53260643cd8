package collector

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
)

// AsyncCollector runs a policy in a vector env without waiting for slow
// envs, Tianshou's AsyncCollector: it sends actions to the envs that are
// idle, then takes the results of the first WaitNum envs to finish (or of
// those finished when Timeout has passed), stores their transitions, and
// acts again for those envs while the others keep running. The envs that
// finished first are the ones stepped next.
//
// A Collect stops once at least NStep steps or NEpisode episodes are
// stored, leaving the envs that are still running in flight: the next
// Collect receives their results. Transitions, Infos, hidden states and
// statistics are as for Collector. An env's transition holds the
// observation it was sent an action for and that action, whenever its
// result arrives.
//
// An AsyncCollector is not safe for concurrent use.
type AsyncCollector struct {
	e       *engine
	waitNum int
	timeout time.Duration
	idle    []int  // envs with an observation and no action in flight, in the order they finished
	recvIDs []int  // the ids of the last Recv, copied
	acts    *table // the action each env was sent, by env id
	actRows *table // actions gathered for a Recv
	pols    *table // the policy data of each env's action, by env id; nil until there is some
	polRows *table
}

// NewAsync returns an AsyncCollector for cfg. It returns an error wrapping
// ErrConfig as New does, and for a negative WaitNum or Timeout.
func NewAsync(cfg AsyncConfig) (*AsyncCollector, error) {
	if cfg.WaitNum < 0 || cfg.Timeout < 0 {
		return nil, fmt.Errorf("%w: negative WaitNum %d or Timeout %v", ErrConfig, cfg.WaitNum, cfg.Timeout)
	}
	e, err := newEngine(cfg.Config)
	if err != nil {
		return nil, err
	}
	return &AsyncCollector{e: e, waitNum: cfg.WaitNum, timeout: cfg.Timeout,
		idle: make([]int, 0, e.n), recvIDs: make([]int, 0, e.n)}, nil
}

// Buffer returns the buffer the collector stores into, as Collector.Buffer
// does.
func (c *AsyncCollector) Buffer() Buffer { return c.e.buf }

// Reset waits for the envs in flight, dropping their results, then resets
// every env, and ends the episodes in progress in the buffer, as
// Collector.Reset does.
func (c *AsyncCollector) Reset(ctx context.Context, seeds []env.Seed) error {
	if seeds != nil && len(seeds) != c.e.n {
		return fmt.Errorf("collector: Reset with %d seeds for %d envs", len(seeds), c.e.n)
	}
	c.e.ready = false
	if err := c.drain(ctx); err != nil {
		return err
	}
	c.e.abandon()
	if err := c.e.reset(ctx, nil, seeds); err != nil {
		return err
	}
	c.idle = append(c.idle[:0], c.e.all...)
	c.e.ready = true
	return nil
}

// drain receives every env in flight and drops the results: their
// episodes are being abandoned. Errors of those envs are dropped with them;
// ctx's error is returned.
func (c *AsyncCollector) drain(ctx context.Context) error {
	for c.e.venv.Running() > 0 {
		start := time.Now()
		_, err := c.e.venv.Recv(ctx, 0)
		c.e.stats.EnvTime += time.Since(start)
		if ctx.Err() != nil {
			return fmt.Errorf("collector: %w", ctx.Err())
		}
		_ = err // the results are dropped, failed ones too
	}
	return nil
}

// Collect collects at least NStep steps or NEpisode episodes, as the
// AsyncCollector documentation says, and returns their statistics. Errors
// are as for Collector.Collect; after an error in an env, the next Collect
// drops the envs in flight and resets every env first.
func (c *AsyncCollector) Collect(ctx context.Context, req Request) (Stats, error) {
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
	for {
		if err := c.step(ctx, req); err != nil {
			return e.end(), err
		}
		if req.NStep > 0 && e.stats.Steps >= req.NStep || req.NEpisode > 0 && len(e.stats.Returns) >= req.NEpisode {
			return e.end(), nil
		}
	}
}

// step sends actions to the idle envs and stores the results of those
// that finish first.
func (c *AsyncCollector) step(ctx context.Context, req Request) error {
	e := c.e
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("collector: %w", err)
	}
	if len(c.idle) > 0 {
		if err := c.send(req.Random); err != nil {
			return err
		}
	}
	start := time.Now()
	res, err := c.recv(ctx)
	e.stats.EnvTime += time.Since(start)
	if err != nil {
		if cerr := ctx.Err(); cerr == nil || !errors.Is(err, cerr) {
			// Envs were received with errors: their results are lost.
			e.ready = false
		} // else nothing was received, and the envs in flight stay so
		return fmt.Errorf("collector: step: %w", err)
	}
	// res is overwritten by the resets of store: keep the ids.
	c.recvIDs = append(c.recvIDs[:0], res.IDs...)
	ids := c.recvIDs
	obs, act, pdata, err := c.sent(ids)
	if err == nil {
		err = e.store(ctx, ids, obs, act, pdata, res)
	}
	if err != nil {
		e.ready = false
		return err
	}
	c.idle = append(c.idle, ids...)
	return nil
}

// sent returns what the envs ids acted on: their observations, actions
// and policy data, gathered in the order of ids.
func (c *AsyncCollector) sent(ids []int) (obs, act any, pdata *batch.Batch, err error) {
	e := c.e
	if obs, err = rowsOf(e.obs, e.obsRows, ids); err != nil {
		return nil, nil, nil, fmt.Errorf("collector: %w", err)
	}
	if act, err = rowsOf(c.acts, c.actRows, ids); err != nil {
		return nil, nil, nil, fmt.Errorf("collector: act: %w", err)
	}
	if c.pols == nil {
		return obs, act, e.reserved, nil
	}
	p, err := rowsOf(c.pols, c.polRows, ids)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("collector: policy data: %w", err)
	}
	return obs, act, p.(*batch.Batch), nil
}

// send acts for the idle envs, keeps each env's action and policy data
// until its result arrives, and starts the envs.
func (c *AsyncCollector) send(random bool) error {
	e := c.e
	ids := c.idle
	t0 := time.Now()
	a, err := e.act(ids, random)
	t1 := time.Now()
	e.stats.PolicyTime += t1.Sub(t0)
	if err != nil {
		return err
	}
	// From here on the hidden states have moved on: a failure leaves the
	// collector out of step with the envs.
	if err := c.keep(ids, a); err != nil {
		e.ready = false
		return err
	}
	t2 := time.Now()
	err = e.venv.Send(ids, a.send)
	e.stats.EnvTime += time.Since(t2)
	if err != nil {
		e.ready = false
		return fmt.Errorf("collector: send: %w", err)
	}
	c.idle = c.idle[:0]
	return nil
}

// keep stores the rows of a's stored actions and policy data by env id.
func (c *AsyncCollector) keep(ids []int, a action) error {
	k, n := len(ids), c.e.n
	var err error
	if c.acts == nil {
		if c.acts, err = tableLike(a.stored, n); err != nil {
			return fmt.Errorf("collector: policy: act: %w", err)
		}
		if c.actRows, err = tableLike(a.stored, n); err != nil {
			return fmt.Errorf("collector: policy: act: %w", err)
		}
	}
	if err := moveRows(c.acts.full, rowIDs(ids), a.stored, nil, k); err != nil {
		return fmt.Errorf("collector: policy: act: %w", err)
	}
	// Policy data: envs sent without any (random actions) get zeros, as
	// Tianshou pads missing keys; data of a new structure gets a new table
	// (the envs in flight then store zeros too).
	if a.pdata.NumKeys() == 0 {
		if c.pols != nil {
			zeroRows(c.pols.full, ids)
		}
		return nil
	}
	if c.pols == nil || !sameStructure(c.pols.full.(*batch.Batch), a.pdata) {
		if c.pols, err = tableLike(a.pdata, n); err != nil {
			return fmt.Errorf("collector: policy data: %w", err)
		}
		if c.polRows, err = tableLike(a.pdata, n); err != nil {
			return fmt.Errorf("collector: policy data: %w", err)
		}
	}
	if err := moveRows(c.pols.full, rowIDs(ids), a.pdata, nil, k); err != nil {
		return fmt.Errorf("collector: policy data: %w", err)
	}
	return nil
}

// sameStructure reports whether every key of b is in t with the same kind
// of value, so that moveRows can copy b's rows into t.
func sameStructure(t, b *batch.Batch) bool {
	if t.NumKeys() != b.NumKeys() {
		return false
	}
	for key, v := range b.Items() {
		w, ok := t.Get(key)
		if !ok {
			return false
		}
		if vb, ok := v.(*batch.Batch); ok {
			wb, ok := w.(*batch.Batch)
			if !ok || !sameStructure(wb, vb) {
				return false
			}
		}
	}
	return true
}

// recv waits for the envs in flight as WaitNum and Timeout say. As in
// Tianshou, a timeout with no env finished waits again: a vector step
// returns at least one env.
func (c *AsyncCollector) recv(ctx context.Context) (*vector.Result, error) {
	if c.timeout == 0 {
		return c.e.venv.Recv(ctx, c.waitNum)
	}
	for {
		tctx, cancel := context.WithTimeout(ctx, c.timeout)
		res, err := c.e.venv.Recv(tctx, c.waitNum)
		cancel()
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return res, err
		}
	}
}
