package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// EpisodeStore is what QReturns reads of a replay buffer: Episodes, and the
// transitions at the windows' last steps (as buffer.Buffer.TakeTo stores
// them). Every buffer.Buffer is one.
type EpisodeStore interface {
	Episodes
	TakeTo(dst *batch.Batch, indices []int) error
}

// QReturns is the Preprocess of Q-learning algorithms (DQN, BCQ): the n-step
// returns of sampled transitions (NStep), with the target values of the
// observations after the windows' last steps computed by the algorithm (its
// target network), stored in the batch under "returns".
//
// The zero value is ready to use. A QReturns keeps its scratch memory between
// calls, so the same batch size again allocates nothing beyond what the
// buffer's TakeTo and the target function do. It is not safe for concurrent
// use.
type QReturns struct {
	nstep  NStep
	next   batch.Batch // transitions at the windows' last steps
	nextIn batch.Batch // {"obs": their obs_next}
	tq     []float32   // target values of the windows
	ret    []float32
	retArr *nd.Array // ret as an array, stored as "returns"
	width  int       // values per window of ret; 0 for a vector
}

// Preprocess stores in b, the transitions of buf at indices, their n-step
// returns (see NStep) under "returns": a float32 array [len(indices)], memory
// of q reused by the next call. The windows' last steps are indices itself
// for n = 1 or when no window moves (their obs_next is read from b), and are
// otherwise taken from buf. target must store in dst the target value Q′ of
// each observation in next, a batch whose "obs" holds the obs_next of the
// windows' last steps, len(dst) rows; next is memory of q, valid during the
// call.
//
// Preprocess returns target's error as it is, and an error if the batch of
// last steps has no obs_next or buf cannot take them. It panics as
// NStep.Windows does (n < 1, gamma outside [0, 1], an index outside buf).
func (q *QReturns) Preprocess(b *batch.Batch, buf EpisodeStore, indices []int, gamma float64, n int,
	target func(dst []float32, next *batch.Batch) error) error {
	return q.preprocess(b, buf, indices, gamma, n, 0, target)
}

// PreprocessRows is Preprocess for distributional Q-learning (QR-DQN, IQN,
// FQF): target stores width target values per observation of next in dst
// (row-major [len(indices), width]: the quantiles of the target
// distribution), and "returns" holds float32 [len(indices), width], each
// value the n-step return with that target value (NStep.RowsTo). It panics
// as Preprocess does, and for width < 1.
func (q *QReturns) PreprocessRows(b *batch.Batch, buf EpisodeStore, indices []int, gamma float64, n, width int,
	target func(dst []float32, next *batch.Batch) error) error {
	if width < 1 {
		panic(shapeError("QReturns.PreprocessRows", "width %d", width))
	}
	return q.preprocess(b, buf, indices, gamma, n, width, target)
}

func (q *QReturns) preprocess(b *batch.Batch, buf EpisodeStore, indices []int, gamma float64, n, width int,
	target func(dst []float32, next *batch.Batch) error) error {
	k := len(indices)
	last := q.nstep.Windows(buf, indices, gamma, n)
	src := b
	if !slices.Equal(last, indices) {
		if err := buf.TakeTo(&q.next, last); err != nil {
			return fmt.Errorf("algo: n-step returns: next observations: %w", err)
		}
		src = &q.next
	}
	obsNext, ok := src.Get(batch.KeyObsNext)
	if !ok {
		return fmt.Errorf("algo: n-step returns: the sampled batch has no obs_next")
	}
	if err := q.nextIn.Set(batch.KeyObs, obsNext); err != nil {
		return fmt.Errorf("algo: n-step returns: obs_next: %w", err)
	}
	size := k * max(width, 1)
	q.tq = slices.Grow(q.tq[:0], size)[:size]
	if err := target(q.tq, &q.nextIn); err != nil {
		return err
	}
	if len(q.ret) != size || q.width != width || q.retArr == nil {
		q.ret, q.width = make([]float32, size), width
		if width == 0 {
			q.retArr, _ = nd.FromSlice(q.ret) // a slice of float32 always converts
		} else {
			q.retArr, _ = nd.FromSlice(q.ret, k, width)
		}
	}
	if width == 0 {
		q.nstep.ReturnsTo(q.ret, q.tq)
	} else {
		q.nstep.RowsTo(q.ret, q.tq, width)
	}
	return b.Set(batch.KeyReturns, q.retArr)
}

