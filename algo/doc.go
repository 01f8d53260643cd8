// Package algo defines what a learning algorithm is (Tianshou's Algorithm),
// and holds the return computations every algorithm shares: n-step returns
// over a replay buffer and episodic returns with generalized advantage
// estimation. Each algorithm lives in a package of its own below this one
// (algo/dqn, algo/ppo, …).
//
// # Overview
//
// An [Algorithm] owns a policy (package policy) and everything that changes
// it: optimizers, target networks, counters, random sources. Its update
// cycle on transitions sampled from a buffer is Preprocess (returns,
// advantages), an update, and Postprocess (priorities back to a prioritized
// buffer). [OffPolicy] algorithms make one gradient step per sampled batch
// (DQN; offline algorithms too, from a fixed buffer), [OnPolicy] ones learn
// from a whole collection in minibatches over several passes (PG, A2C, PPO).
// A [Learner] runs the cycle on a buffer (Tianshou's algorithm.update); the
// trainers (package trainer) drive it. Algorithms whose hyperparameters
// follow the number of env steps implement [Scheduled].
//
// Return kernels:
//
//   - [GAETo]: Âₜ = δₜ + γλ(1 − endₜ)Âₜ₊₁ with δₜ = rₜ + γV′ₜ − Vₜ over a
//     sequence, with explicit terminated and end flags.
//   - [Episodic]: GAE and returns over transitions of a buffer listed in time
//     order, end flags read from the buffer (Tianshou's
//     compute_episodic_return).
//   - [NStep]: Gₜ = Σₖ₍ₘ γᵏrₜ₊ₖ + γᵐQ′ over the buffer, in two phases
//     around the target network: Windows (where to evaluate the target) and
//     ReturnsTo (Tianshou's compute_nstep_return).
//
// Pieces of the Q-learning algorithms (DQN, BCQ; BC reads its actions with
// DiscreteActions too):
//
//   - [QReturns]: Preprocess's n-step returns, NStep's two phases around the
//     algorithm's target function, stored in the batch as "returns".
//   - [DiscreteActions]: the logged actions of a Discrete space as category
//     indices, checked against the space.
//   - [UpdateTarget]: the target network's hard update every freq steps or
//     Polyak step.
//
// Saved state: [SaveParts] and [LoadParts] write and read a checksummed
// container of named [Part]s (networks with [ParamsPart], random sources with
// [BinaryPart], counters with [JSONPart], optimizers with their own Save and
// Load), the format of every algorithm's Save and of the trainers'
// checkpoints.
//
// # Invariants
//
//   - Returns stop accumulating at the end of an episode. A terminated step
//     does not bootstrap (its next value is 0); a truncated step, and the
//     newest step of an unfinished episode, bootstrap from the value of their
//     obs_next without chaining into the next stored step. Windows and
//     stretches follow the buffer's Next, so they stay within one sub-buffer
//     of a vector buffer and continue across the ring boundary.
//   - Kernels do not allocate once their scratch has grown (GAETo never;
//     Episodic and NStep keep theirs between calls), locked by AllocsPerRun
//     tests. Sums are accumulated in float64 and stored as float32, the
//     networks' precision.
//   - Mismatched lengths and invalid arguments are programmer errors: the
//     kernels panic with an *Error wrapping ErrShape or ErrValue. Corrupt
//     saved states are errors wrapping ErrState.
//
// # Aliasing
//
// NStep.Windows returns scratch memory of the NStep, valid until its next
// call; so does DiscreteActions.Read. QReturns stores its own array under
// "returns" in the batch, overwritten by its next call. The kernels read the buffer's reward and flag views (buffer.Rew,
// Terminated, Done) and write only into the caller's slices. A Learner
// keeps the sampled batch; the batch an algorithm's Preprocess, update and
// Postprocess receive is that memory, reused by the next step.
//
// # Decisions
//
//   - GAE's backward recurrence is a chain of dependent multiply-adds. The
//     kernel takes four steps at a time, Âₜ₋₃ = P + Q·Âₜ₊₁ with P and Q
//     computed off the chain, which leaves one multiply-add on it per four
//     steps and cut the kernel's time by about a third (BenchmarkGAE;
//     BENCHMARKS.md compares it with Tianshou). Results equal the
//     step-by-step recurrence to float64 rounding (checked against Tianshou's
//     numpy formulation).
//   - The episode-end flags of Episodic come from the buffer's Next, not only
//     from done and the unfinished index as in Tianshou: a list of indices
//     that skips a step then breaks the stretch there instead of chaining two
//     unrelated steps, and sub-buffer boundaries need no special case.
//   - NStep walks forward from each index (one NextTo per step of the
//     window, stopping early when no window moves) and keeps the discounted
//     sum and γᵐ per window, instead of stacking n index rows and walking
//     back as Tianshou does: the same result with two small slices of
//     scratch, and no index matrix to build (BenchmarkNStep).
//   - The Q-learning algorithms share their n-step preprocessing, action
//     reading and target update here rather than each keeping a copy: the
//     algorithm passes its target computation to QReturns as a function,
//     which costs no allocation (the function value does not escape; the
//     algorithms' zero-allocation update tests cover it).
//   - The target Q-values are a single number per transition; distributional
//     targets (C51) would need a vector per transition and are not supported.
//   - Saved states are a container of parts rather than one format per
//     algorithm: networks and optimizers already save themselves (safetensors),
//     so an algorithm lists its parts and the container adds names, framing
//     and CRC-32C checksums. Parts are written in chunks of at most 1 MiB, so
//     a large part (a replay buffer in a checkpoint) streams out; on reading,
//     each part is checked before its Load sees a byte, and memory grows only
//     with bytes actually read.
//   - Update statistics are map[string]float64, the logger's type, owned by
//     the algorithm and reused between updates, so logging them costs no
//     conversion and updating no allocation.
package algo
