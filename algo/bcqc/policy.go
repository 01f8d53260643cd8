package bcqc

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// bcqPolicy acts as Tianshou's BCQPolicy: for each observation it decodes
// ForwardSampledTimes actions from latents drawn from its random source,
// perturbs them with Φ and takes the one of largest Q₁. Its actions are in
// the env's units, so it maps nothing. It samples in every mode (the
// training-step flag and explore change nothing).
type bcqPolicy struct {
	vae    *VAE
	actor  *Perturbation
	critic *actorcritic.QCritic
	space  env.Space
	n, m   int // samples per observation, action size
	ps     nn.Params
	rng    *rand.Rand

	training bool
	tp       tensor.Tape
	z        scratch
	rep      []int
}

func (p *bcqPolicy) Params() nn.Params       { return p.ps }
func (p *bcqPolicy) ActionSpace() env.Space  { return p.space }
func (p *bcqPolicy) SetTrainingStep(on bool) { p.training = on }
func (p *bcqPolicy) TrainingStep() bool      { return p.training }

// Act writes under "act" the float32 actions [k, m] for the k observations
// in obs. It returns an error wrapping policy.ErrObs for observations that
// are not [k, n] numbers.
func (p *bcqPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.tp.Reset()
	a, err := obs.Array(batch.KeyObs)
	if err != nil {
		return fmt.Errorf("%w: %w", policy.ErrObs, err)
	}
	o, err := p.tp.FromND(a)
	if err != nil || o.NDim() != 2 {
		return fmt.Errorf("%w: observations of shape %v (%v)", policy.ErrObs, a.Shape(), err)
	}
	k := o.Dim(0)
	p.rep = repeatIndex(p.rep, k, p.n)
	rep := p.tp.IndexSelect(o, 0, p.rep)
	z := p.z.get(k*p.n, p.vae.Latent)
	fillLatent(z.Data(), p.rng, true)
	act := p.actor.Forward(&p.tp, rep, p.vae.Decode(&p.tp, rep, z))
	q := p.critic.Q(&p.tp, rep, act).Data()
	out, src := policy.BoxActTo(dst, k, p.m), act.Data()
	for i := range k {
		best := 0
		for j := 1; j < p.n; j++ {
			if q[i*p.n+j] > q[i*p.n+best] {
				best = j
			}
		}
		copy(out[i*p.m:(i+1)*p.m], src[(i*p.n+best)*p.m:(i*p.n+best+1)*p.m])
	}
	return nil
}
