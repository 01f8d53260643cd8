package impala

import (
	"fmt"
	"math"
)

// Unroll is one actor's trajectory of T steps as V-trace reads it; every
// slice has length T.
type Unroll struct {
	// Values are V(xₜ) and NextValues V of the observation after step t,
	// both from the learner's current network.
	Values, NextValues []float64
	// Rewards are rₜ.
	Rewards []float64
	// Terminated marks steps after which the episode ended in a terminal
	// state: no bootstrap. Continues marks steps whose episode goes on at
	// step t+1 of the same unroll, so that the trace runs through them;
	// at an episode end (terminated or truncated) and at the unroll's last
	// step it is false.
	Terminated, Continues []bool
	// LogRhos are log π(aₜ|xₜ) − log μ(aₜ|xₜ), target policy against
	// behaviour policy.
	LogRhos []float64
}

// VTrace stores in vs the V-trace targets and in adv the policy-gradient
// advantages of u (Espeholt et al., 2018, equation 1 and section 4.2):
//
//	δₜ = ρₜ (rₜ + γₜ V(xₜ₊₁) − V(xₜ)),  ρₜ = min(ρ̄, πₜ/μₜ),  cₜ = min(c̄, πₜ/μₜ)
//	vₜ = V(xₜ) + δₜ + γ cₜ (vₜ₊₁ − V(xₜ₊₁))   while the episode continues in the unroll
//	advₜ = ρₜ (rₜ + γₜ v′ₜ₊₁ − V(xₜ))
//
// with γₜ = 0 after termination, and v′ₜ₊₁ the target vₜ₊₁ where the
// episode continues in the unroll, V of the next observation otherwise
// (the bootstrap of the unroll's last step or of a truncated episode).
func VTrace(vs, adv []float64, u Unroll, gamma, rhoBar, cBar float64) error {
	t := len(u.Rewards)
	for _, n := range []int{len(vs), len(adv), len(u.Values), len(u.NextValues), len(u.Terminated), len(u.Continues), len(u.LogRhos)} {
		if n != t {
			return fmt.Errorf("%w: V-trace over %d steps with a slice of %d", ErrConfig, t, n)
		}
	}
	next := 0.0 // vₜ₊₁ − V(xₜ₊₁) of the step after t, where it continues
	for i := t - 1; i >= 0; i-- {
		ratio := math.Exp(u.LogRhos[i])
		rho, c := min(rhoBar, ratio), min(cBar, ratio)
		g := gamma
		if u.Terminated[i] {
			g = 0
		}
		delta := rho * (u.Rewards[i] + g*u.NextValues[i] - u.Values[i])
		corr := 0.0
		if u.Continues[i] {
			corr = gamma * c * next
		}
		vs[i] = u.Values[i] + delta + corr
		// v′ₜ₊₁: the next target where the episode continues in the
		// unroll, else the bootstrap value.
		vNext := u.NextValues[i]
		if u.Continues[i] {
			vNext = u.NextValues[i] + next
		}
		adv[i] = rho * (u.Rewards[i] + g*vNext - u.Values[i])
		next = vs[i] - u.Values[i]
	}
	return nil
}
