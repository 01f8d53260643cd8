package icm

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// ICM wraps an off-policy algorithm with the intrinsic curiosity module
// (see the package doc). It is itself an algo.OffPolicy whose policy is the
// wrapped algorithm's, and an algo.Scheduled passing Schedule on when the
// wrapped algorithm is one.
//
// An ICM is driven by one goroutine at a time.
type ICM struct {
	cfg   Config
	inner algo.OffPolicy
	space *env.Discrete
	nAct  int

	feat, fwd, inv *nn.MLP
	ps             nn.Params
	opt            *optim.Adam

	view  rewards
	win   batch.Batch // the transitions of the n-step windows
	next  []int
	all   []int
	acts  [2]algo.DiscreteActions // of the windows and of the update
	tp    tensor.Tape             // the module's update
	ntp   tensor.Tape             // the bonuses, without gradients
	calls [4]nn.Caller
	phiIn [2]featIn // the feature net on obs and on obs_next
	stats map[string]float64
	bonus float64 // mean intrinsic reward of the last sampled batch
	eta   float64 // η at the last Schedule
	mean  float64 // the running mean of ℓ_F of RewardNorm; 0 before the first batch
}

// normRate is the weight of a batch's mean ℓ_F in RewardNorm's running
// mean.
const normRate = 0.01

// New returns an ICM around inner for an env with the given spaces: obs a
// Box of one axis, act the Discrete space inner acts in. The module's
// weights are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg or spaces the
// module cannot take, naming the space.
func New(cfg Config, inner algo.OffPolicy, obs, act env.Space, rng *rand.Rand) (*ICM, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.NStep == 0 {
		cfg.NStep = 1
	}
	d, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: ICM needs a Discrete action space, not %v", ErrConfig, act)
	}
	box, ok := obs.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: ICM needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	if inner == nil {
		return nil, fmt.Errorf("%w: no algorithm to wrap", ErrConfig)
	}
	cfg.FeatureHidden, cfg.ModelHidden = slices.Clone(cfg.FeatureHidden), slices.Clone(cfg.ModelHidden)
	n := int(d.N())
	m := &ICM{cfg: cfg, inner: inner, space: d, nAct: n,
		stats: map[string]float64{"icm/loss": 0, "icm/forward": 0, "icm/inverse": 0, "icm/reward": 0}}
	var err error
	mlp := func(in, out int, hidden []int) *nn.MLP {
		if err != nil {
			return nil
		}
		var net *nn.MLP
		net, err = nn.NewMLP(nn.MLPConfig{In: in, Hidden: hidden, Out: out}, rng)
		return net
	}
	f := cfg.FeatureDim
	m.feat = mlp(box.Shape()[0], f, cfg.FeatureHidden)
	m.fwd = mlp(f+n, f, cfg.ModelHidden)
	m.inv = mlp(2*f, n, cfg.ModelHidden)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	m.phiIn = [2]featIn{{net: m.feat, key: obsKey}, {net: m.feat, key: nextKey}}
	if cfg.ObsNorm {
		shift, scale, err := obsNorm(box)
		if err != nil {
			return nil, fmt.Errorf("%w: observation bounds: %w", ErrConfig, err)
		}
		for i := range m.phiIn {
			m.phiIn[i].shift, m.phiIn[i].scale = shift, scale
		}
	}
	m.eta = cfg.RewardScale
	m.ps = append(append(m.feat.Params().Prefixed("feature_net"), m.fwd.Params().Prefixed("forward_model")...),
		m.inv.Params().Prefixed("inverse_model")...)
	if m.opt, err = optim.NewAdam(m.ps, cfg.Optim); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	m.ntp.SetGradEnabled(false)
	return m, nil
}

// Config returns the configuration.
func (m *ICM) Config() Config { return m.cfg }

// Inner returns the wrapped algorithm.
func (m *ICM) Inner() algo.OffPolicy { return m.inner }

// Params returns the module's parameters: "feature_net.…",
// "forward_model.…" and "inverse_model.…", as Tianshou's module names them.
func (m *ICM) Params() nn.Params { return m.ps }

// Policy returns the wrapped algorithm's policy.
func (m *ICM) Policy() policy.Policy { return m.inner.Policy() }

