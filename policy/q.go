package policy

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Network is what a policy acts with: a network called with named inputs
// looked up in the observation batch (nn.Model, Machin's safe_call; wrap a
// plain Layer in ObsNet) that also owns parameters (nn.Module).
type Network interface {
	nn.Model
	nn.Module
}

// Q is the Q-learning policy over a Discrete action space, Tianshou's
// DiscreteQLearningPolicy: it acts with the action of largest Q-value, and
// when exploring with a uniformly random action with probability ε — εTrain
// while the training-step flag is on, εTest while it is off (Tianshou's
// eps_training and eps_inference). Algorithms change ε on a schedule with
// SetEps.
//
// Observations with action masks (see Mask) restrict both: the greedy
// action is the best allowed one and a random action is uniform over the
// allowed ones.
type Q struct {
	net      Network
	space    *env.Discrete
	n        int
	rng      *rand.Rand
	epsTrain float64
	epsTest  float64
	training bool

	tp     tensor.Tape
	caller nn.Caller
	argmax []int
	mask   Mask
	ps     nn.Params

	hold *Hold
}

// NewQ returns a Q policy acting with net, whose output for k observations
// must be the Q-values [k, n] of the n actions of space, a *env.Discrete.
// rng draws the exploration (ε-greedy) decisions and actions. Both ε start
// at 0 and the training-step flag off.
//
// NewQ returns an error wrapping ErrConfig if space is not Discrete or rng
// is nil.
func NewQ(net Network, space env.Space, rng *rand.Rand) (*Q, error) {
	d, ok := space.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: a Q policy needs a Discrete action space, not %v", ErrConfig, space)
	}
	if rng == nil {
		return nil, fmt.Errorf("%w: no random source", ErrConfig)
	}
	p := &Q{net: net, space: d, n: int(d.N()), rng: rng, ps: net.Params()}
	p.tp.SetGradEnabled(false)
	return p, nil
}

// Params returns the network's parameters.
func (p *Q) Params() nn.Params { return p.ps }

// ActionSpace returns the Discrete action space.
func (p *Q) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag, which selects εTrain or εTest.
func (p *Q) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *Q) TrainingStep() bool { return p.training }

// SetEps sets the exploration rates used while the training-step flag is on
// (train) and off (test). It returns an error wrapping ErrConfig, changing
// nothing, unless both are in [0, 1].
func (p *Q) SetEps(train, test float64) error {
	if !(train >= 0 && train <= 1 && test >= 0 && test <= 1) {
		return fmt.Errorf("%w: ε train %v, test %v: want values in [0, 1]", ErrConfig, train, test)
	}
	p.epsTrain, p.epsTest = train, test
	return nil
}

// SetHold sets temporally extended ε-greedy exploration (HoldConfig; the
// zero value turns it off). While it is on, Act with explore writes its
// per-env state under "state". It returns Validate's error, changing
// nothing.
func (p *Q) SetHold(cfg HoldConfig) error {
	h, err := NewHold(cfg)
	if err != nil {
		return err
	}
	p.hold = h
	return nil
}

// Eps returns the exploration rates set by SetEps.
func (p *Q) Eps() (train, test float64) { return p.epsTrain, p.epsTest }

// Act writes under "act" the int64 actions [k] of largest Q-value for the k
// observations in obs (ties: the first), and with explore replaces each by a
// uniformly random action with probability ε; with action masks in obs both
// choose among the allowed actions only (a held action the mask no longer
// allows is replaced, for that step, by a random allowed one). Without
// SetHold it writes nothing else and ignores state; with it, explore holds
// random actions as Hold.Apply does, its state read from state and written
// under "state". It does not allocate when dst, obs and their arrays are those of
// the previous call.
//
// Act returns an error wrapping ErrObs if the network cannot take obs or a
// mask is unusable (Mask.Read), and ErrConfig if its output is not [k, n].
func (p *Q) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.tp.Reset()
	q, err := p.caller.Call(&p.tp, p.net, obs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrObs, err)
	}
	if q.NDim() != 2 || q.Dim(1) != p.n {
		return fmt.Errorf("%w: Q-values of shape %v for %d actions", ErrConfig, q.Shape(), p.n)
	}
	k := q.Dim(0)
	mask, err := p.mask.Read(obs, k, p.n)
	if err != nil {
		return err
	}
	a := DiscreteActTo(dst, k)
	start := p.space.Start()
	if mask != nil {
		qv := q.Data()
		for i := range a {
			a[i] = start + int64(ArgMaxValid(qv[i*p.n:(i+1)*p.n], mask[i*p.n:(i+1)*p.n]))
		}
	} else {
		p.argmax = tensor.ArgMaxTo(growInts(p.argmax, k), q, 1)
		for i, j := range p.argmax {
			a[i] = start + int64(j)
		}
	}
	if explore {
		eps := p.epsTest
		if p.training {
			eps = p.epsTrain
		}
		if p.hold != nil {
			if err := p.hold.ApplyDiscrete(dst, a, state, k, p.n, start, mask, eps, p.rng); err != nil {
				return err
			}
		} else if eps > 0 {
			for i := range a {
				switch {
				case p.rng.Float64() >= eps:
				case mask != nil:
					a[i] = start + int64(env.SampleValid(mask[i*p.n:(i+1)*p.n], p.rng))
				default:
					a[i] = start + p.rng.Int64N(int64(p.n))
				}
			}
		}
	}
	return nil
}

// growInts returns s resized to n elements, reusing its memory when it can.
func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}
