// Package cql implements conservative Q-learning for continuous actions
// (CQL; Kumar, Zhou, Tucker and Levine, "Conservative Q-Learning for
// Offline Reinforcement Learning", 2020) on soft actor-critic, as
// Tianshou's CQL: an algo.OffPolicy algorithm for the offline trainer.
//
// # Overview
//
// [New] builds SAC's networks (actorcritic.Squashed: a tanh-squashed
// Gaussian actor, twin critics with targets, the temperature α) from a
// [Config] ([DefaultConfig] is Tianshou's Pendulum test), and the Lagrange
// multiplier α′. Each update, with B sampled transitions and N =
// NumRepeatActions, the data's actions a turned from env actions into the
// policy's raw ones (Preprocess: the inverse of Config.Map),
//
//	y     = Σₖ γᵏ rₜ₊ₖ + γⁿ (minᵢ Q′ᵢ(s′, a′) − α·log π(a′|s′))    (Preprocess, as SAC)
//	Q̂ᵢ    = {Qᵢ(s, âᵤ) + m·log 2}ᴺ ∪ {Qᵢ(s, âₛ) − log π(âₛ|s)}ᴺ ∪ {Qᵢ(s, âₛ′) − log π(âₛ′|s′)}ᴺ
//	gapᵢ  = w·(T·mean over s of log Σ exp(Q̂ᵢ/T) − mean Qᵢ(s, a))
//	L_Q   = Σᵢ mean((Qᵢ(s, a) − y)²) + Σᵢ α′·(gapᵢ − τ)      (Σᵢ gapᵢ without WithLagrange)
//	L_α′  = −α′·meanᵢ(gapᵢ − τ),  α′ = clamp(exp(log α′), CQLAlphaMin, CQLAlphaMax)
//	L_π, L_α as SAC's, then the critics' Polyak step
//
// where âᵤ are uniform on [−1, 1]ᵐ (density 2⁻ᵐ), âₛ and âₛ′ are drawn
// from the policy at s and at s′, and the log-sum-exp runs over the 3N
// values of each observation: the penalty's importance-sampled estimate of
// log ∫ exp Q(s, a) da. The proposals carry no gradient; α′ grows while
// the gap exceeds τ (CQLTargetActionGap) and shrinks below it. The policy
// is SAC's.
//
// # Invariants
//
//   - All samples come from the algorithm's random sources, saved with the
//     networks, log α, log α′, the optimizers and the counters: Load
//     continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen (the proposals' scratch is sized for the batch).
//
// # Decisions
//
//   - The log-sum-exp is over the 3N values of each observation, as in the
//     paper and the authors' code. Tianshou's CQL concatenates the three
//     proposals' values per repeated row (its reshape to [B, N] is not
//     assigned), so its log-sum-exp runs over 3 values per row and its mean
//     over B·N rows; that estimator is smaller by about log N.
//   - The uniform proposals are drawn on [−1, 1]ᵐ, the range of the
//     actor's raw actions, which is what the critics see (the buffer stores
//     raw actions; Config.Map scales them to the Box). Tianshou draws them
//     with uniform_(−min_action, max_action), which for a symmetric Box is
//     the single point max_action.
//   - The critics' step comes before the actor's, as in package sac, and the
//     targets are computed in Preprocess with the actor before the update;
//     Tianshou steps the actor first and computes the targets after. One
//     optimizer steps both critics, their gradients clipped together to
//     MaxGradNorm 1 (Tianshou clips each critic's own).
//   - Returns are n-step (NStep 1 by default: Tianshou's CQL bootstraps
//     after one step) and a truncated step bootstraps; Tianshou zeroes the
//     target at every done.
//   - Tianshou 2's CQL calibrates the values by the episodes' Monte-Carlo
//     returns by default (Cal-QL); that variant is not implemented.
//   - Datasets hold env actions (gorl collect's, D4RL's), and the policy's
//     raw actions are mapped as SAC's are (Config.Map: clipped and scaled to
//     the Box). Preprocess maps the data's actions back to raw ones, so that
//     the critics see them, the uniform proposals, the policy's samples and
//     the targets' next actions in one unit. Without that step the critics
//     read Pendulum's torque e ∈ [−2, 2] as the raw action e, which the
//     policy plays as 2e: the TD targets (the policy's next actions), the
//     penalty's proposals and the actor's step all valued other actions than
//     the data's, and CQL learned nothing on the learning matrix's Pendulum
//     data (best tests near an untrained policy's on 5 of 5 seeds), while it
//     learned from a SAC's samples stored as raw actions. The conservative
//     weight was not the cause: the preset's w = 10 meets the
//     matrix's bar once the units agree (LEARNING.md, "CQL on the matrix's
//     Pendulum data"). Tianshou's test turns action scaling off and bounds
//     the actor by max_action instead.
//   - The penalty's other parts were read against the paper and are
//     unchanged: 3N proposals per observation with their importance weights
//     (2ᵐ for the uniform ones, 1/π for the policy's), each critic's own
//     gap, and SAC's entropy term in the target (Tianshou's CQL keeps it).
//   - Continuous CQL refuses a Discrete action space: package discretecql
//     is CQL for those.
package cql
