package bdqn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// branchPolicy acts with the action of largest Q-value in every branch,
// and when exploring replaces an observation's whole action by a uniformly
// random one with probability ε (εTrain while the training-step flag is
// on, εTest while it is off), as Tianshou's BDQN policy does. With
// Config.Hold an exploring observation keeps its random action for a drawn
// number of steps (policy.Hold, state under "state").
//
// In a MultiDiscrete space its actions are the space's. In a Box it acts
// in the discretized space of env.ContinuousToDiscrete: its actions are the
// indices of the points of each dimension (float32 [k, D], the Box's
// dtype, stored in the buffer), and MapActionTo turns them into the
// points, which the env receives.
type branchPolicy struct {
	net      policy.Network
	space    env.Space
	d, a     int
	start    []int64     // a MultiDiscrete space's smallest values
	mesh     [][]float64 // a Box's points per dimension
	rng      *rand.Rand
	epsTrain float64
	epsTest  float64
	training bool
	ps       nn.Params

	tp     tensor.Tape
	caller nn.Caller
	greedy []int

	hold   *policy.Hold // temporally extended ε-greedy, nil when off
	drawFn func(row int, a []int64)
	held   []int64 // the actions [k, D] as indices, for hold
}

// draw writes a uniformly random index of every branch into a, the
// random action of a held exploration.
func (p *branchPolicy) draw(_ int, a []int64) {
	for j := range a {
		a[j] = int64(p.rng.IntN(p.a))
	}
}

// Params returns the Q network's parameters.
func (p *branchPolicy) Params() nn.Params { return p.ps }

// ActionSpace returns the env's action space (the MultiDiscrete or the
// Box).
func (p *branchPolicy) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag, which selects εTrain or
// εTest.
func (p *branchPolicy) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *branchPolicy) TrainingStep() bool { return p.training }

// Act writes under "act" the actions [k, D] for the k observations in obs
// (int64 values of a MultiDiscrete space, float32 indices of the points
// of a Box). It does not allocate when dst, obs and their arrays are those
// of the previous call. It returns an error wrapping policy.ErrObs if the
// network cannot take obs.
func (p *branchPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.tp.Reset()
	q, err := p.caller.Call(&p.tp, p.net, obs)
	if err != nil {
		return fmt.Errorf("%w: %w", policy.ErrObs, err)
	}
	k := q.Dim(0)
	if cap(p.greedy) < k*p.d {
		p.greedy = make([]int, k*p.d)
	}
	p.greedy = tensor.ArgMaxTo(p.greedy[:k*p.d], q, 2)
	eps := p.epsTest
	if p.training {
		eps = p.epsTrain
	}
	if explore && p.hold != nil {
		if cap(p.held) < k*p.d {
			p.held = make([]int64, k*p.d)
		}
		p.held = p.held[:k*p.d]
		for i, g := range p.greedy {
			p.held[i] = int64(g)
		}
		if err := p.hold.Apply(dst, p.held, state, k, p.d, eps, p.rng, p.drawFn); err != nil {
			return err
		}
		for i, h := range p.held {
			p.greedy[i] = int(h)
		}
		explore = false // chosen
	}
	for i := range k {
		if explore && eps > 0 && p.rng.Float64() < eps {
			for j := range p.d {
				p.greedy[i*p.d+j] = p.rng.IntN(p.a)
			}
		}
	}
	if p.mesh != nil {
		a := policy.BoxActTo(dst, k, p.d)
		for i, g := range p.greedy {
			a[i] = float32(g)
		}
		return nil
	}
	a := policy.MultiDiscreteActTo(dst, k, p.d)
	for i, g := range p.greedy {
		a[i] = p.start[i%p.d] + int64(g)
	}
	return nil
}

// MapActionTo writes into env the env actions of the policy's actions act:
// the points of a Box, or act itself in a MultiDiscrete space. It returns
// an error for an index outside the points.
func (p *branchPolicy) MapActionTo(envAct, act *nd.Array) error {
	if p.mesh == nil {
		return nd.CopyTo(envAct, act)
	}
	src, dst := nd.Data[float32](act), nd.Data[float32](envAct)
	for i, v := range src {
		j := int(v)
		if float32(j) != v || j < 0 || j >= p.a {
			return fmt.Errorf("bdqn: action index %v outside [0, %d)", v, p.a)
		}
		dst[i] = float32(p.mesh[i%p.d][j])
	}
	return nil
}

// UnmapActionTo writes into act the policy's actions for the env actions
// envAct: in a Box the index of the nearest point of each dimension, in a
// MultiDiscrete space envAct itself.
func (p *branchPolicy) UnmapActionTo(act, envAct *nd.Array) error {
	if p.mesh == nil {
		return nd.CopyTo(act, envAct)
	}
	src, dst := nd.Data[float32](envAct), nd.Data[float32](act)
	for i, v := range src {
		m := p.mesh[i%p.d]
		lo, hi := m[0], m[len(m)-1]
		j := math.Round((float64(v) - lo) / (hi - lo) * float64(p.a-1))
		dst[i] = float32(min(max(j, 0), float64(p.a-1)))
	}
	return nil
}
