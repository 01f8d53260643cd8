package algo

import (
	"fmt"
	"slices"
)

// Episodes is what the return kernels (Episodic, NStep) read of a replay
// buffer: the stored rewards and flags by global index, and the step that
// follows each transition within its episode. Every buffer.Buffer is one.
type Episodes interface {
	// Rew, Terminated and Done are views of the stored rewards and flags.
	Rew() []float64
	Terminated() []bool
	Done() []bool
	// NextTo stores in dst the index of the step after each of indices in
	// its episode (the index itself at an episode's end or at the newest
	// step of an unfinished episode).
	NextTo(dst, indices []int)
}

// GAETo stores in adv the generalized advantage estimates (Schulman et al.,
// "High-Dimensional Continuous Control Using Generalized Advantage
// Estimation", 2016) of a sequence of transitions in time order:
//
//	δₜ = rₜ + γ·V′ₜ − Vₜ,    Âₜ = δₜ + γλ·(1 − endₜ)·Âₜ₊₁,    Â after the last = 0,
//
// with V′ₜ = vNext[t], the value of the observation after step t, except
// where terminated[t] (a terminal state has value 0). end[t] marks a step
// after which the sequence does not continue the same episode: the episode
// ended there (terminated or truncated), or the data of that episode stops
// (the newest step of an unfinished episode, the last step of a sub-buffer).
// A truncated or unfinished step thus bootstraps from V(s′) without chaining
// into the next step, and a terminated step does neither. The returns the
// value function is fitted to are Âₜ + Vₜ.
//
// v and vNext may be nil, meaning zeros: with λ = 1 adv then holds the
// discounted returns Σₖ γᵏ rₜ₊ₖ of each episode's remainder (REINFORCE's
// returns). Sums are accumulated in float64 and stored as float32.
//
// GAETo does not allocate. It panics with an *Error wrapping ErrShape if rew,
// terminated, end and the non-nil v and vNext do not all have len(adv)
// elements.
func GAETo(adv []float32, rew []float64, v, vNext []float32, terminated, end []bool, gamma, lambda float64) {
	n := len(adv)
	if len(rew) != n || len(terminated) != n || len(end) != n ||
		(v != nil && len(v) != n) || (vNext != nil && len(vNext) != n) {
		panic(shapeError("GAETo", "rew %d, v %d, vNext %d, terminated %d, end %d for %d advantages",
			len(rew), len(v), len(vNext), len(terminated), len(end), n))
	}
	gl := gamma * lambda
	delta := func(t int) float64 {
		d := rew[t]
		if v != nil {
			d -= float64(v[t])
		}
		if vNext != nil && !terminated[t] {
			d += gamma * float64(vNext[t])
		}
		return d
	}
	coef := func(t int) float64 {
		if end[t] {
			return 0
		}
		return gl
	}
	// Âₜ = δₜ + cₜ·Âₜ₊₁ with cₜ = γλ(1 − endₜ) is a chain of dependent
	// multiply-adds. Four steps at a time, Âₜ₋₃ = P + Q·Âₜ₊₁ with P and Q
	// computed off the chain, which leaves one multiply-add on it per four
	// steps (see the package's Decisions).
	g := 0.0
	t := n - 1
	for ; t >= 3; t -= 4 {
		d3, d2, d1, d0 := delta(t), delta(t-1), delta(t-2), delta(t-3)
		c3, c2, c1, c0 := coef(t), coef(t-1), coef(t-2), coef(t-3)
		p2, q2 := d2+c2*d3, c2*c3
		p1, q1 := d1+c1*p2, c1*q2
		p0, q0 := d0+c0*p1, c0*q1
		adv[t] = float32(d3 + c3*g)
		adv[t-1] = float32(p2 + q2*g)
		adv[t-2] = float32(p1 + q1*g)
		g = p0 + q0*g
		adv[t-3] = float32(g)
	}
	for ; t >= 0; t-- {
		g = delta(t) + coef(t)*g
		adv[t] = float32(g)
	}
}

