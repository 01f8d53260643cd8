// Package fqf implements the fully parameterized quantile function (Yang
// et al., "Fully Parameterized Quantile Function for Distributional
// Reinforcement Learning", 2019), as Tianshou's FQF: IQN's quantile
// network evaluated at fractions that a second, proposal network chooses
// for each state, trained with its own optimizer and loss.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// CartPole test). The proposal network, a linear layer on the detached
// features ψ(s), gives p = softmax(logits) [N], the fractions τᵢ = p₁ + … +
// pᵢ and their midpoints τ̂ᵢ = τᵢ − pᵢ/2. Each update
//
//	Q(s, a) = Σᵢ pᵢ·Z(s, τ̂ᵢ)ₐ                           (acting and a′)
//	Gⱼ      = Σₖ γᵏ rₜ₊ₖ + γⁿ Z′(s′, τ̂′ⱼ)ₐ′                (Preprocess, τ̂′ proposed for s′)
//	ℓ       = (1/N) Σᵢ Σⱼ |τ̂ᵢ − 1{Gⱼ ≤ Zᵢ}|·Lκ(Gⱼ − Zᵢ)/κ     (Adam, the quantile network)
//	L_τ     = mean_b Σᵢ (∂W₁/∂τᵢ)·τᵢ − EntCoef·mean_b H(p)   (RMSprop, the proposal network)
//
// with ∂W₁/∂τᵢ from FractionGradTo; the quantile network's loss treats τ̂
// as constants and the proposal's loss the quantile values as constants.
// The rest is algo/quantile's Core.
//
// # Invariants
//
//   - Both networks, both optimizers' states, the policy's random source
//     and the counters are saved: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
//   - The policy's parameters are both networks' (a policy file holds the
//     proposal network, "fraction.…").
//
// # Aliasing
//
// Update's statistics map is the FQF's own, overwritten by the next update.
//
// # Decisions
//
//   - The cumulative sum of p is a product with a constant triangular
//     matrix (an existing op with its gradient), not a new tensor op: N is
//     tens.
//   - The quantiles at the inner fractions τ₁ … τ_{N−1} for ∂W₁/∂τ are one
//     more forward pass without gradients on the update's tape, as
//     Tianshou computes them.
//   - The signs of ∂W₁/∂τ's two differences follow Tianshou's handling of a
//     non-monotone quantile function.
package fqf
