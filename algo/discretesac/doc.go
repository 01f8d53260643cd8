// Package discretesac implements soft actor-critic for discrete actions
// (Christodoulou, "Soft Actor-Critic for Discrete Action Settings", 2019),
// as Tianshou's DiscreteSAC: a categorical actor, twin critics giving the
// values of all actions at once with target copies, and an entropy
// temperature α, fixed or tuned towards a fraction of the uniform
// policy's entropy log|A|.
//
// # Overview
//
// [New] builds the networks from a [Config] ([DefaultConfig] is Tianshou's
// CartPole test). With π(·|s) = softmax(actor(s)) and H its entropy, each
// update
//
//	y     = Σₖ γᵏ rₜ₊ₖ + γⁿ (Σₐ π(a|s′)·minᵢ Q′ᵢ(s′, a) + α·H(s′))   (Preprocess)
//	L_Q   = Σᵢ mean((Qᵢ(s, a) − y)²)
//	L_π   = mean(Σₐ π(a|s)·(α·log π(a|s) − minᵢ Qᵢ(s, a)))         (the new critics, held)
//	L_α   = −log α · mean(−H(s) + H̄),  H̄ = TargetEntropyRatio·log|A|  (AutoAlpha)
//	θ′   ← τθ + (1 − τ)θ′                                       (the critics' targets)
//
// The expectations over actions are exact sums, so the update draws no
// random numbers. The policy is a policy.Actor over a Categorical: it
// samples while collecting training data and takes the most probable
// action otherwise (DeterministicEval).
//
// # Invariants
//
//   - The networks, α, the optimizers, the policy's random source and the
//     counters are saved: Load continues exactly.
//   - An update allocates nothing once a batch of the same size has been
//     seen.
//
// # Decisions
//
//   - Config.Hold and HoldEps add εz-greedy random actions (policy.Hold) to
//     the training collection, in a wrapper of the actor's policy that
//     tests do not use: the soft policy alone stays near uniform on
//     MountainCar, whose flag actions drawn at every step never reach, so
//     its critics only ever see −1 per step. Held random actions reach it
//     in some episodes from the start, and the off-policy critics learn
//     from them whatever policy chose them (LEARNING.md). Acrobot-v1 needs
//     them too: with a discount of 0.99 alone, on some seeds no training
//     episode swings the arm up within its 500 steps.
//   - One Adam over both critics, as actorcritic.Critics does for the
//     continuous ones: their losses are separate sums, so it steps each as
//     Tianshou's optimizer per critic would. The critics are MLPs to |A|
//     values, not actorcritic.QCritics of (s, a), so the two are held here.
//   - The α loss uses the exact entropy H(s) where SAC uses −log π of a
//     sample, as Tianshou does.
//   - Masked envs (env.NewMasked): the networks read "obs.obs" and the
//     actor's logits are masked (policy.Mask) when acting, in the update
//     and at obs_next, so π, its entropy and the soft value cover the
//     allowed actions only; the actor's loss is written as
//     −α·H − Σₐ π·Q so that forbidden actions add 0 rather than 0·(−Inf).
package discretesac
