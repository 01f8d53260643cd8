// Package td3 implements twin delayed DDPG (Fujimoto et al., "Addressing
// Function Approximation Error in Actor-Critic Methods", 2018), as
// Tianshou's TD3: DDPG with twin critics and the minimum of their targets,
// target policy smoothing, and delayed actor and target updates.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// Pendulum test). Each update
//
//	ã′    = μ′(s′) + clip(σ̃·ε, −c, c),  ε ~ N(0, 1)          (smoothing)
//	y     = Σₖ γᵏ rₜ₊ₖ + γⁿ minᵢ Q′ᵢ(s′, ã′)                  (Preprocess)
//	L_Q   = Σᵢ mean((Qᵢ(s, a) − y)²)                          (every update)
//	L_μ   = −mean(Q₁(s, μ(s)))                                (every UpdateActorFreq-th)
//	θ′   ← τθ + (1 − τ)θ′                                    (with the actor step)
//
// with s′ the observation n steps later. The first update steps the actor
// (Tianshou counts from 0). The policy is a policy.Deterministic, as DDPG's.
//
// # Invariants
//
//   - The smoothing noise comes from the TD3's own random source, saved with
//     the networks, the optimizers, the policy's source and the counters:
//     Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
package td3
