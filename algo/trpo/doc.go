// Package trpo implements trust region policy optimization (Schulman et
// al., "Trust Region Policy Optimization", 2015) with a GAE critic, as
// Tianshou's TRPO trains it, an algo.OnPolicy algorithm for Discrete action
// spaces (a Categorical head) and Box action spaces (a Gaussian,
// actorcritic.NormalHead).
//
// # Overview
//
// [New] builds a [TRPO] from a [Config] and the env's spaces, as NPG's New
// does (package npg). [ContinuousConfig] is the setting of Tianshou's
// Pendulum test; [DefaultConfig] the same with γ 0.99 for Discrete spaces,
// for which Tianshou has no TRPO test. Each update is NPG's, with the step
// along the natural direction x = (F + δI)⁻¹g found by a backtracking line
// search: the first try is s·x with s = √(2·MaxKL / xᵀ(F + δI)x), the
// step the quadratic model of the KL divergence puts at MaxKL; each
// rejected try multiplies s by BacktrackCoeff; a try is accepted when the
// exact mean KL divergence from the policy before the step is below MaxKL
// and the surrogate loss is below its value before the step; after
// MaxBacktracks rejected tries the actor keeps its parameters.
//
// TRPO embeds actorcritic.Natural, the update it shares with NPG.
//
// # Invariants
//
//   - An update allocates nothing once a collection of the same length has
//     been seen (locked by algotest.CheckOnPolicy for both heads).
//   - A step whose KL divergence exceeds MaxKL is never kept (tested in
//     package actorcritic with steps ten times the quadratic model's).
//   - Save writes the networks, the critic's Adam, the random sources and
//     the counters; a loaded TRPO continues bit for bit.
//
// # Aliasing
//
// As NPG's: Preprocess's columns share the TRPO's memory, and the
// statistics map is reused.
//
// # Decisions
//
//   - The Fisher-vector product, the actor's loss and the refusals are
//     NPG's (see package npg's Decisions).
//   - When no try passes, the parameters are restored exactly (they are
//     kept in float64 before the step) and the update reports a step and
//     KL of 0.
package trpo
