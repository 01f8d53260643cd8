// Package pg implements REINFORCE, the vanilla policy gradient (Williams,
// "Simple Statistical Gradient-Following Algorithms for Connectionist
// Reinforcement Learning", 1992), as an algo.OnPolicy algorithm, and the
// pieces the on-policy algorithms of gorl share: A2C (package a2c) and PPO
// (package ppo) are built on them.
//
// # Overview
//
// [New] builds a [PG] from a [Config] and the env's spaces. Each update
// (algo.Learner.StepAll, driven by the on-policy trainer) is
//
//   - Preprocess: the discounted returns Gₜ = Σₖ γᵏrₜ₊ₖ of the collection
//     (algo.Episodic with λ = 1), optionally standardized by running
//     statistics, stored as "returns";
//   - UpdateRepeat: passes over shuffled minibatches, one Adam step each on
//     −mean(log π(aₜ|sₜ)·Gₜ).
//
// The shared pieces:
//
//   - [Net]: the networks, a trunk reading the observations (named inputs),
//     an actor layer to the head's input, and optionally a critic layer to
//     the state value; with a shared trunk one pass serves both heads
//     (DistValue). [NewNet] builds MLPs from a [NetConfig], [NewNetFrom]
//     takes the user's layers.
//   - [NormalHead]: a diagonal Gaussian over Box actions with a
//     state-independent, trained log σ, the continuous counterpart of
//     policy.CategoricalHead; NewNet picks it for a Box action space.
//   - [Rollout]: a collection as tensors, with Tianshou's shuffled
//     minibatches (split with merge_last) gathered on the tape.
//   - [RunningMeanStd]: running statistics of returns.
//   - [Optimizer] and [Training]: Adam with gradient-norm clipping and a
//     linear learning-rate decay over env steps (algo.Scheduled).
//   - [Base]: the state of an on-policy algorithm (networks, optimizer,
//     actor policy, random sources, [Counters], update scratch) with the
//     methods the algorithms share: Policy, Schedule, Postprocess, Save and
//     Load. PG, a2c.A2C and ppo.PPO embed it.
//
// The policy is a policy.Actor acting with the trunk and the actor layer:
// it samples while the training-step flag is on and, with
// DeterministicEval (the default here), takes the most likely action when
// testing. Box actions are mapped by policy.BoxMap (clipped to [−1, 1] and
// scaled to the bounds by default).
//
// # Invariants
//
//   - A Discrete action a is the category a − start of the space; the buffer
//     keeps the env's values. Actions outside the space, missing keys and
//     observations that are not numeric arrays are errors of Load,
//     Preprocess and UpdateRepeat, returned before any parameter changes.
//     A distribution that becomes NaN (a diverged network) stops an update
//     with an error after the steps already taken.
//   - An update (Preprocess and UpdateRepeat) allocates nothing once a
//     collection of the same length and observation structure has been seen
//     (locked by AllocsPerRun tests for both heads): the Rollout, the
//     columns, the tape and the distribution are reused.
//   - All randomness comes from two sources seeded from the constructor's
//     rng: the policy's samples and the minibatches' order. Save writes
//     them with the networks, Adam's state and the Counters, so a loaded
//     algorithm continues bit for bit (tested, also through the trainer's
//     checkpoints).
//   - Returns and statistics are accumulated in float64 and stored as
//     float32, the networks' precision.
//
// # Aliasing
//
// Preprocess stores "returns" in the batch as an array that is memory of the
// PG, overwritten by the next Preprocess. Rollout.Store puts arrays sharing
// the Rollout's columns into a batch, and Rollout.ObsRows returns a batch of
// the Rollout overwritten by its next call; Column tensors keep their memory
// while the collection's length stays the same. Net's forward methods return
// a distribution that is memory of the Net, reset by the next call, and
// tensors of the caller's tape. The statistics maps are reused between
// updates. Base's fields are the algorithm's own objects.
//
// # Decisions
//
//   - Return standardization follows Tianshou's Reinforce: the returns are
//     standardized with the running statistics of all earlier collections
//     (not of the collection itself), then added to them, and episodes cut
//     off by truncation or by the end of a collection bootstrap from the
//     running mean. With the statistics starting at mean 0 and variance 1,
//     the first collection is not rescaled.
//   - Minibatches are Tianshou's Batch.split(size, shuffle=True,
//     merge_last=True): ⌊N/size⌋ minibatches, the remainder joining the last
//     one (2,000 transitions in minibatches of 64: 30 of 64 and one of 80).
//     Tianshou's loop also merges the last two full minibatches when size
//     divides N exactly (its test is idx + 2·size ≥ N); that quirk is not
//     reproduced.
//   - A minibatch is gathered on the tape (Tape.IndexSelect) from tensors
//     holding the whole collection, filled once per update, rather than by
//     Batch.Split: a split copies the batch and yields nd arrays, which
//     nn.Caller converts into a new tensor whenever the array changes, so
//     every minibatch would allocate. The copy of the observations into the
//     Rollout costs one pass over them per update (2,000 × 4 floats for
//     CartPole).
//   - The networks are a trunk and two layers rather than a policy.Actor
//     network plus a separate critic network: with Tianshou's shared trunk
//     the features are computed once per minibatch for both heads. Measured
//     on the speed run's update (2,000 transitions, 10 passes of minibatches
//     of 64, OpenBLAS): 30–32 ms of CPU time with the shared trunk of
//     4→64→64, 53–57 ms with separate actor and critic MLPs of the same
//     sizes.
//   - NormalHead lives here because package policy offers only
//     CategoricalHead; it is a policy.Head and would move there unchanged.
//   - Deterministic evaluation is the default of all three algorithms
//     (Tianshou's PPO test sets it, its REINFORCE and A2C tests do not): a
//     test of the most likely actions measures what the policy learned, not
//     its exploration noise.
//   - The learning-rate decay counts env steps (the argument of Schedule,
//     which the trainers call) rather than updates as Tianshou's LambdaLR
//     does: a resumed run gets the same rate from the same counter, and the
//     length reads in the same unit as the trainer's StepPerEpoch.
//   - The critic and the old log-probabilities are evaluated over the whole
//     collection in one pass (Tianshou splits it into chunks of 256): the
//     tape's memory for one pass over 2,000 CartPole transitions is a few
//     hundred kilobytes.
package pg
