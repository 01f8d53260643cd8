package r2d2

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// KeyStateIn is the key, under "policy", of the state a Policy acted from
// ([k, StateSize] float32): stored with each transition at collection, it
// is the state a sequence's burn-in starts from.
const KeyStateIn = "state_in"

// The keys of a Policy's state with held random actions (Config.Hold): the
// recurrent state, [k, StateSize] float32, and policy.Hold's rows, [k, 2]
// int64.
const (
	KeyRecurrent = "recurrent"
	KeyHold      = "hold"
)

// Policy acts ε-greedily with a Net: it reads the state the collector keeps
// per env (zero at an episode's start), returns the next one under "state",
// and stores the one it acted from under "policy.state_in". With explore,
// each action is replaced by a uniformly random one with probability ε (the
// training ε while the training-step flag is on, the test ε otherwise). It
// is a policy.Policy for a Discrete action space; acting with the arrays of
// the previous call allocates nothing.
//
// With held random actions (Config.Hold) the random choice is policy.Hold's
// instead, and the state is a Batch of two arrays, the recurrent state
// under KeyRecurrent and the hold's rows under KeyHold, so that the
// collector zeroes both at an episode's start; the recurrent state alone is
// stored under "policy.state_in". Without explore the hold's rows pass
// through unchanged.
type Policy struct {
	net               *Net
	space             *env.Discrete
	rng               *rand.Rand
	epsTrain, epsTest float64
	training          bool
	hold              *policy.Hold // nil without held random actions

	tp      tensor.Tape
	x, s    *tensor.Tensor
	xs      *nd.Array // x's memory as an array, for the observations' copy
	argmax  []int
	pdata   *batch.Batch
	in, out *nd.Array // the state acted from and the next one

	// with a hold: the next state, and the Batch policy.Hold writes into
	state, holdDst *batch.Batch
	holdOut        *nd.Array
}

func newPolicy(net *Net, space *env.Discrete, rng *rand.Rand, hold *policy.Hold) *Policy {
	p := &Policy{net: net, space: space, rng: rng, hold: hold}
	p.tp.SetGradEnabled(false)
	return p
}

// Params returns the network's parameters.
func (p *Policy) Params() nn.Params { return p.net.Params() }

// ActionSpace returns the Discrete space the policy acts in.
func (p *Policy) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag.
func (p *Policy) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *Policy) TrainingStep() bool { return p.training }

// Eps returns the training and the test ε.
func (p *Policy) Eps() (train, test float64) { return p.epsTrain, p.epsTest }

// Act writes "act", "state" and "policy.state_in" for the k observations
// under "obs" (an array [k, in]) and the state (nil for zeros; otherwise
// [k, StateSize], or with a hold a Batch of it and the hold's [k, 2] rows).
// It returns an error wrapping policy.ErrObs for other observations or
// states.
func (p *Policy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	o, err := obs.Array(batch.KeyObs)
	in, w := p.net.InSize(), p.net.StateSize()
	if err != nil || o.Ndim() != 2 || o.Dim(1) != in {
		return fmt.Errorf("%w: r2d2 wants observations [k, %d]", policy.ErrObs, in)
	}
	k := o.Dim(0)
	if p.x == nil || p.x.Dim(0) != k {
		p.resize(k)
	}
	if err := nd.CopyTo(p.xs, o); err != nil {
		return fmt.Errorf("%w: %w", policy.ErrObs, err)
	}
	rec, held, err := p.split(state)
	if err != nil {
		return err
	}
	switch s := rec.(type) {
	case nil:
		p.s.Fill(0)
	case *nd.Array:
		if s.Ndim() != 2 || s.Dim(0) != k || s.Dim(1) != w {
			return fmt.Errorf("%w: a state of shape %v; want [%d %d]", policy.ErrObs, s.Shape(), k, w)
		}
		if err := nd.CopyTo(p.in, s); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrObs, err)
		}
	default:
		return fmt.Errorf("%w: a state of type %T", policy.ErrObs, rec)
	}
	p.tp.Reset()
	next, q := p.net.Step(&p.tp, p.x, p.s)
	p.argmax = tensor.ArgMaxTo(p.argmax, q, 1)
	act := policy.DiscreteActTo(dst, k)
	start := p.space.Start()
	for i, j := range p.argmax {
		act[i] = start + int64(j)
	}
	if err := p.explore(act, held, explore); err != nil {
		return err
	}
	copy(nd.Data[float32](p.out), next.Data())
	var out any = p.out
	if p.hold != nil {
		out = p.state
	}
	if err := dst.Set(batch.KeyState, out); err != nil {
		return err
	}
	if err := p.pdata.Set(KeyStateIn, p.in); err != nil {
		return err
	}
	return dst.Set(batch.KeyPolicy, p.pdata)
}

