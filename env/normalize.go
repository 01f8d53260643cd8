package env

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/nd"
)

// RunningMeanStd tracks the elementwise mean and variance of a stream of
// vectors with the parallel algorithm of Chan et al. (Gymnasium's
// RunningMeanStd). Starting from mean 0, variance 1 and a count of 1e-4, an
// update with a batch of n vectors of mean m and variance v sets
//
//	δ = m − Mean, N = Count + n,
//	Mean += δ·n/N,
//	Var = (Var·Count + v·n + δ²·Count·n/N) / N,
//	Count = N.
//
// It is a plain value: copy it to save it, or use MarshalBinary.
type RunningMeanStd struct {
	Mean  []float64 // elementwise mean
	Var   []float64 // elementwise (population) variance
	Count float64   // number of vectors seen, plus the initial 1e-4
}

// NewRunningMeanStd returns the statistics of size-element vectors before
// any update: mean 0, variance 1, count 1e-4.
func NewRunningMeanStd(size int) RunningMeanStd {
	r := RunningMeanStd{Mean: make([]float64, size), Var: make([]float64, size), Count: 1e-4}
	for i := range r.Var {
		r.Var[i] = 1
	}
	return r
}

// Update adds one vector, a batch of n = 1 with variance 0. Update panics
// if len(x) differs from len(r.Mean).
func (r *RunningMeanStd) Update(x []float64) {
	if len(x) != len(r.Mean) {
		panic(&nd.Error{Kind: nd.ErrShape, Msg: fmt.Sprintf("RunningMeanStd.Update: %d values for %d statistics", len(x), len(r.Mean))})
	}
	tot := r.Count + 1
	for i, v := range x {
		delta := v - r.Mean[i]
		r.Mean[i] += delta / tot
		r.Var[i] = (r.Var[i]*r.Count + delta*delta*r.Count/tot) / tot
	}
	r.Count = tot
}

const runningMeanStdTag = "RunningMeanStd/1"

// MarshalBinary encodes the statistics.
func (r RunningMeanStd) MarshalBinary() ([]byte, error) {
	w := &stateWriter{}
	w.bytes([]byte(runningMeanStdTag))
	w.uint(uint64(len(r.Mean)))
	w.floats(r.Mean)
	w.floats(r.Var)
	w.float(r.Count)
	return w.b, nil
}

// UnmarshalBinary decodes statistics MarshalBinary encoded. It returns an
// error wrapping ErrState for corrupt data (lengths that do not match, a
// negative variance or count, a NaN), leaving r unchanged.
func (r *RunningMeanStd) UnmarshalBinary(data []byte) error {
	rd := &stateReader{b: data}
	v, ok := readRunningMeanStd(rd, -1)
	rd.end()
	if rd.err != nil {
		return rd.err
	}
	if ok {
		*r = v
	}
	return nil
}

// readRunningMeanStd reads encoded statistics; size ≥ 0 requires that size.
func readRunningMeanStd(rd *stateReader, size int) (RunningMeanStd, bool) {
	if tag := rd.bytes(); rd.err == nil && string(tag) != runningMeanStdTag {
		rd.fail("statistics tagged %q", tag)
	}
	n := rd.uint()
	if rd.err != nil {
		return RunningMeanStd{}, false
	}
	if n > uint64(len(rd.b)/16) || (size >= 0 && n != uint64(size)) {
		rd.fail("statistics of %d elements do not fit", n)
		return RunningMeanStd{}, false
	}
	r := RunningMeanStd{Mean: make([]float64, n), Var: make([]float64, n)}
	rd.floats(r.Mean)
	rd.floats(r.Var)
	r.Count = rd.float()
	bad := !(r.Count >= 0) || math.IsInf(r.Count, 0)
	for i := range r.Mean {
		bad = bad || math.IsNaN(r.Mean[i]) || !(r.Var[i] >= 0)
	}
	if bad && rd.err == nil {
		rd.fail("statistics with a NaN or a negative variance or count")
	}
	return r, rd.err == nil
}

// NormalizeObservation standardizes observations with running statistics,
// Gymnasium's NormalizeObservation: unless frozen, each observation x (of
// Reset and of Step) first updates the statistics, then becomes the float32
// array (x − Mean)/√(Var + ε). Its observation space is the unbounded
// float32 Box of the wrapped space's shape. The statistics are saved with
// the env's state.
type NormalizeObservation struct {
	wrapper
	space   *Box
	shape   []int
	eps     float64
	stats   RunningMeanStd
	frozen  bool
	x       []float64
	obs     *nd.Array // float32 result, owned
	obsData []float32
}

