package env

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/nd"
)

// NormalizeConfig configures a Normalizer: the observation and reward
// normalization of Stable-Baselines3's VecNormalize, whose defaults a zero
// field takes where its comment says so.
type NormalizeConfig struct {
	// Obs standardizes observations with running statistics.
	Obs bool `json:"obs"`
	// Reward divides rewards by the running standard deviation of the
	// discounted return.
	Reward bool `json:"reward"`
	// ClipObs clips normalized observations to [−ClipObs, ClipObs]. 0
	// means 10; negative means no clipping.
	ClipObs float64 `json:"clip_obs"`
	// ClipReward clips normalized rewards likewise. 0 means 10; negative
	// means no clipping.
	ClipReward float64 `json:"clip_reward"`
	// Gamma is the discount of the return whose statistics scale the
	// rewards, in [0, 1]. 0 means 0.99 (set it to the algorithm's γ, as
	// rl-baselines3-zoo does).
	Gamma float64 `json:"gamma"`
	// Epsilon keeps the divisions finite. 0 means 1e-8.
	Epsilon float64 `json:"epsilon"`
}

// Enabled reports whether c normalizes anything.
func (c NormalizeConfig) Enabled() bool { return c.Obs || c.Reward }

// withDefaults fills the zero fields.
func (c NormalizeConfig) withDefaults() NormalizeConfig {
	if c.ClipObs == 0 {
		c.ClipObs = 10
	}
	if c.ClipReward == 0 {
		c.ClipReward = 10
	}
	if c.Gamma == 0 {
		c.Gamma = 0.99
	}
	if c.Epsilon == 0 {
		c.Epsilon = 1e-8
	}
	return c
}

// Validate returns an error naming the first invalid field, or nil.
func (c NormalizeConfig) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !finite(c.ClipObs) || !finite(c.ClipReward):
		return fmt.Errorf("env: normalize clip_obs %v, clip_reward %v: want finite values", c.ClipObs, c.ClipReward)
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return fmt.Errorf("env: normalize gamma %v outside [0, 1]", c.Gamma)
	case !(c.Epsilon >= 0) || !finite(c.Epsilon):
		return fmt.Errorf("env: normalize epsilon %v: want a finite value ≥ 0", c.Epsilon)
	}
	return nil
}

// Normalizer holds the statistics that the envs of a run share for
// normalization, as Stable-Baselines3's VecNormalize keeps one set for all
// the envs of a vector env: the running mean and variance of the
// observations and of the discounted returns. Wrap puts an env behind it,
// either training (its observations and returns update the statistics, its
// rewards are scaled) or testing (the statistics are used as they are and
// rewards are left alone, VecNormalize's training = False, norm_reward =
// False). A Normalizer and the envs it wraps are driven by one goroutine at a
// time: use them in a sequential vector env.
type Normalizer struct {
	cfg  NormalizeConfig
	size int
	obs  RunningMeanStd // observation statistics
	ret  RunningMeanStd // return statistics, one element
}

// NewNormalizer returns a Normalizer for observations of size elements
// (the size of the observation space's arrays), before any update. It
// returns an error for an invalid cfg or a size below 1.
func NewNormalizer(cfg NormalizeConfig, size int) (*Normalizer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if size < 1 {
		return nil, fmt.Errorf("env: a Normalizer of observations of %d elements", size)
	}
	return &Normalizer{cfg: cfg.withDefaults(), size: size, obs: NewRunningMeanStd(size), ret: NewRunningMeanStd(1)}, nil
}

// Config returns the configuration with its defaults filled in.
func (n *Normalizer) Config() NormalizeConfig { return n.cfg }

// Stats returns copies of the observation and return statistics.
func (n *Normalizer) Stats() (obs, ret RunningMeanStd) { return copyStats(n.obs), copyStats(n.ret) }

