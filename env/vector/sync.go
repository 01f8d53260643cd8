package vector

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime/debug"

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
type Sync struct {
	*common
	queue   []int // ids sent and not received, in the order sent
	running []bool
	frames  []image.Image
}

// NewSync returns a Sync running envs, which it owns from then on: Close
// closes them. It returns an error if there is no env or the envs' spaces
// differ.
func NewSync(envs []env.Env) (*Sync, error) {
	c, err := newCommon(envs)
	if err != nil {
		return nil, err
	}
	return &Sync{common: c, queue: make([]int, 0, len(envs)), running: make([]bool, len(envs)),
		frames: make([]image.Image, len(envs))}, nil
}

// checkIdle panics if an env of ids is running.
func (s *Sync) checkIdle(ids []int) {
	for _, id := range ids {
		if s.running[id] {
			panic(fmt.Errorf("%w: env %d", ErrBusy, id))
		}
	}
}

// resetOne resets env id, turning a panic into a *PanicError.
func (s *Sync) resetOne(id int, seed env.Seed) (obs any, info env.Info, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Env: id, Value: v, Stack: debug.Stack()}
		}
	}()
	if obs, info, err = s.envs[id].Reset(seed); err != nil {
		err = envError(id, err)
	}
	return obs, info, err
}

// stepOne steps env id with its loaded action, turning a panic into a
// *PanicError.
func (s *Sync) stepOne(id int) (obs any, r float64, term, trunc bool, info env.Info, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Env: id, Value: v, Stack: debug.Stack()}
		}
	}()
	if obs, r, term, trunc, info, err = s.envs[id].Step(s.acts[id].view); err != nil {
		err = envError(id, err)
	}
	return obs, r, term, trunc, info, err
}

// Reset resets the envs ids in order. It stops at the first env that fails
// or when ctx is done, returning the error; envs before it have been reset.
// It returns an error if seeds is not nil and its length differs from ids'.
func (s *Sync) Reset(ctx context.Context, ids []int, seeds []env.Seed) (*Result, error) {
	s.checkOpen("Reset")
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
		obs, info, err := s.resetOne(id, seed)
		if err != nil {
			return nil, err
		}
		if err := s.record(j, id, obs, 0, false, false, info); err != nil {
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
	obs, r, term, trunc, info, err := s.stepOne(id)
	if err != nil {
		return err
	}
	return s.record(j, id, obs, r, term, trunc, info)
}

// Send copies the actions of the envs ids and queues them; Recv steps them.
// It returns an error wrapping env.ErrAction if actions do not hold one
// value per env, queuing nothing.
func (s *Sync) Send(ids []int, actions any) error {
	s.checkOpen("Send")
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
	ids = s.ids(ids)
	s.checkIdle(ids)
	for j, id := range ids {
		f, err := env.Render(s.envs[id])
		if err != nil {
			return nil, envError(id, err)
		}
		s.frames[j] = f
	}
	return s.frames[:len(ids)], nil
}

// MarshalState returns the states of every env.
func (s *Sync) MarshalState() ([]byte, error) {
	s.checkOpen("MarshalState")
	s.checkIdle(s.all)
	return s.marshalStates()
}

// UnmarshalState restores states MarshalState returned, all or none.
func (s *Sync) UnmarshalState(data []byte) error {
	s.checkOpen("UnmarshalState")
	s.checkIdle(s.all)
	states, err := s.splitStates(data)
	if err != nil {
		return err
	}
	return s.restore(states)
}

// Close closes every env (queued ones are dropped) and returns their
// errors, joined. Later calls return nil.
func (s *Sync) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for i, e := range s.envs {
		if err := e.Close(); err != nil {
			errs = append(errs, envError(i, err))
		}
	}
	return errors.Join(errs...)
}