// Episodic computes episodic returns and GAE advantages over transitions
// of a replay buffer, Tianshou's compute_episodic_return. Its zero value is
// ready to use; it keeps scratch memory between calls, so computing over the
// same number of transitions again does not allocate. An Episodic is not safe
// for concurrent use.
type Episodic struct {
	next []int
	rew  []float64
	term []bool
	end  []bool
}

// AdvantagesTo stores in adv the GAE advantages (see GAETo) of the
// transitions of buf at indices, which must list whole stretches of
// episodes in time order, as buf.SampleIndices(0, nil) does (sub-buffer
// after sub-buffer): the on-policy batch. v[k] and vNext[k] are the values
// of the observation and of the next observation of transition indices[k];
// either may be nil for zeros. The episode-end flags come from the buffer: a
// transition ends its stretch when it is done, when it is the newest step of
// an unfinished episode, or when indices[k+1] is not the step that follows
// it in the buffer. Terminated steps do not bootstrap.
//
// With ret not nil, AdvantagesTo also stores the returns adv[k] + v[k] in ret
// (the discounted returns themselves when v is nil).
//
// AdvantagesTo panics with an *Error wrapping ErrShape if adv, and ret,
// v or vNext when not nil, do not have len(indices) elements, and as
// buf.NextTo panics for an index outside the buffer.
func (e *Episodic) AdvantagesTo(adv, ret []float32, buf Episodes, indices []int, v, vNext []float32, gamma, lambda float64) {
	n := len(indices)
	if len(adv) != n || (ret != nil && len(ret) != n) || (v != nil && len(v) != n) || (vNext != nil && len(vNext) != n) {
		panic(shapeError("Episodic.AdvantagesTo", "adv %d, ret %d, v %d, vNext %d for %d indices",
			len(adv), len(ret), len(v), len(vNext), n))
	}
	e.next = slices.Grow(e.next[:0], n)[:n]
	e.term = slices.Grow(e.term[:0], n)[:n]
	e.end = slices.Grow(e.end[:0], n)[:n]
	buf.NextTo(e.next, indices)
	done, term := buf.Done(), buf.Terminated()
	for k, i := range indices {
		e.term[k] = term[i]
		e.end[k] = done[i] || k == n-1 || e.next[k] != indices[k+1]
	}
	e.rew = slices.Grow(e.rew[:0], n)[:n]
	rew := buf.Rew()
	for k, i := range indices {
		e.rew[k] = rew[i]
	}
	GAETo(adv, e.rew, v, vNext, e.term, e.end, gamma, lambda)
	if ret != nil {
		if v == nil {
			copy(ret, adv)
		} else {
			for k := range ret {
				ret[k] = adv[k] + v[k]
			}
		}
	}
}

// shapeError builds the panic value for arguments of mismatched lengths.
func shapeError(op, format string, args ...any) *Error {
	return &Error{Kind: ErrShape, Msg: op + ": " + fmt.Sprintf(format, args...)}
}

// NStep computes n-step returns over a replay buffer (Tianshou's
// compute_nstep_return):
//
//	Gₜ = rₜ + γ·rₜ₊₁ + … + γᵐ⁻¹·rₜ₊ₘ₋₁ + γᵐ·Q′ₜ,
//
// where the window of m ≤ n steps stops early at the end of the episode
// (a done step) or at the newest step of an unfinished episode, and Q′ₜ is
// the target value of the observation after the window's last step (its
// obs_next), 0 when that step terminated. A truncated or unfinished last
// step bootstraps. Steps are followed with the buffer's NextTo, so
// windows stay within one sub-buffer of a vector buffer and continue across
// the ring boundary.
//
// The computation has two phases around the evaluation of the target network:
// Windows finds the last index of each window (where the target is evaluated)
// and sums the rewards; ReturnsTo adds the discounted targets.
//
// The zero value is ready to use; an NStep keeps its scratch memory between
// calls, so the same batch size again does not allocate. It is not safe for
// concurrent use.
type NStep struct {
	cur, nxt []int
	sum      []float64 // discounted reward sums of the windows
	disc     []float64 // γᵐ, or 0 after a terminated last step
}