// NewNormalizeObservation wraps e; epsilon (Gymnasium's default is 1e-8)
// keeps the division finite. It returns an error wrapping ErrSpace unless
// e's observation space has array values (Box, Discrete, MultiDiscrete,
// MultiBinary), and an error for a negative or non-finite epsilon.
func NewNormalizeObservation(e Env, epsilon float64) (*NormalizeObservation, error) {
	s := e.ObservationSpace()
	if s.DType() == 0 {
		return nil, fmt.Errorf("%w: NormalizeObservation needs array observations, not %v", ErrSpace, s)
	}
	if !(epsilon >= 0) || math.IsInf(epsilon, 0) {
		return nil, fmt.Errorf("env: NormalizeObservation epsilon %v: want a finite value ≥ 0", epsilon)
	}
	shape := s.Shape()
	space, err := NewBox(math.Inf(-1), math.Inf(1), shape, nd.Float32)
	if err != nil {
		return nil, err
	}
	obs := nd.Zeros(nd.Float32, shape...)
	return &NormalizeObservation{
		wrapper: wrapper{e}, space: space, shape: shape, eps: epsilon,
		stats: NewRunningMeanStd(obs.Size()), x: make([]float64, obs.Size()),
		obs: obs, obsData: nd.Data[float32](obs),
	}, nil
}

// ObservationSpace returns the unbounded float32 Box.
func (n *NormalizeObservation) ObservationSpace() Space { return n.space }

// Stats returns a copy of the running statistics.
func (n *NormalizeObservation) Stats() RunningMeanStd {
	return RunningMeanStd{Mean: append([]float64(nil), n.stats.Mean...), Var: append([]float64(nil), n.stats.Var...), Count: n.stats.Count}
}

// SetStats replaces the running statistics with a copy of s (saved from
// another run, say). It returns an error if s has the wrong size.
func (n *NormalizeObservation) SetStats(s RunningMeanStd) error {
	if len(s.Mean) != len(n.x) || len(s.Var) != len(n.x) {
		return fmt.Errorf("env: NormalizeObservation statistics of %d/%d elements, want %d", len(s.Mean), len(s.Var), len(n.x))
	}
	copy(n.stats.Mean, s.Mean)
	copy(n.stats.Var, s.Var)
	n.stats.Count = s.Count
	return nil
}

// SetFrozen stops (true) or resumes (false) updating the statistics, as
// Gymnasium's update_running_mean = False does for evaluation.
func (n *NormalizeObservation) SetFrozen(frozen bool) { n.frozen = frozen }

// normalize updates the statistics with obs and returns the normalized
// observation.
func (n *NormalizeObservation) normalize(obs any) (*nd.Array, error) {
	a, ok := obs.(*nd.Array)
	if !ok || !shapeEqual(a, n.shape) || !eachFloat(a, func(i int, v float64) bool { n.x[i] = v; return true }) {
		return nil, fmt.Errorf("env: NormalizeObservation: the wrapped env returned %s, not a numeric array of shape %s", describe(obs), tupleString(n.shape))
	}
	if !n.frozen {
		n.stats.Update(n.x)
	}
	for i, v := range n.x {
		n.obsData[i] = float32((v - n.stats.Mean[i]) / math.Sqrt(n.stats.Var[i]+n.eps))
	}
	return n.obs, nil
}

// Reset resets the wrapped env and normalizes its observation.
func (n *NormalizeObservation) Reset(seed Seed) (any, Info, error) {
	obs, info, err := n.inner.Reset(seed)
	if err != nil {
		return nil, info, err
	}
	o, err := n.normalize(obs)
	return o, info, err
}

// Step steps the wrapped env and normalizes its observation.
func (n *NormalizeObservation) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := n.inner.Step(action)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	o, err := n.normalize(obs)
	return o, r, term, trunc, info, err
}

const normalizeObservationTag = "NormalizeObservation/1"

// MarshalState returns the statistics, the frozen flag and the wrapped
// env's state.
func (n *NormalizeObservation) MarshalState() ([]byte, error) {
	stats, _ := n.stats.MarshalBinary()
	return marshalWrapper(normalizeObservationTag, func(w *stateWriter) {
		w.b = append(w.b, stats...)
		w.bool(n.frozen)
	}, n.inner)
}

