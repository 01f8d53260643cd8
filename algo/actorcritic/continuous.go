package actorcritic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// The networks of the off-policy actor-critics (DDPG, TD3, SAC and their
// relatives) for a Box observation space of one axis and a Box action space
// of one axis. Their actors output raw actions in [−1, 1] (times MaxAction
// for a deterministic actor), which policy.BoxMap maps to the bounds; the
// buffer stores the raw actions and the critics learn Q of raw actions.

// ContinuousDims returns the observation and action sizes of a Box
// observation space and a Box action space, both of one axis. It returns an
// error wrapping ErrConfig, naming the space, otherwise (a Discrete action
// space for SAC, say).
func ContinuousDims(obs, act env.Space) (obsDim, actDim int, err error) {
	ob, ok := obs.(*env.Box)
	if !ok || len(ob.Shape()) != 1 {
		return 0, 0, fmt.Errorf("%w: the MLPs need a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	ab, ok := act.(*env.Box)
	if !ok || len(ab.Shape()) != 1 {
		return 0, 0, fmt.Errorf("%w: a continuous actor needs a Box action space of one axis, not %v", ErrConfig, act)
	}
	return ob.Shape()[0], ab.Shape()[0], nil
}

// DeterministicActor is μ(s) = MaxAction·tanh(MLP(s)), Tianshou's
// deterministic continuous actor: an nn.Layer from observations [k, n] to
// raw actions [k, m]. Wrap it in policy.ObsNet for a policy.
type DeterministicActor struct {
	MLP       *nn.MLP
	MaxAction float32
}

// NewDeterministicActor returns an actor from obsDim to actDim with ReLU
// hidden layers of the given sizes, initialized from rng. It returns an
// error wrapping ErrConfig for invalid sizes or a MaxAction that is not
// finite and positive.
func NewDeterministicActor(obsDim, actDim int, hidden []int, maxAction float64, rng *rand.Rand) (*DeterministicActor, error) {
	if !(maxAction > 0) || math.IsInf(maxAction, 0) {
		return nil, fmt.Errorf("%w: max_action %v; want finite > 0", ErrConfig, maxAction)
	}
	m, err := nn.NewMLP(nn.MLPConfig{In: obsDim, Hidden: hidden, Out: actDim}, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: actor: %w", ErrConfig, err)
	}
	return &DeterministicActor{MLP: m, MaxAction: float32(maxAction)}, nil
}

// Forward records MaxAction·tanh(MLP(x)) on tp.
func (a *DeterministicActor) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	y := tp.Tanh(a.MLP.Forward(tp, x))
	if a.MaxAction != 1 {
		y = tp.MulScalar(y, a.MaxAction)
	}
	return y
}

// Params returns the MLP's parameters.
func (a *DeterministicActor) Params() nn.Params { return a.MLP.Params() }

// LogStd bounds of the squashed Gaussian actor: Tianshou's SIGMA_MIN and
// SIGMA_MAX.
const (
	LogStdMin = -20
	LogStdMax = 2
)

// SquashedHead is the head of SAC's actor, a policy.Head: it reads a
// network's output as the mean μ and log standard deviation of a Gaussian
// and makes the tanh-squashed distribution Independent(TanhNormal(μ, σ), 1)
// over m action dimensions, with log σ clamped to [LogStdMin, LogStdMax].
// With a state-dependent σ (LogStd nil) the output is [k, 2m], μ then
// log σ; otherwise it is [k, m], μ, and log σ is the head's parameter
// LogStd [m] (named "log_std").
//
// Samples lie in (−1, 1) and their log-probabilities include the
// change-of-variables correction −Σ log(1 − tanh²(u)); the mode is tanh(μ).
type SquashedHead struct {
	M      int
	LogStd *tensor.Tensor
}

// NewSquashedHead returns a head over m dimensions, with a free log σ
// parameter starting at logStd when free is set. It panics with an error
// wrapping ErrConfig if m < 1.
func NewSquashedHead(m int, free bool, logStd float32) *SquashedHead {
	if m < 1 {
		panic(fmt.Errorf("%w: a SquashedHead of %d dimensions", ErrConfig, m))
	}
	h := &SquashedHead{M: m}
	if free {
		h.LogStd = tensor.New(m)
		h.LogStd.Fill(logStd)
		h.LogStd.SetRequiresGrad(true)
	}
	return h
}

// Width returns the width of the network output the head reads: 2m with a
// state-dependent σ, m otherwise.
func (h *SquashedHead) Width() int {
	if h.LogStd == nil {
		return 2 * h.M
	}
	return h.M
}

// New returns an empty *distribution.Independent, which Set fills with a
// TanhNormal base.
func (h *SquashedHead) New() distribution.Distribution { return new(distribution.Independent) }

// Set sets d, made by New, from out on tp. It returns the TanhNormal's
// error for parameters that are not finite, and panics with
// distribution.ErrShape if out is not [k, Width()].
func (h *SquashedHead) Set(d distribution.Distribution, tp *tensor.Tape, out *tensor.Tensor) error {
	if out.NDim() != 2 || out.Dim(1) != h.Width() {
		panic(fmt.Errorf("%w: a SquashedHead of width %d given an output of shape %v", distribution.ErrShape, h.Width(), out.Shape()))
	}
	ind := d.(*distribution.Independent)
	base, _ := ind.Base().(*distribution.TanhNormal)
	if base == nil {
		base = new(distribution.TanhNormal)
	}
	mu, logStd := out, h.LogStd
	if logStd == nil {
		mu, logStd = tp.Slice(out, 1, 0, h.M), tp.Slice(out, 1, h.M, 2*h.M)
	}
	if err := base.Set(tp, mu, tp.Exp(tp.Clamp(logStd, LogStdMin, LogStdMax))); err != nil {
		return err
	}
	ind.Set(tp, base, 1)
	return nil
}

// Params returns LogStd, named "log_std", or nothing with a state-dependent
// σ.
func (h *SquashedHead) Params() nn.Params {
	if h.LogStd == nil {
		return nil
	}
	return nn.Params{{Name: "log_std", Tensor: h.LogStd}}
}

// QCritic is Q(s, a), Tianshou's continuous critic: an MLP with ReLU
// hidden layers to one output, on the observation and the action joined
// ([k, n+m]), or, with ActionLater, on the observation alone through the
// first layer and then on its features joined with the action (the critic of
// the DDPG paper).
type QCritic struct {
	first *nn.Linear // the first layer, with ActionLater; nil otherwise
	rest  *nn.MLP
	ps    nn.Params
}

// CriticConfig describes a QCritic.
type CriticConfig struct {
	// Hidden lists the hidden layer sizes, each at least 1. With
	// ActionLater it must not be empty.
	Hidden []int `json:"hidden"`
	// ActionLater joins the action after the first hidden layer instead of
	// at the input. Default false.
	ActionLater bool `json:"action_later"`
}

// NewQCritic returns a critic for observations of obsDim and actions of
// actDim, initialized from rng. It returns an error wrapping ErrConfig for
// invalid sizes.
func NewQCritic(cfg CriticConfig, obsDim, actDim int, rng *rand.Rand) (*QCritic, error) {
	c := &QCritic{}
	var err error
	if cfg.ActionLater {
		if len(cfg.Hidden) == 0 || cfg.Hidden[0] < 1 {
			return nil, fmt.Errorf("%w: critic hidden sizes %v: joining the action later needs a first hidden layer", ErrConfig, cfg.Hidden)
		}
		c.first = nn.NewLinear(obsDim, cfg.Hidden[0], rng)
		c.rest, err = nn.NewMLP(nn.MLPConfig{In: cfg.Hidden[0] + actDim, Hidden: cfg.Hidden[1:], Out: 1}, rng)
		c.ps = append(c.first.Params().Prefixed("first"), c.rest.Params().Prefixed("rest")...)
	} else {
		c.rest, err = nn.NewMLP(nn.MLPConfig{In: obsDim + actDim, Hidden: cfg.Hidden, Out: 1}, rng)
		if err == nil {
			c.ps = c.rest.Params()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: critic: %w", ErrConfig, err)
	}
	return c, nil
}

// Q records on tp the values [k] of the actions act [k, m] in the
// observations obs [k, n].
func (c *QCritic) Q(tp *tensor.Tape, obs, act *tensor.Tensor) *tensor.Tensor {
	x := obs
	if c.first != nil {
		x = tp.ReLU(c.first.Forward(tp, obs))
	}
	return tp.Squeeze(c.rest.Forward(tp, tp.Concat(1, x, act)), 1)
}

// Params returns the critic's parameters.
func (c *QCritic) Params() nn.Params { return c.ps }

// MaxAction returns the bound h of a Box action space whose every
// dimension is [−h, h] with one finite h, the max_action of Tianshou's
// offline continuous algorithms, which act in the env's units. It returns
// an error wrapping ErrConfig, naming the space, for any other space.
func MaxAction(act env.Space) (float64, error) {
	box, ok := act.(*env.Box)
	if !ok {
		return 0, fmt.Errorf("%w: a Box action space, not %v", ErrConfig, act)
	}
	low, err := box.Low().AsType(nd.Float64)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	high, err := box.High().AsType(nd.Float64)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	lo, hi := nd.Data[float64](low.Copy()), nd.Data[float64](high.Copy())
	h := hi[0]
	for i := range hi {
		if hi[i] != h || lo[i] != -h || !(h > 0) || math.IsInf(h, 0) {
			return 0, fmt.Errorf("%w: the action space %v is not [−h, h] with one finite h > 0 in every dimension; set max_action", ErrConfig, act)
		}
	}
	return h, nil
}