// SetStats replaces the statistics with copies of obs and ret. It returns
// an error if they have the wrong sizes, a NaN or a negative variance or
// count.
func (n *Normalizer) SetStats(obs, ret RunningMeanStd) error {
	if len(obs.Mean) != n.size || len(obs.Var) != n.size || len(ret.Mean) != 1 || len(ret.Var) != 1 {
		return fmt.Errorf("env: Normalizer statistics of %d and %d elements, want %d and 1", len(obs.Mean), len(ret.Mean), n.size)
	}
	bad := !(obs.Count >= 0) || !(ret.Count >= 0) || !(ret.Var[0] >= 0) || math.IsNaN(ret.Mean[0])
	for i := range obs.Mean {
		bad = bad || math.IsNaN(obs.Mean[i]) || !(obs.Var[i] >= 0)
	}
	if bad {
		return fmt.Errorf("%w: Normalizer statistics with a NaN or a negative variance or count", ErrState)
	}
	copy(n.obs.Mean, obs.Mean)
	copy(n.obs.Var, obs.Var)
	n.obs.Count = obs.Count
	n.ret.Mean[0], n.ret.Var[0], n.ret.Count = ret.Mean[0], ret.Var[0], ret.Count
	return nil
}

func copyStats(s RunningMeanStd) RunningMeanStd {
	return RunningMeanStd{Mean: append([]float64(nil), s.Mean...), Var: append([]float64(nil), s.Var...), Count: s.Count}
}

const normalizerTag = "Normalizer/1"

// MarshalBinary encodes the statistics.
func (n *Normalizer) MarshalBinary() ([]byte, error) {
	w := &stateWriter{}
	n.write(w)
	return w.b, nil
}

// UnmarshalBinary decodes statistics MarshalBinary encoded for a Normalizer
// of the same observation size. It returns an error wrapping ErrState for
// corrupt data, leaving n unchanged.
func (n *Normalizer) UnmarshalBinary(data []byte) error {
	rd := &stateReader{b: data}
	obs, ret := n.read(rd)
	rd.end()
	if rd.err != nil {
		return rd.err
	}
	n.obs, n.ret = obs, ret
	return nil
}

func (n *Normalizer) write(w *stateWriter) {
	w.bytes([]byte(normalizerTag))
	o, _ := n.obs.MarshalBinary()
	r, _ := n.ret.MarshalBinary()
	w.b = append(append(w.b, o...), r...)
}

func (n *Normalizer) read(rd *stateReader) (obs, ret RunningMeanStd) {
	if tag := rd.bytes(); rd.err == nil && string(tag) != normalizerTag {
		rd.fail("statistics tagged %q", tag)
	}
	obs, _ = readRunningMeanStd(rd, n.size)
	ret, _ = readRunningMeanStd(rd, 1)
	return obs, ret
}

// Wrap returns e behind the Normalizer: with train, its observations
// update the observation statistics (when Obs is set) and its discounted
// return G ← γ·G + r, cleared when an episode ends or the env is reset,
// updates the return statistics (when Reward is set); then observations
// become clip((x − mean)/√(var + ε)) as float32 arrays and, when training,
// rewards clip(r/√(var(G) + ε)). Without train the statistics are only read
// and rewards are not scaled. The wrapper's state (saved with the env's, for
// checkpoints) holds the shared statistics and its own G.
//
// Wrap returns an error wrapping ErrSpace unless e's observations are
// arrays of the Normalizer's size.
func (n *Normalizer) Wrap(e Env, train bool) (*Normalized, error) {
	s := e.ObservationSpace()
	if s.DType() == 0 {
		return nil, fmt.Errorf("%w: normalization needs array observations, not %v", ErrSpace, s)
	}
	shape := s.Shape()
	obs := nd.Zeros(nd.Float32, shape...)
	if obs.Size() != n.size {
		return nil, fmt.Errorf("%w: observations of %d elements for a Normalizer of %d", ErrSpace, obs.Size(), n.size)
	}
	w := &Normalized{wrapper: wrapper{e}, n: n, train: train, shape: shape, x: make([]float64, n.size), obs: obs, obsData: nd.Data[float32](obs)}
	if n.cfg.Obs {
		space, err := NewBox(math.Inf(-1), math.Inf(1), shape, nd.Float32)
		if err != nil {
			return nil, err
		}
		w.space = space
	}
	return w, nil
}

