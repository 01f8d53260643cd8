package vector

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime/debug"
	"time"

	"github.com/gorl/gorl/env"
)

// Async runs each env in a goroutine of its own, Tianshou's
// SubprocVectorEnv without processes: the goroutine owns the env, takes
// commands from a channel and writes results into a slot preallocated for
// its env; the calling goroutine copies finished slots into the stacked
// Result. A panic inside an env is recovered in its goroutine and returned
// as a *PanicError naming the env.
//
// Step, Reset and Render run their envs concurrently and wait for them;
// Send and Recv step envs asynchronously (Tianshou's wait_num and timeout).
// Close stops every goroutine: after it returns none is left, except the
// goroutine of an env abandoned after Config.StepTimeout, which ends when
// its env's call returns, if ever.
type Async struct {
	*common
	cmds    []chan command
	done    chan int // ids of envs whose command finished
	slots   []slot
	state   []envState
	ready   []int // finished envs not yet received, in the order they finished
	running int   // envs sent and not received
	rowOf   []int // row of each env in the current Step or Reset
	frames  []image.Image
	exited  []chan struct{} // closed by each goroutine as it ends
	timer   *time.Timer     // for Config.StepTimeout; nil without one
	sentAt  []time.Time     // when each running env was started, with a timeout
}

type envState uint8

const (
	idle     envState = iota
	sent              // started by Send, result not received
	stepping          // started by Step, Reset or Render, which wait for it
)

type commandKind uint8

const (
	cmdStep commandKind = iota
	cmdReset
	cmdRender
)

type command struct {
	kind commandKind
	seed env.Seed
}

// slot is where an env's goroutine leaves the result of its last command.
type slot struct {
	obs         any
	reward      float64
	term, trunc bool
	info        env.Info
	frame       image.Image
	err         error
	kind        commandKind // of the last command sent, set before sending
}

// NewAsync returns an Async running envs, one goroutine each, with the
// zero Config; it owns the envs from then on (Close closes them). It
// returns an error if there is no env or the envs' spaces differ.
func NewAsync(envs []env.Env) (*Async, error) { return newAsync(envs, Config{}) }

func newAsync(envs []env.Env, cfg Config) (*Async, error) {
	c, err := newCommon(envs, cfg)
	if err != nil {
		return nil, err
	}
	n := len(envs)
	a := &Async{common: c, cmds: make([]chan command, n), done: make(chan int, n), slots: make([]slot, n),
		state: make([]envState, n), ready: make([]int, 0, n), rowOf: make([]int, n), frames: make([]image.Image, n),
		exited: make([]chan struct{}, n)}
	if cfg.StepTimeout > 0 {
		a.timer = time.NewTimer(cfg.StepTimeout)
		a.timer.Stop()
		a.sentAt = make([]time.Time, n)
	}
	for id := range a.cmds {
		a.cmds[id] = make(chan command, 1)
		a.exited[id] = make(chan struct{})
		go a.work(id)
	}
	return a, nil
}

// work is the goroutine owning env id: it runs commands until its channel
// is closed, announcing each finished one on done (which has room for one
// message per env, so it never blocks).
func (a *Async) work(id int) {
	defer close(a.exited[id])
	for cmd := range a.cmds[id] {
		a.run(id, cmd)
		a.done <- id
	}
}

// run executes one command, turning a panic of the env into a *PanicError.
func (a *Async) run(id int, cmd command) {
	s := &a.slots[id]
	defer func() {
		if v := recover(); v != nil {
			s.err = &PanicError{Env: id, Value: v, Stack: debug.Stack()}
		}
	}()
	s.err = nil
	e := a.envs[id]
	switch cmd.kind {
	case cmdStep:
		s.obs, s.reward, s.term, s.trunc, s.info, s.err = e.Step(a.acts[id].view)
	case cmdReset:
		s.obs, s.info, s.err = e.Reset(cmd.seed)
		s.reward, s.term, s.trunc = 0, false, false
	case cmdRender:
		s.frame, s.err = env.Render(e)
	}
	if s.err != nil {
		s.err = envError(id, s.err)
	}
}

// checkIdle panics if an env of ids has been sent and not received.
func (a *Async) checkIdle(ids []int) {
	for _, id := range ids {
		if a.state[id] != idle {
			panic(fmt.Errorf("%w: env %d", ErrBusy, id))
		}
	}
}

// start sends cmd to env id, whose result wait puts in row j.
func (a *Async) start(id, j int, cmd command) {
	a.state[id] = stepping
	a.rowOf[id] = j
	a.send(id, cmd)
}

// send counts and timestamps a command of env id and sends it.
func (a *Async) send(id int, cmd command) {
	a.counted(id, cmd.kind)
	a.slots[id].kind = cmd.kind
	if a.timer != nil {
		a.sentAt[id] = time.Now()
	}
	a.cmds[id] <- cmd
}

