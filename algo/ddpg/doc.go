// Package ddpg implements deep deterministic policy gradient (Lillicrap et
// al., "Continuous control with deep reinforcement learning", 2016), as
// Tianshou's DDPG: a deterministic actor μ(s), a critic Q(s, a), target
// copies of both moved by Polyak averaging, exploration noise while
// collecting, and n-step returns.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// Pendulum test): the actor is an actorcritic.DeterministicActor, the critic
// an actorcritic.Critics of one. Each update
//
//	y     = Σₖ γᵏ rₜ₊ₖ + γⁿ Q′(sₜ₊ₙ, μ′(sₜ₊ₙ))      (Preprocess, algo.QReturns)
//	L_Q   = mean((Q(s, a) − y)²)                       (critic step)
//	L_μ   = −mean(Q(s, μ(s)))                         (actor step, with the new critic)
//	θ′   ← τθ + (1 − τ)θ′                             (both targets)
//
// The policy is a policy.Deterministic: the actor's raw action plus noise
// while collecting training data, mapped to the Box by clipping to [−1, 1]
// and scaling by default. The buffer stores the raw action.
//
// # Invariants
//
//   - Save writes the actor, the critic, their targets, both optimizers,
//     the policy's random source and the counters: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
package ddpg
