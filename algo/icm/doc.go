// Package icm is the intrinsic curiosity module (Pathak et al.,
// "Curiosity-driven Exploration by Self-supervised Prediction", 2017),
// Tianshou's ICMOffPolicyWrapper: it wraps an off-policy algorithm with
// Discrete actions (DQN and its relatives) and adds to every reward the
// module's surprise at the transition.
//
// # Overview
//
// A feature net φ embeds observations; a forward model predicts φ(s′) from
// φ(s) and the one-hot action, an inverse model predicts the action from
// φ(s) and φ(s′). For a transition
//
//	ℓ_F = ½‖f(φ(s), a) − φ(s′)‖²,    r_int = η·ℓ_F,
//	ℓ_I = cross-entropy(g(φ(s), φ(s′)), a),
//	L   = ((1 − β)·mean ℓ_I + β·mean ℓ_F)·LRScale,
//
// with η = RewardScale and β = ForwardLossWeight. Options beyond
// Tianshou's: ObsNorm maps bounded observations onto [−1, 1] before φ,
// RewardNorm divides ℓ_F by its running mean, RewardClip caps r_int, and
// η can be annealed over env steps (RewardScaleFinal,
// RewardScaleDecaySteps, through Schedule). Preprocess gives the
// wrapped algorithm a view of the buffer whose rewards carry r_int, Update
// runs the wrapped update and then one Adam step of the module on L, and
// the statistics add "icm/loss", "icm/forward" (mean ℓ_F), "icm/inverse"
// (mean ℓ_I) and "icm/reward" (the mean intrinsic reward of the sampled
// transitions) to the wrapped algorithm's.
//
// # Invariants
//
// The buffer's stored rewards are never changed. The module's networks,
// its optimizer and the wrapped algorithm's whole state are saved together:
// a resumed run equals the uninterrupted one. Once a batch size has been
// seen, an update allocates nothing beyond what the wrapped algorithm does.
//
// # Aliasing
//
// The statistics map is owned by the ICM and overwritten by the next
// Update.
//
// # Decisions
//
//   - The bonus reaches n-step targets. Tianshou adds r_int to the sampled
//     batch's rewards, but its n-step returns read the buffer's, so with
//     n > 1 the bonus is lost there. Here the module also evaluates the
//     later steps of every n-step window (NStep, the wrapped algorithm's
//     horizon) and the view shows r_int on all of them.
//   - φ(s′) is not detached in ℓ_F, as in Tianshou: the feature net learns
//     from both losses.
//   - ObsNorm, RewardNorm and RewardClip are what made DQN + ICM solve
//     MountainCar-v0 where DQN alone does not (LEARNING.md). On raw
//     MountainCar observations (position spanning 1.8, velocity 0.14) the
//     forward error hardly sees the velocity, which is what the car must
//     build up. Mapped onto [−1, 1] with a fixed η, the bonus followed the
//     drifting features: batches of 16–85 a step against the env's −1,
//     after which the Q-values and the greedy policy collapsed. Dividing
//     ℓ_F by its running mean ties the bonus to η whatever the features'
//     scale (0.1–0.5 a step at η 0.5), and the cap bounds what is left of
//     a spike. The running mean is part of the saved state, so a resumed
//     run equals the uninterrupted one; modules without RewardNorm keep
//     the earlier state layout.
//   - The η schedule was tried on MountainCar (η 100 on normalised
//     observations, annealed to 0 by 30k env steps) and did not help: on
//     seed 0 the best test return was −114.2, against −111.8 without it.
//     It stays for runs where a bonus should not outlast exploration.
//   - Tianshou's test settings, icm-dqn's registered defaults, do not
//     learn Acrobot-v1, and no bug was found: their DQN discounts by 0.9,
//     so with −1 a step every state more than about 30 steps from the goal
//     is worth nearly −10 whatever the action, and the greedy policy there
//     leaves the arm hanging. A discount of 0.99 learns it (LEARNING.md).
//   - Preprocess evaluates only the forward model: the bonus needs ℓ_F,
//     not the inverse model's logits.
//   - LRScale multiplies the loss, as Tianshou's lr_scale does; under
//     Adam, whose steps hardly depend on the gradient's scale, it changes
//     little, and is kept for equal settings.
package icm