// resize makes the policy's arrays for k envs.
func (p *Policy) resize(k int) {
	in, w := p.net.InSize(), p.net.StateSize()
	p.x, p.s = tensor.New(k, in), tensor.New(k, w)
	p.xs = p.x.ND()
	p.in, p.out = p.s.ND(), nd.Zeros(nd.Float32, k, w)
	p.pdata = &batch.Batch{}
	p.argmax = make([]int, k)
	if p.hold != nil {
		// policy.Hold reuses the array it finds under "state" in holdDst.
		p.holdOut = nd.Zeros(nd.Int64, k, 2)
		p.holdDst = batch.MustNew(batch.KeyState, p.holdOut)
		p.state = batch.MustNew(KeyRecurrent, p.out, KeyHold, p.holdOut)
	}
}

// split returns the recurrent state and the hold's rows of the state Act
// was given: without a hold the state itself and nil.
func (p *Policy) split(state any) (rec any, held *nd.Array, err error) {
	if p.hold == nil || state == nil {
		return state, nil, nil
	}
	b, ok := state.(*batch.Batch)
	if !ok {
		return nil, nil, fmt.Errorf("%w: a state of type %T; with held actions want a Batch of %q and %q", policy.ErrObs, state, KeyRecurrent, KeyHold)
	}
	rec, ok = b.Get(KeyRecurrent)
	h, _ := b.Get(KeyHold)
	held, ok2 := h.(*nd.Array)
	if !ok || !ok2 {
		return nil, nil, fmt.Errorf("%w: a state without %q or an array %q", policy.ErrObs, KeyRecurrent, KeyHold)
	}
	return rec, held, nil
}

// explore replaces the greedy actions act when exploring: each by a
// uniformly random one with probability ε, or with a hold as policy.Hold
// chooses, from the rows held. Without explore, the rows held pass
// through.
func (p *Policy) explore(act []int64, held *nd.Array, explore bool) error {
	if !explore {
		if p.hold == nil {
			return nil
		}
		if held == nil {
			clear(nd.Data[int64](p.holdOut))
			return nil
		}
		if held.DType() != nd.Int64 || held.Ndim() != 2 || held.Dim(0) != len(act) || held.Dim(1) != 2 {
			return fmt.Errorf("%w: hold state %v of shape %v; want int64 [%d 2]", policy.ErrObs, held.DType(), held.Shape(), len(act))
		}
		if err := nd.CopyTo(p.holdOut, held); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrObs, err)
		}
		return nil
	}
	eps := p.epsTest
	if p.training {
		eps = p.epsTrain
	}
	start, n := p.space.Start(), p.space.N()
	if p.hold != nil {
		var prev any // a nil *nd.Array is no state to policy.Hold
		if held != nil {
			prev = held
		}
		if err := p.hold.ApplyDiscrete(p.holdDst, act, prev, len(act), int(n), start, nil, eps, p.rng); err != nil {
			return fmt.Errorf("%w: %w", policy.ErrObs, err)
		}
		return nil
	}
	if eps > 0 {
		for i := range act {
			if p.rng.Float64() < eps {
				act[i] = start + p.rng.Int64N(n)
			}
		}
	}
	return nil
}
