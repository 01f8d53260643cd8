// Package sac implements soft actor-critic (Haarnoja et al., "Soft
// Actor-Critic Algorithms and Applications", 2018), as Tianshou's SAC: a
// tanh-squashed Gaussian actor, twin critics with target copies, and an
// entropy temperature α, fixed or tuned towards a target entropy.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// Pendulum test). With a′ ~ π(·|s′) and ã ~ π(·|s) drawn by
// reparameterization, each update
//
//	y     = Σₖ γᵏ rₜ₊ₖ + γⁿ (minᵢ Q′ᵢ(s′, a′) − α·log π(a′|s′))   (Preprocess)
//	L_Q   = Σᵢ mean((Qᵢ(s, a) − y)²)
//	L_π   = mean(α·log π(ã|s) − minᵢ Qᵢ(s, ã))                  (with the new critics)
//	L_α   = −log α · mean(log π(ã|s) + H̄)                        (AutoAlpha; H̄ the target entropy)
//	θ′   ← τθ + (1 − τ)θ′                                      (the critics' targets)
//
// log π includes the tanh change of variables (distribution.TanhNormal).
// The policy is a policy.Actor over an actorcritic.SquashedHead: it samples
// while collecting training data and takes tanh of the mean otherwise
// (DeterministicEval). Its actions lie in (−1, 1), clipped and scaled to
// the Box; the buffer stores them unscaled. Exploration noise (Noise,
// none by default: Tianshou's exploration_noise) may be added to the
// samples while collecting, before the clip.
//
// # Invariants
//
//   - The samples of the update come from the SAC's own random source,
//     saved with the networks, log α, the optimizers, the policy's source and
//     the counters: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
package sac
