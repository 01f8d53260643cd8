// Package ppo implements proximal policy optimization with the clipped
// objective (Schulman et al., "Proximal Policy Optimization Algorithms",
// 2017) as an algo.OnPolicy algorithm, for Discrete action spaces (a
// Categorical head) and Box action spaces (a Gaussian,
// actorcritic.NormalHead).
//
// # Overview
//
// [New] builds a [PPO] from a [Config] and the env's spaces: an actor and a
// critic (an actorcritic.Net), Adam, and a policy.Actor. [DefaultConfig] is the
// setting of Tianshou's CartPole test (a shared trunk), [ContinuousConfig]
// that of its Pendulum test (separate networks, a Normal head). Each update
// (algo.Learner.StepAll, driven by the on-policy trainer) is
//
//   - Preprocess: values, GAE advantages and returns as A2C computes them
//     (actorcritic.GAE), and the log-probabilities of the collected actions under
//     the current policy, stored as "v_s", "adv", "returns" and "logp_old";
//   - UpdateRepeat: repeat passes over shuffled minibatches, one step each on
//     the loss below.
//
// With r = π(a|s)/π_old(a|s) the loss is
//
//	L = −mean(min(rÂ, clip(r, 1 − ε, 1 + ε)Â)) + VFCoef·L_V − EntCoef·mean(H)
//
// with L_V = mean((G − V)²), and the options: the dual clip (for Â < 0 the
// objective is max(·, c·Â)), value clipping (L_V = mean(max((G − V)², (G −
// V_clip)²))), per-minibatch advantage normalization, recomputing
// advantages with the current critic before every pass after the first, an
// entropy bonus, gradient-norm clipping and a linear learning-rate decay.
//
// PPO embeds actorcritic.Critic: Policy, Schedule, Postprocess, Save, Load
// and the advantage estimation come from there.
//
// # Invariants
//
//   - An update allocates nothing once a collection of the same length and
//     observation structure has been seen, with every option on (locked by
//     AllocsPerRun tests for both heads).
//   - Save writes the networks, Adam's state (with the current learning
//     rate), the random sources and the counters; a loaded PPO continues bit
//     for bit, and a run resumed from the on-policy trainer's checkpoint
//     equals the uninterrupted one (tested on CartPole and Pendulum).
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "v_s", "returns", "adv" and "logp_old" in the batch as
// arrays that share the PPO's memory, overwritten by its next Preprocess or
// UpdateRepeat (with RecomputeAdvantage, UpdateRepeat rewrites "v_s",
// "returns" and "adv" in place). With RecomputeAdvantage, Preprocess keeps
// the buffer and a copy of the indices until the next Preprocess. The
// statistics map is reused between updates.
//
// # Decisions
//
//   - The speed run (DefaultConfig with Tianshou's CartPole trainer
//     settings: 20 envs, collections of 2,000 steps, 10 passes of
//     minibatches of 64, 100 deterministic test episodes, test-in-train, stop
//     at 195; gorl bench ppo-cartpole) solves CartPole on every seed in about
//     as many env steps as Tianshou, many times faster (BENCHMARKS.md and
//     docs/design.md have the figures and their commands). Some seeds pass
//     the test before training: the orthogonally initialized policy already
//     balances with its most likely actions, as it would in Tianshou, whose
//     trainer tests first too.
//   - The dual clip's mask of negative advantages is written into a tape
//     result (an AddScalar of the advantages, which carry no gradient) and
//     applied with Tape.Where, which passes no gradient to the mask.
//   - Advantage normalization uses the sample standard deviation (n − 1),
//     as torch's std does, plus 10⁻⁸; a minibatch of one transition gets
//     advantage 0 instead of Tianshou's NaN.
//   - The old log-probabilities come from a separate pass of the actor over
//     the collection rather than from the critic's pass on the shared
//     trunk: actorcritic.GAE stays one piece shared with A2C, at the price
//     of one more forward pass over the collection per update (a third of
//     Preprocess, a small part of an update).
package ppo