// Schedule sets η for envSteps env steps (RewardScale annealed to
// RewardScaleFinal) and passes envSteps on to the wrapped algorithm if it
// is algo.Scheduled.
func (m *ICM) Schedule(envSteps int64) {
	m.eta = m.cfg.RewardScale
	if n := m.cfg.RewardScaleDecaySteps; n > 0 {
		f := min(float64(envSteps)/float64(n), 1)
		m.eta += f * (m.cfg.RewardScaleFinal - m.cfg.RewardScale)
	}
	if s, ok := m.inner.(algo.Scheduled); ok {
		s.Schedule(envSteps)
	}
}

// rewards is a buffer whose rewards at the indices of the last Preprocess
// carry the intrinsic reward: what the wrapped algorithm's return kernels
// read. Other indices hold stale values and are not read.
type rewards struct {
	buffer.Buffer
	rew []float64
}

// Rew returns the rewards with the intrinsic reward added.
func (r *rewards) Rew() []float64 { return r.rew }

// featIn feeds the feature net the array under key, mapped to
// (x − shift)·scale when shift is not nil.
type featIn struct {
	net          *nn.MLP
	key          []string
	shift, scale *tensor.Tensor
}

func (f *featIn) Inputs() []string { return f.key }
func (f *featIn) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	x := in[0]
	if f.shift != nil {
		x = tp.Mul(tp.Sub(x, f.shift), f.scale)
	}
	return f.net.Forward(tp, x)
}

// obsNorm returns the shift and scale that map each coordinate of box with
// finite bounds onto [−1, 1], and leave the others (shift 0, scale 1).
func obsNorm(box *env.Box) (shift, scale *tensor.Tensor, err error) {
	low, err := box.Low().AsType(nd.Float64)
	if err != nil {
		return nil, nil, err
	}
	high, err := box.High().AsType(nd.Float64)
	if err != nil {
		return nil, nil, err
	}
	lo, hi := nd.Data[float64](low), nd.Data[float64](high)
	sh, sc := make([]float32, len(lo)), make([]float32, len(lo))
	for i := range lo {
		sc[i] = 1
		if w := hi[i] - lo[i]; w > 0 && !math.IsInf(w, 0) && !math.IsNaN(w) {
			sh[i], sc[i] = float32((hi[i]+lo[i])/2), float32(2/w)
		}
	}
	return tensor.MustFromSlice(sh, 1, len(sh)), tensor.MustFromSlice(sc, 1, len(sc)), nil
}

var obsKey, nextKey = []string{batch.KeyObs}, []string{batch.KeyObsNext}

// losses records on tp the module's forward pass over the transitions in b
// and returns ℓ_F per transition [B] and the inverse model's logits [B, n],
// with the actions' indices. pass 0 (the bonuses) and 1 (the update) keep
// their own scratch, so that batches of two sizes allocate nothing. Pass 0
// reads only ℓ_F, so it skips the inverse model and its logits are nil.
func (m *ICM) losses(tp *tensor.Tape, b *batch.Batch, pass int) (fwd, logits *tensor.Tensor, acts []int, err error) {
	calls := m.calls[2*pass : 2*pass+2]
	acts, err = m.acts[pass].Read(b, m.space)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("icm: %w", err)
	}
	phi1, err := calls[0].Call(tp, &m.phiIn[0], b)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("icm: feature net on obs: %w", err)
	}
	phi2, err := calls[1].Call(tp, &m.phiIn[1], b)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("icm: feature net on obs_next: %w", err)
	}
	if phi1.NDim() != 2 || phi1.Dim(0) != len(acts) || phi2.Dim(0) != len(acts) {
		return nil, nil, nil, fmt.Errorf("icm: features of shapes %v and %v for %d actions", phi1.Shape(), phi2.Shape(), len(acts))
	}
	pred := m.fwd.Forward(tp, tp.Concat(1, phi1, tp.OneHot(acts, m.nAct)))
	d := tp.Sub(pred, phi2)
	fwd = tp.MulScalar(tp.SumAxis(tp.Mul(d, d), 1, false), 0.5)
	if pass == 0 {
		return fwd, nil, acts, nil
	}
	logits = m.inv.Forward(tp, tp.Concat(1, phi1, phi2))
	return fwd, logits, acts, nil
}

