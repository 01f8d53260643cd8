// Package qrdqn implements quantile regression DQN (Dabney et al.,
// "Distributional Reinforcement Learning with Quantile Regression", 2018),
// as Tianshou's QRDQN: DQN whose network gives N quantiles of each action's
// return distribution instead of its mean.
//
// # Overview
//
// [New] builds the network from a [Config] ([DefaultConfig] is Tianshou's
// CartPole test). [Net] maps an observation to the quantile values
// Z(s)ⱼₐ [k, N, A] at the fixed fractions τ̂ⱼ = (2j + 1)/(2N); the policy acts
// ε-greedily on Q(s, a) = mean_j Z(s)ⱼₐ. Each update
//
//	a′     = argmaxₐ mean_j Z(s′)ⱼₐ           (online network with Double, else the target)
//	Gⱼ     = Σₖ γᵏ rₜ₊ₖ + γⁿ Z′(s′)ⱼₐ′           (Preprocess: returns [B, N])
//	ℓ      = (1/N) Σᵢ Σⱼ |τ̂ᵢ − 1{Gⱼ ≤ Zᵢ}|·Lκ(Gⱼ − Zᵢ)/κ   (Zᵢ = Z(s)ᵢₐ, tensor.Tape.QuantileHuber)
//	L      = mean_b wᵇ·ℓᵇ                       (w: prioritized replay's weights, else 1)
//
// and the target network is copied every TargetUpdateFreq steps or moved by
// Polyak averaging. Prioritized replay gets each transition's ℓ.
//
// Everything but the network and the loss (ε and β schedules, returns,
// the gradient step, priorities, saved state) is algo/quantile's Core,
// shared with IQN and FQF; [Net] and [Fractions] are exported for the
// algorithms that build on QR-DQN's network and loss.
//
// # Invariants
//
//   - The networks, Adam's state, the policy's random source and the
//     counters are saved: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
//
// # Aliasing
//
// Update's statistics map is the QRDQN's own, overwritten by the next
// update. Preprocess stores returns in memory reused by the next call.
//
// # Decisions
//
//   - The loss reduces as Tianshou's does (a sum over target quantiles and
//     a mean over the predicted ones; SB3-contrib's sums over the predicted
//     ones and averages over the targets: equal for the N × N case here).
//   - Double Q-learning is on by default, as Tianshou's QR-DQN picks the
//     next action with the online network; the rl-zoo presets turn it off,
//     as SB3-contrib's picks it with the target network.
//   - Tianshou's test holds ε at 0.1 for 10,000 env steps and then lowers
//     it; the defaults keep 0.1, since CartPole is solved near 10,000 steps.
package qrdqn
