// Package dqn implements deep Q-learning (Mnih et al., "Human-level control
// through deep reinforcement learning", 2015) with its common extensions, as
// an algo.OffPolicy algorithm, and Machin's DQN framework face.
//
// # Overview
//
// [New] builds a DQN from a [Config] and the env's spaces: a Q network (an
// MLP, optionally with a dueling head and small convolutions before it, or
// the Nature CNN for 84×84 images), a
// target network, Adam, and a policy.Q acting ε-greedily with the online
// network. [NewWithNetworks] takes the user's own networks. The update cycle
// (algo.Learner, or a trainer):
//
//   - Preprocess: n-step returns Gₜ = Σₖ₍ₘ γᵏrₜ₊ₖ + γᵐQ′(sₜ₊ₘ) over the buffer
//     (algo.QReturns over algo.NStep: windows stop at episode ends, terminated steps do not
//     bootstrap), with Q′ the target network's maximum, or with Double its
//     value of the online network's argmax (van Hasselt et al., 2016), or the
//     online network's maximum without a target network; stored as "returns".
//   - Update: one Adam step on mean(w·ℓ(G − Q(s, a))), ℓ squared or Huber, w
//     the importance weights of a prioritized buffer (1 otherwise); optional
//     gradient-norm clipping; then the target network is copied every
//     TargetUpdateFreq steps or moved by Polyak averaging with Tau.
//   - Postprocess: a prioritized buffer gets |G − Q(s, a)| as the new
//     priorities, and β follows its schedule.
//
// The ε schedule (EpsTrain → EpsTrainFinal over EpsDecaySteps env steps) is
// applied through algo.Scheduled, which the trainers call.
//
// Machin's modes map onto the options: vanilla (no target network),
// fixed_target (a target network, max over its values) and double (a target
// network valuing the online network's choice); see Config.ApplyMode. The
// [Machin] type is Machin's DQN face: StoreTransition, Update (sampling
// random_unique with concatenation and calling the networks with named
// inputs, nn.Caller), Criticize and Act.
//
// # Invariants
//
//   - The target network starts as a copy of the online network and has the
//     same parameter structure (checked by NewWithNetworks).
//   - An update cycle (sample, n-step returns with double-Q targets, update,
//     target update) allocates nothing in steady state (locked by an
//     AllocsPerRun test for the MLP; measured 0 for a dueling head with Huber
//     loss and soft updates too).
//   - Save writes every piece of state (networks, Adam's moments, the
//     policy's random source, counters), so Load into a DQN of the same
//     configuration continues bit for bit (tested).
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" as an array that is memory of the DQN,
// overwritten by the next Preprocess. The statistics map Update returns is
// reused. Network and Target return the networks themselves.
//
// # Decisions
//
//   - DefaultConfig is Tianshou's CartPole test (test/discrete/test_dqn.py),
//     the configuration of the speed comparison: four hidden layers of 128,
//     γ 0.9, 3-step returns, a hard target update every 320 steps, double Q,
//     MSE, lr 1e-3, ε 0.1 / 0.05.
//   - The target of step t uses the obs_next of the window's last step, read
//     with the buffer's TakeTo at those indices (so frame stacking and derived
//     obs_next work); when every window is one step long (n = 1) the sampled
//     batch's own obs_next is used and nothing is gathered.
//   - The hard update counts gradient steps and copies after every
//     TargetUpdateFreq-th, which is when Tianshou copies (at the start of the
//     next update).
//   - Prioritized replay weights the Huber loss too (Tianshou's
//     clip_loss_grad ignores the weights): the Huber function is written
//     elementwise as ½m² + δ(|d| − m), m = min(|d|, δ), which has the same
//     gradient, so weights apply to both losses.
//   - The cost of an update cycle is dominated by the matrix products,
//     Adam's step and ReLU, with this package's own work below a profile's
//     resolution (figures in docs/design.md). Trained with the CartPole
//     defaults (gorl bench dqn-cartpole) it meets its learning and speed
//     targets; BENCHMARKS.md has the medians.
//   - The online and target networks' passes on obs_next are independent
//     and can run on two workers, but they do so only when a pass is large
//     (the network's parameters times the batch's rows at least 2²⁴). With
//     the default network (four hidden layers of 128, batches of 64) a
//     two-worker run of the loop made 12% fewer env steps and updates a
//     second than the same run on one worker; keeping the passes on the
//     caller below the size closed the gap. The results are the same bits
//     either way.
package dqn
