// Package td3bc implements TD3+BC (Fujimoto and Gu, "A Minimalist Approach
// to Offline Reinforcement Learning", 2021), as Tianshou's TD3BC: TD3
// trained from a fixed dataset, whose actor also clones the dataset's
// actions.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// Pendulum test). The critics' update is TD3's (n-step returns with the
// minimum of the twin target critics at the smoothed target action); every
// UpdateActorFreq-th update the actor minimizes
//
//	λ    = α / mean |Q₁(s, μ(s))|          (a number: no gradient flows through it)
//	L_μ  = −λ·mean Q₁(s, μ(s)) + mean (μ(s) − a)²
//
// with a the dataset's action ([Loss]), then the targets take a Polyak step.
// λ makes the Q term's scale independent of the return's. With
// NormalizeObs, observations are standardized by the dataset's mean and
// standard deviation (plus 10⁻³), computed once over the whole buffer at
// the first Preprocess, before the actor, the critics and the policy see
// them.
//
// The policy is a policy.Deterministic acting in the env's units: μ(s) =
// max_action·tanh(MLP(s)), and datasets hold env actions (see gorl collect).
//
// # Invariants
//
//   - The smoothing noise comes from the TD3+BC's own random source, saved
//     with the networks, the optimizers, the normalization, the policy's
//     source and the counters: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
//
// # Decisions
//
//   - TD3+BC is actorcritic.Deterministic (DDPG's and TD3's state) with its
//     actor loss in the ActorLoss hook and the normalization in
//     actorcritic.ObsNorm, not a copy of TD3: the pieces it shares with TD3
//     (smoothing, delayed updates) are the shared ones.
//   - The normalization statistics are taken at the first Preprocess, the
//     first moment the algorithm sees its buffer, so that the command line
//     and the Go API need no extra step; they are saved in the state and in
//     the policy's parameters (a policy file normalizes as the run did).
package td3bc