// armTimer sets the timer to the earliest deadline of the running envs
// (state stepping or sent) and returns its channel, or nil without a
// timeout.
func (a *Async) armTimer() <-chan time.Time {
	if a.timer == nil {
		return nil
	}
	var first time.Time
	for id, st := range a.state {
		if st != idle && !a.stuck[id] && (first.IsZero() || a.sentAt[id].Before(first)) {
			first = a.sentAt[id]
		}
	}
	if first.IsZero() {
		return nil
	}
	a.timer.Reset(time.Until(first.Add(a.cfg.StepTimeout)))
	return a.timer.C
}

// expire abandons the running envs whose call has passed the timeout and
// returns their errors, joined, or nil if none has (the timer fired early).
// The vector env is unusable afterwards.
func (a *Async) expire() error {
	now := time.Now()
	var errs []error
	for id, st := range a.state {
		if st != idle && !a.stuck[id] && now.Sub(a.sentAt[id]) >= a.cfg.StepTimeout {
			a.stuck[id] = true
			errs = append(errs, a.timeoutError(id, a.slots[id].kind, a.cfg.StepTimeout))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	a.broken = errors.Join(errs...)
	return a.broken
}

// wait collects the envs ids started by start, putting env id's result in
// row rowOf[id]; envs of an earlier Send that finish meanwhile are queued
// for Recv. On ctx's end it returns ctx's error; the envs still working are
// then collected by later calls (as if sent).
func (a *Async) wait(ctx context.Context, ids []int, kind commandKind) (*Result, error) {
	var errs []error
	tc := a.armTimer()
	if tc != nil {
		defer a.timer.Stop()
	}
	for left := len(ids); left > 0; left-- {
		var id int
		select {
		case id = <-a.done:
		case <-tc:
			if err := a.expire(); err != nil {
				return nil, err
			}
			tc = a.armTimer()
			left++
			continue
		case <-ctx.Done():
			for _, id := range ids {
				if a.state[id] == stepping {
					a.state[id] = sent
					a.running++
				}
			}
			return nil, ctx.Err()
		}
		if a.state[id] == sent {
			a.ready = append(a.ready, id)
			left++
			continue
		}
		a.state[id] = idle
		if err := a.collect(a.rowOf[id], id, kind); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return a.result(len(ids)), nil
}

// collect copies env id's slot into row j.
func (a *Async) collect(j, id int, kind commandKind) error {
	s := &a.slots[id]
	if s.err != nil {
		return s.err
	}
	if kind == cmdRender {
		a.frames[j] = s.frame
		return nil
	}
	return a.record(j, id, s.obs, s.reward, s.term, s.trunc, s.info)
}

// Reset resets the envs ids concurrently and waits for them. When ctx is
// done first it returns ctx's error, and the envs still resetting are
// received by Recv. Errors of several envs are joined.
func (a *Async) Reset(ctx context.Context, ids []int, seeds []env.Seed) (*Result, error) {
	a.checkOpen("Reset")
	if err := a.usable(); err != nil {
		return nil, err
	}
	ids = a.ids(ids)
	a.checkIdle(ids)
	if seeds != nil && len(seeds) != len(ids) {
		return nil, fmt.Errorf("vector: Reset with %d seeds for %d envs", len(seeds), len(ids))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for j, id := range ids {
		cmd := command{kind: cmdReset}
		if seeds != nil {
			cmd.seed = seeds[j]
		}
		a.start(id, j, cmd)
	}
	return a.wait(ctx, ids, cmdReset)
}

// Step steps the envs ids concurrently and waits for them. It returns an
// error wrapping env.ErrAction if actions do not hold one value per env,
// and ctx's error, starting nothing, if ctx is already done; when ctx is
// done first, ctx's error, and the envs still stepping are
// received by Recv. Errors of several envs are joined.
func (a *Async) Step(ctx context.Context, ids []int, actions any) (*Result, error) {
	a.checkOpen("Step")
	if err := a.usable(); err != nil {
		return nil, err
	}
	ids = a.ids(ids)
	a.checkIdle(ids)
	if err := a.load(ids, actions); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for j, id := range ids {
		a.start(id, j, command{kind: cmdStep})
	}
	return a.wait(ctx, ids, cmdStep)
}

// load copies the rows of actions into the envs' action slots.
func (a *Async) load(ids []int, actions any) error {
	if err := checkActions(&a.acts[0], actions, len(ids)); err != nil {
		return err
	}
	for j, id := range ids {
		if err := a.acts[id].load(actions, j, a.rowIdx[j]); err != nil {
			return envError(id, err)
		}
	}
	return nil
}

// Send copies the actions of the envs ids and starts stepping them. It
// returns an error wrapping env.ErrAction if actions do not hold one value
// per env, starting nothing.
func (a *Async) Send(ids []int, actions any) error {
	a.checkOpen("Send")
	if err := a.usable(); err != nil {
		return err
	}
	ids = a.ids(ids)
	a.checkIdle(ids)
	if err := a.load(ids, actions); err != nil {
		return err
	}
	for _, id := range ids {
		a.state[id] = sent
		a.running++
		a.send(id, command{kind: cmdStep})
	}
	return nil
}

// Recv returns the results of waitNum sent envs (all, for waitNum ≤ 0) in
// the order they finished, or of those finished when ctx is done (a nil
// Result and ctx's error if none has). Errors of received envs are joined
// and returned instead of the Result.
func (a *Async) Recv(ctx context.Context, waitNum int) (*Result, error) {
	a.checkOpen("Recv")
	if err := a.usable(); err != nil {
		return nil, err
	}
	if a.running == 0 {
		panic(fmt.Errorf("%w: Recv", ErrNotRunning))
	}
	if waitNum <= 0 || waitNum > a.running {
		waitNum = a.running
	}
	var errs []error
	k := 0
	take := func(id int) {
		a.state[id] = idle
		a.running--
		if err := a.collect(k, id, cmdStep); err != nil {
			errs = append(errs, err)
		}
		k++
	}
	m := 0 // envs that finished during a Step or Reset come first
	for ; k < waitNum && m < len(a.ready); m++ {
		take(a.ready[m])
	}
	a.ready = a.ready[:copy(a.ready, a.ready[m:])]
	var tc <-chan time.Time
	if k < waitNum {
		if tc = a.armTimer(); tc != nil {
			defer a.timer.Stop()
		}
	}
wait:
	for k < waitNum {
		select { // take what has finished before looking at ctx
		case id := <-a.done:
			take(id)
			continue
		default:
		}
		select {
		case id := <-a.done:
			take(id)
		case <-tc:
			if err := a.expire(); err != nil {
				return nil, err
			}
			tc = a.armTimer()
		case <-ctx.Done():
			break wait
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if k == 0 {
		return nil, ctx.Err()
	}
	return a.result(k), nil
}

// Running returns the number of envs sent and not received.
func (a *Async) Running() int { return a.running }

// Render renders the envs ids concurrently and returns their frames.
func (a *Async) Render(ids []int) ([]image.Image, error) {
	a.checkOpen("Render")
	if err := a.usable(); err != nil {
		return nil, err
	}
	ids = a.ids(ids)
	a.checkIdle(ids)
	for j, id := range ids {
		a.start(id, j, command{kind: cmdRender})
	}
	if _, err := a.wait(context.Background(), ids, cmdRender); err != nil {
		return nil, err
	}
	return a.frames[:len(ids)], nil
}

// MarshalState returns the states of every env. The envs are read from the
// calling goroutine while their own goroutines wait, which the channel
// handshake orders.
func (a *Async) MarshalState() ([]byte, error) {
	a.checkOpen("MarshalState")
	if err := a.usable(); err != nil {
		return nil, err
	}
	a.checkIdle(a.all)
	return a.marshalStates()
}

// UnmarshalState restores states MarshalState returned, all or none.
func (a *Async) UnmarshalState(data []byte) error {
	a.checkOpen("UnmarshalState")
	if err := a.usable(); err != nil {
		return err
	}
	a.checkIdle(a.all)
	states, err := a.splitStates(data)
	if err != nil {
		return err
	}
	return a.restore(states)
}

// drainDone marks idle the envs whose finished command is announced on
// done, before Close waits: their results are dropped.
func (a *Async) drainDone() {
	for {
		select {
		case id := <-a.done:
			a.state[id] = idle
		default:
			return
		}
	}
}

// Close stops the goroutines, waiting for envs still running, then closes
// the envs and returns their errors, joined. Later calls return nil. With
// Config.StepTimeout, it waits for a running env no longer than its call's
// timeout: an env that has not returned by then is abandoned like one that
// timed out during a call, and neither kind is closed or waited for (Close
// returns an error naming them).
func (a *Async) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	for _, c := range a.cmds {
		close(c)
	}
	var errs []error
	a.drainDone()
	tc := a.armTimer()
	for id := range a.envs {
		for !a.stuck[id] {
			select {
			case <-a.exited[id]:
			case <-tc:
				a.drainDone()
				if err := a.expire(); err != nil {
					errs = append(errs, err)
				}
				tc = a.armTimer()
				continue
			}
			break
		}
	}
	if a.timer != nil {
		a.timer.Stop()
	}
	for i, e := range a.envs {
		if a.stuck[i] {
			errs = append(errs, fmt.Errorf("env %d: not closed: abandoned after a call ran past the step timeout", i))
			continue
		}
		if err := e.Close(); err != nil {
			errs = append(errs, envError(i, err))
		}
	}
	return errors.Join(errs...)
}
