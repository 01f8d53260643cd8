package vector

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime/debug"
	"sync"

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
// Close stops every goroutine: after it returns none is left.
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
	wg      sync.WaitGroup
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
}

// NewAsync returns an Async running envs, one goroutine each; it owns the
// envs from then on (Close closes them). It returns an error if there is
// no env or the envs' spaces differ.
func NewAsync(envs []env.Env) (*Async, error) {
	c, err := newCommon(envs)
	if err != nil {
		return nil, err
	}
	n := len(envs)
	a := &Async{common: c, cmds: make([]chan command, n), done: make(chan int, n), slots: make([]slot, n),
		state: make([]envState, n), ready: make([]int, 0, n), rowOf: make([]int, n), frames: make([]image.Image, n)}
	a.wg.Add(n)
	for id := range a.cmds {
		a.cmds[id] = make(chan command, 1)
		go a.work(id)
	}
	return a, nil
}

// work is the goroutine owning env id: it runs commands until its channel
// is closed, announcing each finished one on done (which has room for one
// message per env, so it never blocks).
func (a *Async) work(id int) {
	defer a.wg.Done()
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
	a.cmds[id] <- cmd
}

// wait collects the envs ids started by start, putting env id's result in
// row rowOf[id]; envs of an earlier Send that finish meanwhile are queued
// for Recv. On ctx's end it returns ctx's error; the envs still working are
// then collected by later calls (as if sent).
func (a *Async) wait(ctx context.Context, ids []int, kind commandKind) (*Result, error) {
	var errs []error
	for left := len(ids); left > 0; left-- {
		var id int
		select {
		case id = <-a.done:
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
	ids = a.ids(ids)
	a.checkIdle(ids)
	if seeds != nil && len(seeds) != len(ids) {
		return nil, fmt.Errorf("vector: Reset with %d seeds for %d envs", len(seeds), len(ids))
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
// error wrapping env.ErrAction if actions do not hold one value per env;
// when ctx is done first, ctx's error, and the envs still stepping are
// received by Recv. Errors of several envs are joined.
func (a *Async) Step(ctx context.Context, ids []int, actions any) (*Result, error) {
	a.checkOpen("Step")
	ids = a.ids(ids)
	a.checkIdle(ids)
	if err := a.load(ids, actions); err != nil {
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
	ids = a.ids(ids)
	a.checkIdle(ids)
	if err := a.load(ids, actions); err != nil {
		return err
	}
	for _, id := range ids {
		a.state[id] = sent
		a.running++
		a.cmds[id] <- command{kind: cmdStep}
	}
	return nil
}

// Recv returns the results of waitNum sent envs (all, for waitNum ≤ 0) in
// the order they finished, or of those finished when ctx is done (a nil
// Result and ctx's error if none has). Errors of received envs are joined
// and returned instead of the Result.
func (a *Async) Recv(ctx context.Context, waitNum int) (*Result, error) {
	a.checkOpen("Recv")
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
	a.checkIdle(a.all)
	return a.marshalStates()
}

// UnmarshalState restores states MarshalState returned, all or none.
func (a *Async) UnmarshalState(data []byte) error {
	a.checkOpen("UnmarshalState")
	a.checkIdle(a.all)
	states, err := a.splitStates(data)
	if err != nil {
		return err
	}
	return a.restore(states)
}

// Close stops the goroutines, waiting for envs still running, then closes
// the envs and returns their errors, joined. Later calls return nil.
func (a *Async) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	for _, c := range a.cmds {
		close(c)
	}
	a.wg.Wait()
	var errs []error
	for i, e := range a.envs {
		if err := e.Close(); err != nil {
			errs = append(errs, envError(i, err))
		}
	}
	return errors.Join(errs...)
}
