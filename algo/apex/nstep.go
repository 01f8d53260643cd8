package apex

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// KeyDiscount is the batch key of γᵏ, the discount of the bootstrap value
// of an n-step transition that holds k rewards (float32 [B]).
const KeyDiscount = "discount"

// nstep turns an actor's steps into n-step transitions: the reward sum
// Σⱼ γʲ rₜ₊ⱼ over up to n steps within the episode, the observation after
// the last of them and γᵏ.
// A is the element type of the actions: int64 indices or float32 values.
type nstep[A int64 | float32] struct {
	n        int
	gamma    float64
	shape    []int // one observation's shape
	size     int   // its number of elements
	actShape []int // one action's shape: none for an index
	actSize  int   // its number of elements

	// The window of the last steps not yet emitted.
	wObs []float32
	wAct []A
	wRew []float64

	// The transitions emitted since the last take.
	obs, next []float32
	act       []A
	rew       []float64
	term      []bool
	disc      []float32
}

func newNStep[A int64 | float32](n int, gamma float64, shape, actShape []int) *nstep[A] {
	return &nstep[A]{n: n, gamma: gamma, shape: shape, size: prod(shape), actShape: actShape, actSize: prod(actShape)}
}

func prod(shape []int) int {
	size := 1
	for _, d := range shape {
		size *= d
	}
	return size
}

// push records one step: obs and act at time t, its reward, the
// observation after it and how the episode went on.
func (s *nstep[A]) push(obs []float32, act []A, rew float64, next []float32, terminated, truncated bool) {
	s.wObs = append(s.wObs, obs...)
	s.wAct = append(s.wAct, act...)
	s.wRew = append(s.wRew, rew)
	switch {
	case terminated || truncated:
		for len(s.wRew) > 0 {
			s.emit(next, terminated)
		}
	case len(s.wRew) == s.n:
		s.emit(next, false)
	}
}

// emit turns the window's oldest step into a transition bootstrapping
// from next, and drops it from the window.
func (s *nstep[A]) emit(next []float32, terminated bool) {
	g, disc := 0.0, 1.0
	for _, r := range s.wRew {
		g += disc * r
		disc *= s.gamma
	}
	s.obs = append(s.obs, s.wObs[:s.size]...)
	s.act = append(s.act, s.wAct[:s.actSize]...)
	s.rew = append(s.rew, g)
	s.next = append(s.next, next...)
	s.term = append(s.term, terminated)
	s.disc = append(s.disc, float32(disc))
	s.wObs = append(s.wObs[:0], s.wObs[s.size:]...)
	s.wAct = append(s.wAct[:0], s.wAct[s.actSize:]...)
	s.wRew = append(s.wRew[:0], s.wRew[1:]...)
}

// pending returns the number of transitions emitted since the last take.
func (s *nstep[A]) pending() int { return len(s.rew) }

// take returns the emitted transitions as a Batch (obs, act, rew,
// terminated, truncated, obs_next, discount) and forgets them.
func (s *nstep[A]) take() (*batch.Batch, error) {
	k := len(s.rew)
	shape := append([]int{k}, s.shape...)
	act, err := nd.FromSlice(s.act, append([]int{k}, s.actShape...)...)
	if err != nil {
		return nil, fmt.Errorf("apex: actions: %w", err)
	}
	obs, err := nd.FromSlice(s.obs, shape...)
	if err != nil {
		return nil, fmt.Errorf("apex: observations: %w", err)
	}
	next, err := nd.FromSlice(s.next, shape...)
	if err != nil {
		return nil, fmt.Errorf("apex: observations: %w", err)
	}
	b, err := batch.New(batch.KeyObs, obs, batch.KeyAct, act, batch.KeyRew, s.rew,
		batch.KeyTerminated, s.term, batch.KeyTruncated, make([]bool, k),
		batch.KeyObsNext, next, KeyDiscount, s.disc)
	if err != nil {
		return nil, err
	}
	s.obs, s.next, s.act, s.rew, s.term, s.disc = nil, nil, nil, nil, nil, nil
	return b, nil
}