// Windows walks the n-step window of each transition at indices (n ≥ 1)
// in buf, sums its discounted rewards, and returns the index of each window's
// last step: the target value must be computed from the obs_next of those
// transitions. The returned slice is scratch memory of s, valid until the
// next call of Windows.
//
// Windows panics with an *Error wrapping ErrValue if n < 1 or gamma is
// outside [0, 1], and as buf.NextTo panics for an index outside the buffer.
func (s *NStep) Windows(buf Episodes, indices []int, gamma float64, n int) []int {
	if n < 1 || !(gamma >= 0 && gamma <= 1) {
		panic(&Error{Kind: ErrValue, Msg: fmt.Sprintf("NStep.Windows: n = %d, gamma = %v; want n ≥ 1, 0 ≤ gamma ≤ 1", n, gamma)})
	}
	b := len(indices)
	s.cur = slices.Grow(s.cur[:0], b)[:b]
	s.nxt = slices.Grow(s.nxt[:0], b)[:b]
	s.sum = slices.Grow(s.sum[:0], b)[:b]
	s.disc = slices.Grow(s.disc[:0], b)[:b]
	copy(s.cur, indices)
	rew, term := buf.Rew(), buf.Terminated()
	// Every window holds its first step. Each further round adds the
	// next step of the windows that have not stopped: a window stops when
	// NextTo returns its own last index (episode end or unfinished tail).
	for k, i := range s.cur {
		s.sum[k] = rew[i]
		s.disc[k] = gamma
	}
	for step := 1; step < n; step++ {
		buf.NextTo(s.nxt, s.cur)
		moved := false
		for k, j := range s.nxt {
			if j == s.cur[k] {
				continue
			}
			moved = true
			s.sum[k] += s.disc[k] * rew[j]
			s.disc[k] *= gamma
		}
		s.cur, s.nxt = s.nxt, s.cur
		if !moved {
			break
		}
	}
	for k, i := range s.cur {
		if term[i] {
			s.disc[k] = 0
		}
	}
	return s.cur
}

// Discounted returns, for each transition given to the last Windows call,
// the discounted reward sum of its window and the factor γᵐ of the target
// value, 0 where the window's last step terminated: the n-step return is
// sum[k] + disc[k]·Q′ₖ. Distributional algorithms shift and scale a whole
// target distribution by them. Both slices are scratch memory of s, valid
// until the next call of Windows.
func (s *NStep) Discounted() (sum, disc []float64) { return s.sum, s.disc }

// ReturnsTo stores in dst the n-step returns of the transitions given to the
// last Windows call: the discounted reward sum of each window plus γᵐ times
// target[k], the target value of the obs_next of the window's last step
// (ignored, as 0, where that step terminated).
//
// ReturnsTo panics with an *Error wrapping ErrShape if dst or target does
// not have one element per index given to Windows.
func (s *NStep) ReturnsTo(dst, target []float32) {
	if len(dst) != len(s.sum) || len(target) != len(s.sum) {
		panic(shapeError("NStep.ReturnsTo", "dst %d, target %d for %d windows", len(dst), len(target), len(s.sum)))
	}
	for k := range dst {
		g := s.sum[k]
		if d := s.disc[k]; d != 0 {
			g += d * float64(target[k])
		}
		dst[k] = float32(g)
	}
}

// RowsTo is ReturnsTo for a distribution of target values per window
// (quantiles, atoms): target and dst hold width values per window in
// row-major order, and dst[k·width + j] = the window's discounted reward sum
// + γᵐ·target[k·width + j] (the sum alone after a terminated last step).
// It panics with an *Error wrapping ErrShape unless dst and target have
// width values for each window of the last Windows call.
func (s *NStep) RowsTo(dst, target []float32, width int) {
	if width < 1 || len(dst) != width*len(s.sum) || len(target) != len(dst) {
		panic(shapeError("NStep.RowsTo", "dst %d, target %d, width %d for %d windows", len(dst), len(target), width, len(s.sum)))
	}
	for k, g := range s.sum {
		d := s.disc[k]
		row, tr := dst[k*width:(k+1)*width], target[k*width:(k+1)*width]
		for j := range row {
			row[j] = float32(g + d*float64(tr[j]))
		}
	}
}
