// Package bcqc implements batch-constrained deep Q-learning for continuous
// actions (Fujimoto, Meger and Precup, "Off-Policy Deep Reinforcement
// Learning without Exploration", 2019), as Tianshou's BCQ: an offline
// algorithm that only takes actions close to those of the dataset.
//
// # Overview
//
// [New] builds four parts from a [Config] ([DefaultConfig] is Tianshou's
// Pendulum test):
//
//   - a [VAE], the generative model G of the behaviour policy: encoder (s,
//     a) → N(μ, σ²), decoder (s, z) → max_action·tanh(…), trained on
//     ‖G(s, z) − a‖² + ½·KL(N(μ, σ²) ‖ N(0, 1)) ([VAELoss]);
//
//   - the perturbation actor Φ ([Perturbation]): a + φ·max_action·tanh(…),
//     clamped to ±max_action, trained to maximize Q₁(s, Φ(s, G(s)));
//
//   - twin critics Q₁, Q₂ (actorcritic.Critics) trained towards
//
//     y = r + γ·(1 − terminated)·maxⱼ [λ·min(Q′₁, Q′₂) + (1 − λ)·max(Q′₁, Q′₂)](s′, Φ′(s′, G(s′, zⱼ)))
//
//     over num_sampled_action latents zⱼ ([TargetValuesTo]);
//
//   - targets Φ′, Q′₁, Q′₂, moved by Polyak steps of τ after each update.
//
// Latents drawn without an action are N(0, 1) clamped to ±0.5. The policy
// decodes forward_sampled_times actions per observation, perturbs them and
// takes the one of largest Q₁. Actions are in the env's units (max_action
// the space's bound, no action map), the form datasets store.
//
// # Invariants
//
//   - All randomness (the VAE's noise, the latents of the targets, of Φ's
//     step and of the policy) comes from two sources seeded from New's rng
//     and saved with the networks, the three optimizers and the counters:
//     Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen; acting allocates nothing once as many observations were seen.
//
// # Decisions
//
//   - A package of its own rather than a mode of package bcq: the discrete
//     BCQ (a Q-network with an imitation head and a threshold on its
//     probabilities) shares no network, loss or policy with this one. gorl
//     train names it bcq-continuous.
//   - The target perturbs the decoded next actions with Φ′, as the paper
//     does; Tianshou's BCQ evaluates the decoded actions unperturbed and
//     keeps Φ′ unused.
//   - Episodes end for the target at termination only (no bootstrap after
//     a terminal step, a bootstrap after a truncated one), gorl's rule for
//     every algorithm; Tianshou's BCQ stops at done, truncation included.
//   - One Adam over both critics (actorcritic.Critics): their losses are
//     separate sums, so each critic steps as under an Adam of its own.
package bcqc