// Normalized is an env behind a Normalizer (see Normalizer.Wrap).
type Normalized struct {
	wrapper
	n       *Normalizer
	train   bool
	space   *Box // nil without observation normalization
	shape   []int
	g       [1]float64
	x       []float64
	obs     *nd.Array // float32 result, owned
	obsData []float32
}

// ObservationSpace returns the unbounded float32 Box with observation
// normalization, the wrapped env's space without.
func (w *Normalized) ObservationSpace() Space {
	if w.space == nil {
		return w.inner.ObservationSpace()
	}
	return w.space
}

// Training reports whether the env updates the statistics.
func (w *Normalized) Training() bool { return w.train }

func (w *Normalized) normalize(obs any) (any, error) {
	if !w.n.cfg.Obs {
		return obs, nil
	}
	a, ok := obs.(*nd.Array)
	if !ok || !shapeEqual(a, w.shape) || !eachFloat(a, func(i int, v float64) bool { w.x[i] = v; return true }) {
		return nil, fmt.Errorf("env: normalization: the wrapped env returned %s, not a numeric array of shape %s", describe(obs), tupleString(w.shape))
	}
	st := &w.n.obs
	if w.train {
		st.Update(w.x)
	}
	c := w.n.cfg.ClipObs
	for i, v := range w.x {
		z := (v - st.Mean[i]) / math.Sqrt(st.Var[i]+w.n.cfg.Epsilon)
		if c > 0 {
			z = min(max(z, -c), c)
		}
		w.obsData[i] = float32(z)
	}
	return w.obs, nil
}

// Reset resets the wrapped env and G, and normalizes the observation.
func (w *Normalized) Reset(seed Seed) (any, Info, error) {
	w.g[0] = 0
	obs, info, err := w.inner.Reset(seed)
	if err != nil {
		return nil, info, err
	}
	o, err := w.normalize(obs)
	return o, info, err
}

// Step steps the wrapped env, normalizes its observation and, when
// training, scales its reward.
func (w *Normalized) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := w.inner.Step(action)
	if err != nil {
		return obs, r, term, trunc, info, err
	}
	o, err := w.normalize(obs)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	if w.train && w.n.cfg.Reward {
		st := &w.n.ret
		w.g[0] = w.g[0]*w.n.cfg.Gamma + r
		st.Update(w.g[:])
		r /= math.Sqrt(st.Var[0] + w.n.cfg.Epsilon)
		if c := w.n.cfg.ClipReward; c > 0 {
			r = min(max(r, -c), c)
		}
	}
	if term || trunc {
		w.g[0] = 0
	}
	return o, r, term, trunc, info, nil
}

const normalizedTag = "Normalized/1"

// MarshalState returns the shared statistics, G and the wrapped env's
// state.
func (w *Normalized) MarshalState() ([]byte, error) {
	return marshalWrapper(normalizedTag, func(sw *stateWriter) {
		w.n.write(sw)
		sw.float(w.g[0])
	}, w.inner)
}

// UnmarshalState restores a state MarshalState returned, the shared
// statistics included.
func (w *Normalized) UnmarshalState(data []byte) error {
	var obs, ret RunningMeanStd
	var g float64
	return unmarshalWrapper(data, normalizedTag, func(r *stateReader) {
		obs, ret = w.n.read(r)
		g = r.float()
	}, w.inner, func() { w.n.obs, w.n.ret, w.g[0] = obs, ret, g })
}