// Discounted returns the discounted reward sums and the target factors of
// the windows of the last Preprocess (see NStep.Discounted), for algorithms
// whose target is a distribution rather than a value.
func (q *QReturns) Discounted() (sum, disc []float64) { return q.nstep.Discounted() }

// DiscreteActions reads the logged actions of a Discrete action space from
// a batch as category indices (action − the space's start), the form that
// gathering Q-values and cross entropy take. The zero value is ready to use;
// it keeps its scratch memory between calls, so reading as many actions
// again does not allocate. It is not safe for concurrent use.
type DiscreteActions struct {
	acts *nd.Array // the actions as int64
	idx  []int
}

// Read returns the category indices of the actions under "act" in b, an
// array [B] of a boolean or integer dtype holding actions of space. The
// slice is memory of a, valid until the next Read.
//
// Read returns an error if b has no "act" array, if it is not 1-d or of
// another dtype, or if an action is outside space.
func (a *DiscreteActions) Read(b *batch.Batch, space *env.Discrete) ([]int, error) {
	act, err := b.Array(batch.KeyAct)
	if err != nil {
		return nil, fmt.Errorf("algo: %w", err)
	}
	if act.Ndim() != 1 {
		return nil, fmt.Errorf("algo: act of shape %v; want [B] for %v", act.Shape(), space)
	}
	n := act.Dim(0)
	if a.acts == nil || a.acts.Dim(0) != n {
		a.acts, a.idx = nd.Zeros(nd.Int64, n), make([]int, n)
	}
	if err := nd.CopyTo(a.acts, act); err != nil {
		return nil, fmt.Errorf("algo: act: %w", err)
	}
	start, k := space.Start(), space.N()
	for i, v := range nd.Data[int64](a.acts) {
		if v-start < 0 || v-start >= k {
			return nil, fmt.Errorf("algo: action %d outside %v", v, space)
		}
		a.idx[i] = int(v - start)
	}
	return a.idx, nil
}

// UpdateTarget updates a target network after gradient step number updates
// (counted from 1) of its online network: with freq > 0 a copy of online
// every freq steps (a hard update), otherwise a Polyak step
// θ′ ← τθ + (1 − τ)θ′ with τ = tau (nn.SoftUpdate).
//
// target and online must have the same structure (the algorithm checks that
// when it is made, with nn.Copy), and tau must be in [0, 1] when freq ≤ 0
// (its Config's Validate checks that): UpdateTarget panics with an *Error
// wrapping ErrValue otherwise, a programmer error.
func UpdateTarget(target, online nn.Params, updates int64, freq int, tau float64) {
	var err error
	switch {
	case freq <= 0:
		err = nn.SoftUpdate(target, online, float32(tau))
	case updates%int64(freq) == 0:
		err = nn.Copy(target, online)
	}
	if err != nil {
		panic(&Error{Kind: ErrValue, Msg: "UpdateTarget: " + err.Error()})
	}
}

