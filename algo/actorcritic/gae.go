package actorcritic

import (
	"fmt"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/tensor"
)

// eps is added to the variance of the returns before dividing by its root
// (Tianshou's 1e-8).
const eps = 1e-8

// GAE estimates the values, returns and advantages of an on-policy
// collection with a critic, Tianshou's A2C._add_returns_and_advantages,
// which PPO shares:
//
//	V = critic(obs), V′ = critic(obs_next)           (without gradients)
//	Â = GAE(r, s·V, s·V′; γ, λ)                     (algo.Episodic)
//	G = (Â + s·V) / s
//
// where s = 1, or with ReturnScaling s = √(σ² + 10⁻⁸) of the running
// statistics of the unscaled returns Â + s·V, to which each collection's are
// added afterwards. The critic thus learns returns in units of s, and the
// advantages stay in the rewards' units.
//
// The zero GAE (with Gamma and Lambda set) is ready to use; it keeps
// scratch memory between calls, so collections of one size do not
// allocate.
type GAE struct {
	// Gamma and Lambda are γ and λ, in [0, 1].
	Gamma, Lambda float64
	// ReturnScaling scales the returns as described above.
	ReturnScaling bool

	ep       algo.Episodic
	tp       tensor.Tape
	v, vNext []float32 // scaled values
	raw      []float32 // unscaled returns
}

// Compute evaluates net's critic on the observations and next observations
// of r (loaded with them) and fills r's columns "v_s" (the critic's values),
// "returns" and "adv" for the transitions of buf at indices, the ones r holds
// in that order (see algo.Episodic.AdvantagesTo). stats holds the running
// statistics of the returns, read and updated with ReturnScaling.
//
// Compute returns an error if r holds no next observations or net cannot
// evaluate them; it panics as algo.Episodic.AdvantagesTo does when indices
// do not match r.
func (g *GAE) Compute(r *Rollout, net *Net, buf buffer.Buffer, indices []int, stats *RunningMeanStd) error {
	if r.ObsNext() == nil {
		return fmt.Errorf("actorcritic: the collection was loaded without obs_next")
	}
	g.tp.SetGradEnabled(false)
	g.tp.Reset()
	v, err := net.Value(&g.tp, r.Obs())
	if err != nil {
		return fmt.Errorf("actorcritic: values: %w", err)
	}
	vn, err := net.Value(&g.tp, r.ObsNext())
	if err != nil {
		return fmt.Errorf("actorcritic: next values: %w", err)
	}
	vs := r.Column(batch.KeyVS).Data()
	copy(vs, v.Data())
	adv, ret := r.Column(batch.KeyAdv).Data(), r.Column(batch.KeyReturns).Data()
	if !g.ReturnScaling {
		g.ep.AdvantagesTo(adv, ret, buf, indices, vs, vn.Data(), g.Gamma, g.Lambda)
		return nil
	}
	n := len(vs)
	g.v, g.vNext, g.raw = slices.Grow(g.v[:0], n)[:n], slices.Grow(g.vNext[:0], n)[:n], slices.Grow(g.raw[:0], n)[:n]
	s := stats.Std(eps)
	for i := range n {
		g.v[i] = float32(float64(vs[i]) * s)
		g.vNext[i] = float32(float64(vn.Data()[i]) * s)
	}
	g.ep.AdvantagesTo(adv, g.raw, buf, indices, g.v, g.vNext, g.Gamma, g.Lambda)
	for i, x := range g.raw {
		ret[i] = float32(float64(x) / s)
	}
	stats.Update(g.raw)
	return nil
}