// Preprocess evaluates the module on the transitions of buf at indices and
// on the later steps of their n-step windows, and runs the wrapped
// algorithm's Preprocess with a view of buf whose rewards carry η·ℓ_F on
// those transitions. buf itself is not changed.
//
// It returns an error if the module cannot take the stored observations or
// actions, and the wrapped Preprocess's error.
func (m *ICM) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	k := len(indices)
	m.all = append(m.all[:0], indices...)
	prev := indices
	for range m.cfg.NStep - 1 {
		m.next = slices.Grow(m.next[:0], k)[:k]
		buf.NextTo(m.next, prev)
		m.all = append(m.all, m.next...)
		prev = m.all[len(m.all)-k:]
	}
	src := b
	if len(m.all) > k {
		if err := buf.TakeTo(&m.win, m.all); err != nil {
			return fmt.Errorf("icm: window transitions: %w", err)
		}
		src = &m.win
	}
	m.ntp.Reset()
	fwd, _, _, err := m.losses(&m.ntp, src, 0)
	if err != nil {
		return err
	}
	rew := buf.Rew()
	if len(m.view.rew) != len(rew) {
		m.view.rew = make([]float64, len(rew))
	}
	eta := m.eta
	if m.cfg.RewardNorm {
		bm := 0.0
		for _, v := range fwd.Data()[:k] {
			bm += float64(v)
		}
		bm /= float64(k)
		if m.mean == 0 {
			m.mean = bm
		} else {
			m.mean += normRate * (bm - m.mean)
		}
		if m.mean > 0 {
			eta /= m.mean
		}
	}
	sum := 0.0
	for j, i := range m.all {
		r := eta * float64(fwd.Data()[j])
		if c := m.cfg.RewardClip; c > 0 {
			r = min(r, c)
		}
		m.view.rew[i] = rew[i] + r
		if j < k {
			sum += r
		}
	}
	m.bonus = sum / float64(k)
	m.view.Buffer = buf
	err = m.inner.Preprocess(b, &m.view, indices)
	m.view.Buffer = nil
	return err
}

// Update runs the wrapped algorithm's Update on b, then one Adam step of
// the module on L over b's transitions (obs, act, obs_next). It returns the
// wrapped algorithm's statistics with "icm/loss" (L), "icm/forward",
// "icm/inverse" and "icm/reward", in a map owned by the ICM.
//
// Update returns the wrapped algorithm's error, and an error if b lacks a
// key the module reads; the module is then unchanged.
func (m *ICM) Update(b *batch.Batch) (map[string]float64, error) {
	st, err := m.inner.Update(b)
	if err != nil {
		return nil, err
	}
	tp := &m.tp
	tp.Reset()
	fwd, logits, acts, err := m.losses(tp, b, 1)
	if err != nil {
		return nil, err
	}
	fl, il := tp.Mean(fwd), tp.CrossEntropy(logits, acts)
	beta := float32(m.cfg.ForwardLossWeight)
	loss := tp.MulScalar(tp.Add(tp.MulScalar(il, 1-beta), tp.MulScalar(fl, beta)), float32(m.cfg.LRScale))
	m.opt.ZeroGrad()
	tp.Backward(loss)
	m.opt.Step()
	for k, v := range st {
		m.stats[k] = v
	}
	m.stats["icm/loss"], m.stats["icm/forward"], m.stats["icm/inverse"] = float64(loss.Item()), float64(fl.Item()), float64(il.Item())
	m.stats["icm/reward"] = m.bonus
	return m.stats, nil
}

// Postprocess runs the wrapped algorithm's Postprocess on buf itself (a
// prioritized buffer gets the wrapped algorithm's priorities).
func (m *ICM) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return m.inner.Postprocess(b, buf, indices)
}

// Save writes the wrapped algorithm's state (a nested part), the module's
// networks and Adam's state, with algo.SaveParts.
func (m *ICM) Save(w io.Writer) error { return algo.SaveParts(w, m.parts()...) }

// Load restores a state written by Save into an ICM made with the same
// configurations. It returns an error wrapping algo.ErrState for a state
// that does not fit; the ICM may then be partly restored.
func (m *ICM) Load(r io.Reader) error { return algo.LoadParts(r, m.parts()...) }

func (m *ICM) parts() []algo.Part {
	ps := []algo.Part{
		{Name: "algorithm", Save: m.inner.Save, Load: m.inner.Load},
		algo.ParamsPart("icm", m.ps),
		{Name: "icm_optim", Save: m.opt.Save, Load: m.opt.Load},
	}
	if m.cfg.RewardNorm {
		// Only with RewardNorm, so that states of modules without it keep
		// their earlier layout.
		ps = append(ps, algo.Part{Name: "icm_reward_norm",
			Save: func(w io.Writer) error { return binary.Write(w, binary.LittleEndian, m.mean) },
			Load: func(r io.Reader) error { return binary.Read(r, binary.LittleEndian, &m.mean) },
		})
	}
	return ps
}