// QNetworks returns k networks for Q-learning in an env with the given
// spaces, drawn from rng in order: MLPs (hidden layers with ReLU) from the
// observations of a Box of one axis to one output per action of a Discrete
// space (Q-values, or logits for an imitation network or an actor), and
// that action space. DQN, BCQ and CRR build their networks with it.
//
// It returns an error wrapping errConfig naming the algorithm name and the
// space it cannot take, or the MLP's error.
func QNetworks(name string, obs, act env.Space, hidden []int, k int, rng *rand.Rand, errConfig error) ([]policy.Network, *env.Discrete, error) {
	d, ok := act.(*env.Discrete)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s needs a Discrete action space, not %v", errConfig, name, act)
	}
	box, ok := obs.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", errConfig, obs)
	}
	mc := nn.MLPConfig{In: box.Shape()[0], Hidden: hidden, Out: int(d.N())}
	nets := make([]policy.Network, k)
	for i := range nets {
		mlp, err := nn.NewMLP(mc, rng)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errConfig, err)
		}
		nets[i] = policy.ObsNet{Layer: mlp}
	}
	return nets, d, nil
}

// QOptimConfig configures a QOptim.
type QOptimConfig struct {
	// Params are the parameters Adam trains (and clips).
	Params nn.Params
	// Target, when not nil, are target networks' parameters that follow
	// Online (a part of Params, or all of it) and start as its copy.
	Online, Target nn.Params
	// Adam configures the optimizer.
	Adam optim.AdamConfig
	// TargetUpdateFreq and Tau choose the target update (UpdateTarget).
	TargetUpdateFreq int
	Tau              float64
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step.
	MaxGradNorm float64
	// Updates counts the gradient steps: the algorithm's counter, part of
	// its saved state.
	Updates *int64
}

// QOptim is the gradient step of the Q-learning algorithms (DQN, BCQ, CRR
// and the quantile family): Adam over their parameters with optional
// gradient clipping, the count of steps, and the target networks' update
// after each step.
type QOptim struct {
	cfg QOptimConfig
	opt *optim.Adam
}

// NewQOptim returns the QOptim of cfg, with the target networks set to
// copies of the online ones. It returns an error wrapping errConfig for an
// invalid Adam configuration, a Target whose parameters do not match
// Online's, or a missing counter.
func NewQOptim(cfg QOptimConfig, errConfig error) (*QOptim, error) {
	if cfg.Updates == nil {
		return nil, fmt.Errorf("%w: no counter of updates", errConfig)
	}
	if cfg.Target != nil {
		if err := nn.Copy(cfg.Target, cfg.Online); err != nil {
			return nil, fmt.Errorf("%w: target network: %w", errConfig, err)
		}
	}
	opt, err := optim.NewAdam(cfg.Params, cfg.Adam)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	return &QOptim{cfg: cfg, opt: opt}, nil
}

// Step backpropagates loss, a scalar recorded on tp, clips the gradients,
// takes Adam's step, counts it and updates the target networks.
func (q *QOptim) Step(tp *tensor.Tape, loss *tensor.Tensor) {
	q.opt.ZeroGrad()
	tp.Backward(loss)
	if q.cfg.MaxGradNorm > 0 {
		optim.ClipGradNorm(q.cfg.Params, q.cfg.MaxGradNorm)
	}
	q.opt.Step()
	*q.cfg.Updates++
	if q.cfg.Target != nil {
		UpdateTarget(q.cfg.Target, q.cfg.Online, *q.cfg.Updates, q.cfg.TargetUpdateFreq, q.cfg.Tau)
	}
}

// Part is Adam's state as the part "optim" of SaveParts.
func (q *QOptim) Part() Part { return Part{Name: "optim", Save: q.opt.Save, Load: q.opt.Load} }

// Returns reads the "returns" of a batch into a tensor, the form the TD
// losses take. The zero value is ready to use; it keeps its memory between
// calls, so the same shape again allocates nothing. It is not safe for
// concurrent use.
type Returns struct {
	t *tensor.Tensor
	a *nd.Array // t's memory as an array
}

