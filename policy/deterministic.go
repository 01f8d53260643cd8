package policy

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// DeterministicConfig configures a Deterministic policy.
type DeterministicConfig struct {
	// Map maps the raw actions to the Box (Tianshou's action_scaling and
	// action_bound_method).
	Map BoxMapConfig `json:"map"`
	// Noise is the exploration noise added while collecting training data.
	Noise NoiseConfig `json:"noise"`
}

// Deterministic is the policy of a deterministic actor over a Box of one
// axis (DDPG, TD3): the network's output [k, m] is the raw action, to which
// exploration noise is added while collecting training data (explore and
// the training-step flag both on), never at test time. The buffer stores the
// raw action with its noise, unclipped and unscaled, as Tianshou stores the
// policy's act; MapActionTo bounds and scales it for the env.
//
// A stateful noise (OU) keeps its state in the collector's hidden state:
// Act then writes "state", float32 [k, m], on the calls that add noise.
type Deterministic struct {
	net   Network
	space *env.Box
	m     int
	bmap  *BoxMap
	noise Noise
	rng   *rand.Rand

	training bool
	tp       tensor.Tape
	caller   nn.Caller
}

// NewDeterministic returns a policy acting with net, whose output for k
// observations is [k, m], in space, a Box of shape [m], drawing its noise
// from rng. It returns an error wrapping ErrConfig for another space, a nil
// rng, or an invalid cfg.
func NewDeterministic(net Network, space env.Space, rng *rand.Rand, cfg DeterministicConfig) (*Deterministic, error) {
	box, ok := space.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: a deterministic policy needs a Box action space of one axis, not %v", ErrConfig, space)
	}
	if rng == nil {
		return nil, fmt.Errorf("%w: no random source", ErrConfig)
	}
	bm, err := NewBoxMap(box, cfg.Map)
	if err != nil {
		return nil, err
	}
	noise, err := NewNoise(cfg.Noise)
	if err != nil {
		return nil, err
	}
	p := &Deterministic{net: net, space: box, m: box.Shape()[0], bmap: bm, noise: noise, rng: rng}
	p.tp.SetGradEnabled(false)
	return p, nil
}

// Params returns the network's parameters.
func (p *Deterministic) Params() nn.Params { return p.net.Params() }

// ActionSpace returns the Box.
func (p *Deterministic) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag: noise is added only while it
// is on.
func (p *Deterministic) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *Deterministic) TrainingStep() bool { return p.training }

// Noise returns the exploration noise, nil for none.
func (p *Deterministic) Noise() Noise { return p.noise }

// Act writes under "act" the raw actions for the observations in obs, with
// exploration noise added when explore and the training-step flag are on.
// A stateful noise reads its state from state (nil or an *nd.Array [k, m];
// nil is zero) and writes the new one under "state". Act does not allocate
// when dst, obs and their arrays are those of the previous call.
//
// Act returns an error wrapping ErrObs if the network cannot take obs,
// and ErrConfig for a network output that is not [k, m].
func (p *Deterministic) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.tp.Reset()
	out, err := p.caller.Call(&p.tp, p.net, obs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrObs, err)
	}
	if out.NDim() != 2 || out.Dim(1) != p.m {
		return fmt.Errorf("%w: actions of shape %v for a Box of %d", ErrConfig, out.Shape(), p.m)
	}
	k := out.Dim(0)
	act := BoxActTo(dst, k, p.m)
	copy(act, out.Data())
	if !explore || !p.training || p.noise == nil {
		return nil
	}
	return addNoise(dst, act, state, k, p.m, p.noise, p.rng)
}

// addNoise adds noise to the actions act [k, m] of dst; a stateful noise
// reads its state from state (nil or an *nd.Array [k, m]; nil is zero) and
// writes the new one under "state" in dst.
func addNoise(dst *batch.Batch, act []float32, state any, k, m int, noise Noise, rng *rand.Rand) error {
	var x []float32
	if noise.Stateful() {
		xs := stateArray(dst, k, m)
		x = nd.Data[float32](xs)
		if s, ok := state.(*nd.Array); ok && s != nil {
			if err := nd.CopyTo(xs, s); err != nil {
				return fmt.Errorf("%w: noise state: %w", ErrConfig, err)
			}
		} else {
			clear(x)
		}
	}
	noise.AddTo(act, x, rng)
	return nil
}

// stateArray returns the float32 array [k, m] under "state" in dst, made
// when missing or of another shape.
func stateArray(dst *batch.Batch, k, m int) *nd.Array {
	if v, ok := dst.Get(batch.KeyState); ok {
		if a, ok := v.(*nd.Array); ok && a.DType() == nd.Float32 && a.Ndim() == 2 && a.Dim(0) == k && a.Dim(1) == m {
			return a
		}
	}
	a := nd.Zeros(nd.Float32, k, m)
	if err := dst.Set(batch.KeyState, a); err != nil {
		panic(err) // a valid key and an array
	}
	return a
}

// MapActionTo writes into env the env actions for the raw actions act
// (BoxMap's mapping).
func (p *Deterministic) MapActionTo(env, act *nd.Array) error { return p.bmap.MapActionTo(env, act) }

// UnmapActionTo writes into act the raw actions for the env actions env
// (BoxMap's inverse).
func (p *Deterministic) UnmapActionTo(act, env *nd.Array) error {
	return p.bmap.UnmapActionTo(act, env)
}