// UnmarshalState restores a state MarshalState returned.
func (n *NormalizeObservation) UnmarshalState(data []byte) error {
	var stats RunningMeanStd
	var frozen bool
	return unmarshalWrapper(data, normalizeObservationTag, func(r *stateReader) {
		stats, _ = readRunningMeanStd(r, len(n.x))
		frozen = r.bool()
	}, n.inner, func() { n.stats, n.frozen = stats, frozen })
}

// NormalizeReward scales rewards by the running standard deviation of a
// discounted sum of rewards, Gymnasium's NormalizeReward: with G ← γ·G·(1 −
// terminated) + r updating the statistics (unless frozen), the reward
// becomes r/√(Var(G) + ε). As in Gymnasium, G is not cleared by Reset or
// truncation. The statistics and G are saved with the env's state.
type NormalizeReward struct {
	wrapper
	gamma, eps float64
	stats      RunningMeanStd
	g          [1]float64
	frozen     bool
}

// NewNormalizeReward wraps e with discount gamma in [0, 1] (Gymnasium's
// default 0.99) and epsilon ≥ 0 (default 1e-8). It returns an error for
// values outside those ranges.
func NewNormalizeReward(e Env, gamma, epsilon float64) (*NormalizeReward, error) {
	if !(gamma >= 0 && gamma <= 1) || !(epsilon >= 0) || math.IsInf(epsilon, 0) {
		return nil, fmt.Errorf("env: NormalizeReward(gamma %v, epsilon %v): want gamma in [0, 1] and a finite epsilon ≥ 0", gamma, epsilon)
	}
	return &NormalizeReward{wrapper: wrapper{e}, gamma: gamma, eps: epsilon, stats: NewRunningMeanStd(1)}, nil
}

// Stats returns a copy of the running statistics of G.
func (n *NormalizeReward) Stats() RunningMeanStd {
	return RunningMeanStd{Mean: []float64{n.stats.Mean[0]}, Var: []float64{n.stats.Var[0]}, Count: n.stats.Count}
}

// SetStats replaces the running statistics of G with a copy of s. It
// returns an error unless s has one element.
func (n *NormalizeReward) SetStats(s RunningMeanStd) error {
	if len(s.Mean) != 1 || len(s.Var) != 1 {
		return fmt.Errorf("env: NormalizeReward statistics of %d/%d elements, want 1", len(s.Mean), len(s.Var))
	}
	n.stats.Mean[0], n.stats.Var[0], n.stats.Count = s.Mean[0], s.Var[0], s.Count
	return nil
}

// SetFrozen stops (true) or resumes (false) updating the statistics.
func (n *NormalizeReward) SetFrozen(frozen bool) { n.frozen = frozen }

// Step steps the wrapped env and scales its reward.
func (n *NormalizeReward) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := n.inner.Step(action)
	if err != nil {
		return obs, r, term, trunc, info, err
	}
	keep := 1.0
	if term {
		keep = 0
	}
	n.g[0] = n.g[0]*n.gamma*keep + r
	if !n.frozen {
		n.stats.Update(n.g[:])
	}
	return obs, r / math.Sqrt(n.stats.Var[0]+n.eps), term, trunc, info, nil
}

const normalizeRewardTag = "NormalizeReward/1"

// MarshalState returns the statistics, G, the frozen flag and the wrapped
// env's state.
func (n *NormalizeReward) MarshalState() ([]byte, error) {
	stats, _ := n.stats.MarshalBinary()
	return marshalWrapper(normalizeRewardTag, func(w *stateWriter) {
		w.b = append(w.b, stats...)
		w.float(n.g[0])
		w.bool(n.frozen)
	}, n.inner)
}

// UnmarshalState restores a state MarshalState returned.
func (n *NormalizeReward) UnmarshalState(data []byte) error {
	var stats RunningMeanStd
	var g float64
	var frozen bool
	return unmarshalWrapper(data, normalizeRewardTag, func(r *stateReader) {
		stats, _ = readRunningMeanStd(r, 1)
		g, frozen = r.float(), r.bool()
	}, n.inner, func() { n.stats, n.g[0], n.frozen = stats, g, frozen })
}