// Read returns the float32 or float64 array under "returns" in b as a
// tensor [n] (width 0: a value per transition) or [n, width] (width values
// per transition), memory of r valid until the next Read. It returns an
// error if b has no returns, or they have another shape or dtype.
func (r *Returns) Read(b *batch.Batch, n, width int) (*tensor.Tensor, error) {
	ret, err := b.Array(batch.KeyReturns)
	if err != nil {
		return nil, fmt.Errorf("%w (run Preprocess first)", err)
	}
	dims := 1
	if width > 0 {
		dims = 2
	}
	if ret.Ndim() != dims || ret.Dim(0) != n || (width > 0 && ret.Dim(1) != width) {
		if width == 0 {
			return nil, fmt.Errorf("returns of shape %v for %d actions; want [%d]", ret.Shape(), n, n)
		}
		return nil, fmt.Errorf("returns of shape %v for %d actions; want [%d, %d]", ret.Shape(), n, n, width)
	}
	if !ret.DType().IsFloat() {
		return nil, fmt.Errorf("returns of dtype %v; want float32 or float64", ret.DType())
	}
	if r.t == nil || r.t.NDim() != dims || r.t.Dim(0) != n || (width > 0 && r.t.Dim(1) != width) {
		if width == 0 {
			r.t = tensor.New(n)
		} else {
			r.t = tensor.New(n, width)
		}
		r.a = r.t.ND()
	}
	if err := nd.CopyTo(r.a, ret); err != nil {
		return nil, fmt.Errorf("returns: %w", err)
	}
	return r.t, nil
}

// QSettings are the settings the offline Q-learning algorithms (BCQ, CRR)
// share with DQN: discounting, returns, the target networks, Adam and
// clipping. Their Configs embed it, so its JSON fields sit beside their
// own.
type QSettings struct {
	// Gamma is the discount factor γ in [0, 1].
	Gamma float64 `json:"gamma"`
	// NStep is the number of steps of the returns, at least 1.
	NStep int `json:"n_step"`
	// TargetUpdateFreq, when positive, copies the networks into their
	// targets every TargetUpdateFreq gradient steps (a hard update).
	TargetUpdateFreq int `json:"target_update_freq"`
	// Tau, when positive, moves the targets towards the networks by Polyak
	// averaging after every gradient step, θ′ ← τθ + (1 − τ)θ′. Exactly
	// one of TargetUpdateFreq and Tau must be positive.
	Tau float64 `json:"tau"`
	// Optim configures Adam.
	Optim optim.AdamConfig `json:"optim"`
	// MaxGradNorm, when positive, clips the gradients' global L2 norm
	// before each step; 0: no clipping.
	MaxGradNorm float64 `json:"max_grad_norm"`
}

// Validate returns an error wrapping errConfig naming the first invalid
// field, or nil.
func (s QSettings) Validate(errConfig error) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{errConfig}, args...)...)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case !unit(s.Gamma):
		return bad("gamma %v outside [0, 1]", s.Gamma)
	case s.NStep < 1:
		return bad("n_step %d < 1", s.NStep)
	case s.TargetUpdateFreq < 0:
		return bad("target_update_freq %d < 0", s.TargetUpdateFreq)
	case !unit(s.Tau):
		return bad("tau %v outside [0, 1]", s.Tau)
	case (s.TargetUpdateFreq > 0) == (s.Tau > 0):
		return bad("set exactly one of target_update_freq (%d) and tau (%v)", s.TargetUpdateFreq, s.Tau)
	case !(s.MaxGradNorm >= 0) || math.IsInf(s.MaxGradNorm, 0):
		return bad("max_grad_norm %v", s.MaxGradNorm)
	}
	if err := s.Optim.Validate(); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	return nil
}

// QOptim returns the configuration of the QOptim of these settings, Adam
// training params, target following online, and the gradient steps
// counted in updates.
func (s QSettings) QOptim(params, online, target nn.Params, updates *int64) QOptimConfig {
	return QOptimConfig{Params: params, Online: online, Target: target, Adam: s.Optim,
		TargetUpdateFreq: s.TargetUpdateFreq, Tau: s.Tau, MaxGradNorm: s.MaxGradNorm, Updates: updates}
}
