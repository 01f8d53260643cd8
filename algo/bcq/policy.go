package bcq

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// bcqPolicy acts with the action of largest Q-value among those the
// imitation network finds likely enough: a is eligible in s when
// log G(a|s) − max log G(·|s) ≥ log τ, the logits' differences being those
// of the log-probabilities. With explore, each action is replaced by a
// uniformly random one with probability ε.
type bcqPolicy struct {
	q, imit  policy.Network
	space    *env.Discrete
	n        int
	logTau   float32
	eps      float64
	rng      *rand.Rand
	training bool
	ps       nn.Params

	tp           tensor.Tape
	qCall, iCall nn.Caller
	greedy       []int
}

func newPolicy(q, imit policy.Network, space *env.Discrete, threshold, eps float64, rng *rand.Rand) *bcqPolicy {
	p := &bcqPolicy{q: q, imit: imit, space: space, n: int(space.N()), logTau: float32(math.Log(threshold)),
		eps: eps, rng: rng}
	p.ps = append(q.Params().Prefixed("q"), imit.Params().Prefixed("imitator")...)
	p.tp.SetGradEnabled(false)
	return p
}

// Params returns the Q network's parameters prefixed "q", then the imitation
// network's prefixed "imitator".
func (p *bcqPolicy) Params() nn.Params { return p.ps }

// ActionSpace returns the Discrete action space.
func (p *bcqPolicy) ActionSpace() env.Space { return p.space }

// SetTrainingStep sets the training-step flag, which changes nothing: the
// same ε applies in both modes.
func (p *bcqPolicy) SetTrainingStep(on bool) { p.training = on }

// TrainingStep reports the training-step flag.
func (p *bcqPolicy) TrainingStep() bool { return p.training }

// Act writes under "act" the int64 actions [k] for the k observations in
// obs: the eligible action of largest Q-value (ties: the first), replaced
// with explore by a uniformly random action with probability ε. It does not
// allocate when dst, obs and their arrays are those of the previous call.
//
// Act returns an error wrapping policy.ErrObs if a network cannot take obs,
// policy.ErrConfig if an output is not [k, n], and ErrDiverged if the
// imitation logits of an observation are NaN.
func (p *bcqPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.tp.Reset()
	q, err := p.qCall.Call(&p.tp, p.q, obs)
	if err != nil {
		return fmt.Errorf("%w: Q network: %w", policy.ErrObs, err)
	}
	logits, err := p.iCall.Call(&p.tp, p.imit, obs)
	if err != nil {
		return fmt.Errorf("%w: imitation network: %w", policy.ErrObs, err)
	}
	k := q.Dim(0)
	if err := checkOut(q, logits, k, p.n); err != nil {
		return fmt.Errorf("%w: %w", policy.ErrConfig, err)
	}
	if cap(p.greedy) < k {
		p.greedy = make([]int, k)
	}
	p.greedy = p.greedy[:k]
	if err := greedyTo(p.greedy, q.Data(), logits.Data(), p.n, p.logTau); err != nil {
		return err
	}
	act := policy.DiscreteActTo(dst, k)
	start := p.space.Start()
	for i, a := range p.greedy {
		act[i] = start + int64(a)
		if explore && p.eps > 0 && p.rng.Float64() < p.eps {
			act[i] = start + p.rng.Int64N(int64(p.n))
		}
	}
	return nil
}

// checkOut checks that the Q-values and imitation logits are [k, n].
func checkOut(q, logits *tensor.Tensor, k, n int) error {
	for _, t := range []struct {
		name string
		x    *tensor.Tensor
	}{{"Q-values", q}, {"imitation logits", logits}} {
		if t.x.NDim() != 2 || t.x.Dim(0) != k || t.x.Dim(1) != n {
			return fmt.Errorf("%s of shape %v for %d observations and %d actions", t.name, t.x.Shape(), k, n)
		}
	}
	return nil
}

// greedyTo writes into dst, for each row of q and logits (n values each),
// the eligible action of largest Q-value: a is eligible when
// logits[a] − max(logits) ≥ logTau (the imitation probability at least τ
// times the largest). Ties go to the first action. It returns an error
// wrapping ErrDiverged for a row of logits with a NaN, which leaves no action
// eligible.
func greedyTo(dst []int, q, logits []float32, n int, logTau float32) error {
	for i := range dst {
		qr, lr := q[i*n:(i+1)*n], logits[i*n:(i+1)*n]
		m := lr[0]
		for _, l := range lr[1:] {
			m = max(m, l)
		}
		best := -1
		for a, l := range lr {
			if l-m >= logTau && (best < 0 || qr[a] > qr[best]) {
				best = a
			}
		}
		if best < 0 || math.IsNaN(float64(m)) {
			return fmt.Errorf("%w: imitation logits %v", ErrDiverged, lr)
		}
		dst[i] = best
	}
	return nil
}
