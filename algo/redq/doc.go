// Package redq implements randomized ensembled double Q-learning (Chen et
// al., "Randomized Ensembled Double Q-Learning: Learning Fast Without a
// Model", 2021), as Tianshou's REDQ: SAC's tanh-squashed Gaussian actor and
// temperature α with an ensemble of N critics, whose targets take the
// minimum over a random subset of M target critics, many critic updates per
// env step, and an actor trained on the ensemble's mean.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// Pendulum test with 10 critics). With a′ ~ π(·|s′) and ã ~ π(·|s) drawn by
// reparameterization and 𝓜 a subset of M of the N critics drawn without
// replacement for every batch,
//
//	y     = Σₖ γᵏ rₜ₊ₖ + γⁿ (min_{i∈𝓜} Q′ᵢ(s′, a′) − α·log π(a′|s′))   (Preprocess)
//	L_Q   = Σᵢ mean((Qᵢ(s, a) − y)²)                                 (every update)
//	L_π   = mean(α·log π(ã|s) − (1/N) Σᵢ Qᵢ(s, ã))                   (every ActorDelay-th)
//	L_α   = −log α · mean(log π(ã|s) + H̄)                           (with L_π, AutoAlpha)
//	θ′   ← τθ + (1 − τ)θ′                                         (every update)
//
// The update-to-data ratio G of the paper is the trainer's update_per_step
// (each update samples its own batch, which only the trainer can do);
// ActorDelay = G keeps one actor update per env step. The policy is SAC's
// (a policy.Actor over an actorcritic.SquashedHead), with optional
// exploration noise added to its samples while collecting (Noise, none by
// default: Tianshou's exploration_noise).
//
// # Invariants
//
//   - The subsets and the samples of the update come from the REDQ's own
//     random source, saved with the networks, α, the optimizers, the
//     policy's source, the order the subsets are drawn from, and the
//     counters (with the last actor and α losses, which the updates in
//     between report): Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
//
// # Decisions
//
//   - The critics' loss is the sum of their mean squared errors, as the
//     other actor-critics' (actorcritic.Critics), where Tianshou takes the
//     mean over the ensemble: with one Adam over all critics the steps are
//     the same up to Adam's ε, and the reported loss is N times Tianshou's.
//   - Only the "min" target of Tianshou's target_mode: its "mean" is not
//     the REDQ of the paper and no test of Tianshou's uses it.
//   - The actor's log σ is state-dependent (Tianshou's test's
//     conditioned_sigma); a free log σ is SAC's option, not needed here.
//   - The critics are evaluated one after the other
//     (actorcritic.Critics): a batched pass over the ensemble measured
//     slower (actorcritic's Decisions).
package redq
