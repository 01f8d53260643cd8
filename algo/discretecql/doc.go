// Package discretecql implements discrete conservative Q-learning (CQL;
// Kumar, Zhou, Tucker and Levine, "Conservative Q-Learning for Offline
// Reinforcement Learning", 2020) on a DQN's Q network, as an algo.OffPolicy
// algorithm for the offline trainer.
//
// # Overview
//
// [New] builds a [CQL] from a [Config] and the env's spaces: a Q network and
// a target network (MLPs), Adam, and an ε-greedy policy.Q. The update cycle
// (algo.Learner, or the trainer's offline loop over a buffer):
//
//   - Preprocess: n-step returns Gₜ = Σₖ₍ₘ γᵏrₜ₊ₖ + γᵐQ′(sₜ₊ₘ, argmaxₐ
//     Q(sₜ₊ₘ, a)) (algo.QReturns: windows stop at episode ends, terminated
//     steps do not bootstrap, truncated ones do), the double-DQN target.
//   - Update: one Adam step on Huber(Q(s, a) − G) + w·(mean log Σₐ′
//     exp Q(s, a′) − mean Q(s, a)), w = MinQWeight (algo.
//     ConservativePenalty); then the target network is copied every
//     TargetUpdateFreq steps or moved by Polyak averaging with Tau.
//   - Postprocess: nothing.
//
// The policy acts greedily; with exploration on it takes a uniformly random
// action with probability ε (Config.Eps, Tianshou's eps_test).
//
// # Invariants
//
//   - The target network starts as a copy of the Q network.
//   - An update cycle and acting allocate nothing in steady state (locked
//     by the package's tests).
//   - Save writes every piece of state (both networks, Adam's moments, the
//     policy's random source, the update counter), so Load into a CQL of the
//     same configuration continues bit for bit.
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" as an array that is memory of the CQL,
// overwritten by the next Preprocess. The statistics map Update returns is
// reused. Network and Target return the networks themselves.
//
// # Decisions
//
//   - Tianshou puts discrete CQL on QR-DQN (200 quantiles, the quantile
//     Huber loss, Q the mean of the quantiles). Here it sits on a DQN's Q
//     network: one value per action, the TD loss the Huber loss with δ = 1
//     (the smooth L1 that QR-DQN's quantile loss is built from), the
//     double-DQN target. The penalty is the same function of the Q-values
//     either way; moving to a quantile head changes only the TD term.
//   - The penalty is algo.ConservativePenalty, shared with CRR, which adds
//     the same term.
//   - DefaultConfig is Tianshou's CartPole test (test_discrete_cql.py):
//     hidden [64], lr 3e-3, γ 0.99, 3-step returns, a copy every 500 steps,
//     w = 10, ε 0.001; its offline trainer runs 5 epochs of 1,000 updates of
//     32 transitions with 100 test episodes after each.
//   - Importance weights of a prioritized buffer are not applied and
//     priorities are not updated: offline data is sampled uniformly.
package discretecql
