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

// Sync runs its envs one after the other in the calling goroutine,
// Tianshou's DummyVectorEnv. It starts no goroutine, is deterministic, and
// is the vector env to use in tests and with cheap envs: its Step does not
// allocate once the result storage exists (with actions of the action
// space's dtype and envs that do not allocate).
//
// Send only copies the actions; Recv then steps the sent envs in the order
// they were sent, stopping after waitNum of them, so that code written for
// asynchronous envs can be tested deterministically.
//
// The context is honoured between envs: a call whose context ends stops
// before the next env. An env's call that never returns blocks Sync for
// ever unless Config.StepTimeout is set; Sync then runs the envs' calls in
// one goroutine of its own and waits for each at most that long.
type Sync struct {
	*common
	queue   []int // ids sent and not received, in the order sent
	running []bool
	frames  []image.Image

	// With Config.StepTimeout: the goroutine running the envs' calls.
	calls  chan syncCall
	ret    chan struct{} // a call finished; its results are in out
	out    syncOut
	exited chan struct{}
	timer  *time.Timer
}

// syncCall is a call of env id run by Sync's goroutine.
type syncCall struct {
	id   int
	kind commandKind
	seed env.Seed
}

// syncOut is the result of a syncCall.
type syncOut struct {
	obs         any
	r           float64
	term, trunc bool
	info        env.Info
	frame       image.Image
	err         error
}

// NewSync returns a Sync running envs with the zero Config; it owns the
// envs from then on: Close closes them. It returns an error if there is no
// env or the envs' spaces differ.
func NewSync(envs []env.Env) (*Sync, error) { return newSync(envs, Config{}) }

func newSync(envs []env.Env, cfg Config) (*Sync, error) {
	c, err := newCommon(envs, cfg)
	if err != nil {
		return nil, err
	}
	s := &Sync{common: c, queue: make([]int, 0, len(envs)), running: make([]bool, len(envs)),
		frames: make([]image.Image, len(envs))}
	if cfg.StepTimeout > 0 {
		s.calls, s.ret, s.exited = make(chan syncCall), make(chan struct{}, 1), make(chan struct{})
		s.timer = time.NewTimer(cfg.StepTimeout)
		s.timer.Stop()
		go s.serve()
	}
	return s, nil
}

// serve is the goroutine running the envs' calls with a step timeout. The
// room in ret lets an abandoned call finish without a reader.
func (s *Sync) serve() {
	defer close(s.exited)
	for c := range s.calls {
		s.out = s.run(c)
		s.ret <- struct{}{}
	}
}

// run makes the call c, turning a panic of the env into a *PanicError.
func (s *Sync) run(c syncCall) (o syncOut) {
	defer func() {
		if v := recover(); v != nil {
			o.err = &PanicError{Env: c.id, Value: v, Stack: debug.Stack()}
		}
	}()
	e := s.envs[c.id]
	switch c.kind {
	case cmdStep:
		o.obs, o.r, o.term, o.trunc, o.info, o.err = e.Step(s.acts[c.id].view)
	case cmdReset:
		o.obs, o.info, o.err = e.Reset(c.seed)
	case cmdRender:
		o.frame, o.err = env.Render(e)
	}
	if o.err != nil {
		o.err = envError(c.id, o.err)
	}
	return o
}

// call makes the call c in the calling goroutine, or, with a step timeout,
// in the serving goroutine, waiting at most the timeout.
func (s *Sync) call(c syncCall) syncOut {
	s.counted(c.id, c.kind)
	if s.calls == nil {
		return s.run(c)
	}
	s.calls <- c
	s.timer.Reset(s.cfg.StepTimeout)
	select {
	case <-s.ret:
		s.timer.Stop()
		return s.out
	case <-s.timer.C:
		s.stuck[c.id] = true
		s.broken = s.timeoutError(c.id, c.kind, s.cfg.StepTimeout)
		return syncOut{err: s.broken}
	}
}

// checkIdle panics if an env of ids is running.
func (s *Sync) checkIdle(ids []int) {
	for _, id := range ids {
		if s.running[id] {
			panic(fmt.Errorf("%w: env %d", ErrBusy, id))
		}
	}
}

// Reset resets the envs ids in order. It stops at the first env that fails
// or when ctx is done, returning the error; envs before it have been reset.
// It returns an error if seeds is not nil and its length differs from ids'.
func (s *Sync) Reset(ctx context.Context, ids []int, seeds []env.Seed) (*Result, error) {
	s.checkOpen("Reset")
	if err := s.usable(); err != nil {
		return nil, err
	}
	ids = s.ids(ids)
	s.checkIdle(ids)
	if seeds != nil && len(seeds) != len(ids) {
		return nil, fmt.Errorf("vector: Reset with %d seeds for %d envs", len(seeds), len(ids))
	}
	for j, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var seed env.Seed
		if seeds != nil {
			seed = seeds[j]
		}
		o := s.call(syncCall{id: id, kind: cmdReset, seed: seed})
		if o.err != nil {
			return nil, o.err
		}
		if err := s.record(j, id, o.obs, 0, false, false, o.info); err != nil {
			return nil, err
		}
	}
	return s.result(len(ids)), nil
}

