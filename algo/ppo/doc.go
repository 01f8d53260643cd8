// Package ppo implements proximal policy optimization with the clipped
// objective (Schulman et al., "Proximal Policy Optimization Algorithms",
// 2017) as an algo.OnPolicy algorithm, for Discrete action spaces (a
// Categorical head) and Box action spaces (a Gaussian, pg.NormalHead).
//
// # Overview
//
// [New] builds a [PPO] from a [Config] and the env's spaces: an actor and a
// critic (a pg.Net), Adam, and a policy.Actor. [DefaultConfig] is the
// setting of Tianshou's CartPole test (a shared trunk), [ContinuousConfig]
// that of its Pendulum test (separate networks, a Normal head). Each update
// (algo.Learner.StepAll, driven by the on-policy trainer) is
//
//   - Preprocess: values, GAE advantages and returns as A2C computes them
//     (a2c.GAE), and the log-probabilities of the collected actions under
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
// PPO embeds pg.Base: Policy, Schedule, Postprocess, Save and Load come from
// there.
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
//     at 195; gorl bench ppo-cartpole) solved CartPole on 10 of 10 seeds in
//     14k–24k env steps (median 17k; Tianshou ~18k). On this 2-vCPU machine
//     kind with OpenBLAS the median over 10 seeds was 0.29 s of wall time and
//     0.27 s of CPU time per seed (Tianshou 7.2 s: 24×); with gonum's pure-Go
//     BLAS 0.81 s over 5 seeds (8.8×). Under heavy load from other processes
//     the same runs took 0.59 s and 1.29 s of wall time. One seed (2) passes
//     the test before training: the orthogonally initialized policy already
//     balances with its most likely actions, as it would in Tianshou, whose
//     trainer tests first too; without it the median is 0.30 s.
//   - One update of the speed run costs 30 ms of CPU time with OpenBLAS
//     (85 ms with gonum), about 97 µs per minibatch step: Adam's step over
//     the 4,675 parameters takes a quarter, the matrix products a fifth,
//     ReLU's forward pass a tenth, gradient clipping 7%; Preprocess (three
//     passes over the collection) 7%. The update does not allocate.
//   - The dual clip's mask of negative advantages is written into a tape
//     result (an AddScalar of the advantages, which carry no gradient) and
//     applied with Tape.Where, which passes no gradient to the mask.
//   - Advantage normalization uses the sample standard deviation (n − 1),
//     as torch's std does, plus 10⁻⁸; a minibatch of one transition gets
//     advantage 0 instead of Tianshou's NaN.
//   - The old log-probabilities come from a separate pass of the actor over
//     the collection rather than from the critic's pass on the shared
//     trunk: a2c.GAE stays one piece shared with A2C, at the price of one
//     more forward pass over the collection per update (a third of
//     Preprocess, about 2% of an update).
package ppo
