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

// Policy acts ε-greedily with a Net: it reads the state the collector keeps
// per env (zero at an episode's start), returns the next one under "state",
// and stores the one it acted from under "policy.state_in". With explore,
// each action is replaced by a uniformly random one with probability ε (the
// training ε while the training-step flag is on, the test ε otherwise). It
// is a policy.Policy for a Discrete action space; acting with the arrays of
// the previous call allocates nothing.
type Policy struct {
	net               *Net
	space             *env.Discrete
	rng               *rand.Rand
	epsTrain, epsTest float64
	training          bool

	tp      tensor.Tape
	x, s    *tensor.Tensor
	argmax  []int
	pdata   *batch.Batch
	in, out *nd.Array // the state acted from and the next one
}

func newPolicy(net *Net, space *env.Discrete, rng *rand.Rand) *Policy {
	p := &Policy{net: net, space: space, rng: rng}
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
// under "obs" (an array [k, in]) and the state ([k, StateSize], or nil for
// zeros). It returns an error wrapping policy.ErrObs for other observations
// or states.
func (p *Policy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	o, err := obs.Array(batch.KeyObs)
	in, w := p.net.InSize(), p.net.StateSize()
	if err != nil || o.Ndim() != 2 || o.Dim(1) != in {
		return fmt.Errorf("%w: r2d2 wants observations [k, %d]", policy.ErrObs, in)
	}
	k := o.Dim(0)
	if p.x == nil || p.x.Dim(0) != k {
		p.x, p.s = tensor.New(k, in), tensor.New(k, w)
		p.in, p.out = p.s.ND(), nd.Zeros(nd.Float32, k, w)
		p.pdata = &batch.Batch{}
		p.argmax = make([]int, k)
	}
	if err := nd.CopyTo(p.x.ND(), o); err != nil {
		return fmt.Errorf("%w: %w", policy.ErrObs, err)
	}
	switch s := state.(type) {
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
		return fmt.Errorf("%w: a state of type %T", policy.ErrObs, state)
	}
	p.tp.Reset()
	next, q := p.net.Step(&p.tp, p.x, p.s)
	p.argmax = tensor.ArgMaxTo(p.argmax, q, 1)
	act := policy.DiscreteActTo(dst, k)
	start, n := p.space.Start(), p.space.N()
	for i, j := range p.argmax {
		act[i] = start + int64(j)
	}
	if explore {
		eps := p.epsTest
		if p.training {
			eps = p.epsTrain
		}
		if eps > 0 {
			for i := range act {
				if p.rng.Float64() < eps {
					act[i] = start + p.rng.Int64N(n)
				}
			}
		}
	}
	copy(nd.Data[float32](p.out), next.Data())
	if err := dst.Set(batch.KeyState, p.out); err != nil {
		return err
	}
	if err := p.pdata.Set(KeyStateIn, p.in); err != nil {
		return err
	}
	return dst.Set(batch.KeyPolicy, p.pdata)
}
