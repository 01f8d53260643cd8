// Package iqn implements implicit quantile networks (Dabney et al.,
// "Implicit Quantile Networks for Distributional Reinforcement Learning",
// 2018), as Tianshou's IQN: a network that takes a fraction τ with the state
// and returns the τ-quantile of each action's return, trained on sampled
// fractions.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// CartPole test). The network is quantile.ImplicitNet: Z(s, τ) =
// head(ψ(s) ⊙ ReLU(W·cos(π·i·τ) + b)), i = 1 … 64. Each update draws
// fractions τ ~ U(0, 1):
//
//	a′   = argmaxₐ mean_k Z(s′, τₖ)ₐ, K = OnlineSampleSize   (online network with Double)
//	Gⱼ   = Σₖ γᵏ rₜ₊ₖ + γⁿ Z′(s′, τ′ⱼ)ₐ′, j < TargetSampleSize (Preprocess)
//	ℓ    = (1/K) Σᵢ Σⱼ |τᵢ − 1{Gⱼ ≤ Zᵢ}|·Lκ(Gⱼ − Zᵢ)/κ, Zᵢ = Z(s, τᵢ)ₐ, i < OnlineSampleSize
//
// and the rest is algo/quantile's Core (as QR-DQN's). The policy acts
// ε-greedily on the mean over OnlineSampleSize sampled fractions while
// collecting and SampleSize while testing.
//
// # Invariants
//
//   - The networks, Adam's state, the fractions' and the policy's random
//     sources and the counters are saved: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
//
// # Aliasing
//
// Update's statistics map is the IQN's own, overwritten by the next update.
//
// # Decisions
//
//   - Fractions come from the IQN's own random source, saved with it, so
//     that acting, targets and updates draw them reproducibly; acting
//     draws from it too, so the test episodes' fractions are part of a
//     run's random stream.
//   - The cosine features count i from 1, as Tianshou does (the paper
//     counts from 0; i = 0 is a constant feature the bias already gives).
//   - The sample sizes follow the policy's training-step flag as Tianshou's
//     follow the module's training mode.
package iqn
