package discretesac

import (
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// heldActor is the actor's policy with temporally extended random actions
// while collecting training data (Config.Hold): an env that holds no
// random action starts one with probability HoldEps and otherwise samples
// the actor, as policy.Hold describes. Tests and deployment (the
// training-step flag off) act as the actor alone.
type heldActor struct {
	*policy.Actor
	hold  *policy.Hold
	eps   float64
	space *env.Discrete
	rng   *rand.Rand
	mask  policy.Mask
}

// Act writes the actor's actions under "act", replaced by held random
// ones while exploring during training, whose state goes under "state".
func (p *heldActor) Act(dst, obs *batch.Batch, state any, explore bool) error {
	if err := p.Actor.Act(dst, obs, state, explore); err != nil {
		return err
	}
	if !explore || !p.TrainingStep() {
		return nil
	}
	a, err := dst.Array(batch.KeyAct)
	if err != nil {
		return err
	}
	k, n := a.Dim(0), int(p.space.N())
	mask, err := p.mask.Read(obs, k, n)
	if err != nil {
		return err
	}
	return p.hold.ApplyDiscrete(dst, nd.Data[int64](a), state, k, n, p.space.Start(), mask, p.eps, p.rng)
}
