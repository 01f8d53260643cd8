// Package gail is generative adversarial imitation learning (Ho and Ermon,
// "Generative Adversarial Imitation Learning", 2016), Tianshou's GAIL: a
// discriminator D(s, a) learns to tell the expert's transitions from the
// policy's, and the policy is optimized by PPO (package ppo, composed, not
// copied) on the reward the discriminator gives instead of the env's.
//
// # Overview
//
// With the discriminator's logit d(s, a) and D = σ(d) the probability that
// a transition is the expert's,
//
//	r(s, a)  = −log(1 − D(s, a)) = softplus(d(s, a))
//	L_D      = mean_π softplus(d) + mean_E softplus(−d)
//
// Preprocess replaces the rewards of the collection with r (through a view
// of the buffer; the stored rewards stay) before PPO's GAE; UpdateRepeat
// first takes DiscUpdateNum Adam steps of D, each on a shuffled share of
// the collection against as many transitions sampled from the expert
// buffer, then runs PPO's update. The statistics add "disc/loss" (L_D),
// "disc/acc_pi" and "disc/acc_exp" (the shares of policy and expert
// transitions D classifies right) and "disc/reward" (the mean of r) to
// PPO's, each a mean over the steps.
//
// D's input is the observation (a Box of one axis) concatenated with the
// action: the stored action of a Box space, the one-hot action of a
// Discrete one. The expert buffer must hold actions in the same form as the
// training buffer, as two collectors of the same kind of policy store them.
//
// # Invariants
//
// The discriminator, its Adam state and the random source of the expert
// samples are saved with PPO's state: a resumed run equals the
// uninterrupted one. A steady state of equal collections allocates nothing.
//
// # Aliasing
//
// The statistics map is owned by the GAIL and overwritten by the next call.
//
// # Decisions
//
//   - A view of the buffer instead of rewriting it: the expert and training
//     data stay what was collected, and gorl's GAE reads rewards from the
//     buffer (Tianshou's from the batch).
//   - One-hot actions for Discrete spaces: Tianshou concatenates the raw
//     action, which for a Discrete space is an index; a one-hot vector lets
//     D treat actions as categories.
package gail