// Step steps the envs ids in order. It returns an error wrapping
// env.ErrAction if actions do not hold one value per env, and otherwise
// stops at the first env that fails or when ctx is done, returning the
// error; envs before it have been stepped.
func (s *Sync) Step(ctx context.Context, ids []int, actions any) (*Result, error) {
	s.checkOpen("Step")
	if err := s.usable(); err != nil {
		return nil, err
	}
	ids = s.ids(ids)
	s.checkIdle(ids)
	if err := s.load(ids, actions); err != nil {
		return nil, err
	}
	for j, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.stepAt(j, id); err != nil {
			return nil, err
		}
	}
	return s.result(len(ids)), nil
}

// load copies the rows of actions into the envs' action slots.
func (s *Sync) load(ids []int, actions any) error {
	if err := checkActions(&s.acts[0], actions, len(ids)); err != nil {
		return err
	}
	for j, id := range ids {
		if err := s.acts[id].load(actions, j, s.rowIdx[j]); err != nil {
			return envError(id, err)
		}
	}
	return nil
}

// stepAt steps env id and records its result in row j.
func (s *Sync) stepAt(j, id int) error {
	o := s.call(syncCall{id: id, kind: cmdStep})
	if o.err != nil {
		return o.err
	}
	return s.record(j, id, o.obs, o.r, o.term, o.trunc, o.info)
}

// Send copies the actions of the envs ids and queues them; Recv steps them.
// It returns an error wrapping env.ErrAction if actions do not hold one
// value per env, queuing nothing.
func (s *Sync) Send(ids []int, actions any) error {
	s.checkOpen("Send")
	if err := s.usable(); err != nil {
		return err
	}
	ids = s.ids(ids)
	s.checkIdle(ids)
	if err := s.load(ids, actions); err != nil {
		return err
	}
	for _, id := range ids {
		s.running[id] = true
		s.queue = append(s.queue, id)
	}
	return nil
}

// Recv steps the queued envs in the order they were sent until waitNum of
// them (all, for waitNum ≤ 0) have finished or ctx is done, and returns
// their results. An env that fails ends Recv with its error: it and the
// envs stepped before it are received (their results dropped), the envs
// after it stay queued.
func (s *Sync) Recv(ctx context.Context, waitNum int) (*Result, error) {
	s.checkOpen("Recv")
	if err := s.usable(); err != nil {
		return nil, err
	}
	if len(s.queue) == 0 {
		panic(fmt.Errorf("%w: Recv", ErrNotRunning))
	}
	if waitNum <= 0 || waitNum > len(s.queue) {
		waitNum = len(s.queue)
	}
	k := 0
	for ; k < waitNum; k++ {
		if err := ctx.Err(); err != nil {
			if k == 0 {
				return nil, err
			}
			break
		}
		id := s.queue[k]
		s.running[id] = false
		if err := s.stepAt(k, id); err != nil {
			s.queue = append(s.queue[:0], s.queue[k+1:]...)
			return nil, err
		}
	}
	s.queue = append(s.queue[:0], s.queue[k:]...)
	return s.result(k), nil
}

// Running returns the number of queued envs.
func (s *Sync) Running() int { return len(s.queue) }

// Render returns the frames of the envs ids.
func (s *Sync) Render(ids []int) ([]image.Image, error) {
	s.checkOpen("Render")
	if err := s.usable(); err != nil {
		return nil, err
	}
	ids = s.ids(ids)
	s.checkIdle(ids)
	for j, id := range ids {
		o := s.call(syncCall{id: id, kind: cmdRender})
		if o.err != nil {
			return nil, o.err
		}
		s.frames[j] = o.frame
	}
	return s.frames[:len(ids)], nil
}

// MarshalState returns the states of every env.
func (s *Sync) MarshalState() ([]byte, error) {
	s.checkOpen("MarshalState")
	if err := s.usable(); err != nil {
		return nil, err
	}
	s.checkIdle(s.all)
	return s.marshalStates()
}

// UnmarshalState restores states MarshalState returned, all or none.
func (s *Sync) UnmarshalState(data []byte) error {
	s.checkOpen("UnmarshalState")
	if err := s.usable(); err != nil {
		return err
	}
	s.checkIdle(s.all)
	states, err := s.splitStates(data)
	if err != nil {
		return err
	}
	return s.restore(states)
}

// Close closes every env (queued ones are dropped) and returns their
// errors, joined. Later calls return nil. An env abandoned after the step
// timeout is neither closed nor waited for (Close returns an error naming
// it).
func (s *Sync) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.calls != nil {
		close(s.calls)
		if s.broken == nil {
			<-s.exited
		}
	}
	var errs []error
	for i, e := range s.envs {
		if s.stuck[i] {
			errs = append(errs, fmt.Errorf("env %d: not closed: abandoned after a call ran past the step timeout", i))
			continue
		}
		if err := e.Close(); err != nil {
			errs = append(errs, envError(i, err))
		}
	}
	return errors.Join(errs...)
}
