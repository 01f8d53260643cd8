// Package discretecql implements discrete conservative Q-learning (CQL;
// Kumar, Zhou, Tucker and Levine, "Conservative Q-Learning for Offline
// Reinforcement Learning", 2020) on QR-DQN, as Tianshou's DiscreteCQLPolicy
// does, as an algo.OffPolicy algorithm for the offline trainer.
//
// # Overview
//
// [New] builds a [CQL] from a [Config] and the env's spaces: a qrdqn.QRDQN
// (quantile network, target network, Adam and an ε-greedy policy.Q on the
// quantiles' means, all on the shared quantile.Core) and the penalty's
// weight. The update cycle (algo.Learner, or the trainer's offline loop
// over a buffer):
//
//   - Preprocess: QR-DQN's n-step distributional targets, Gⱼ = Σₖ₍ₘ
//     γᵏrₜ₊ₖ plus γᵐZ′(sₜ₊ₘ)ⱼₐ′, a′ the online network's greedy action
//     (double Q-learning).
//   - Update: one Adam step on QR-DQN's quantile Huber loss + w·(mean log
//     Σₐ′ exp Q(s, a′) − mean Q(s, a)), Q the quantiles' means and w =
//     MinQWeight (algo.ConservativePenalty, through qrdqn.Regularizer);
//     then QR-DQN's target update.
//   - Postprocess: QR-DQN's (priorities for a prioritized buffer).
//
// # Invariants
//
//   - An update cycle and acting allocate nothing in steady state (locked
//     by the package's tests).
//   - Save writes QR-DQN's whole state, so Load into a CQL of the same
//     configuration continues bit for bit.
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" as memory of the QR-DQN, overwritten by the
// next Preprocess. The statistics map Update returns is reused.
//
// # Decisions
//
//   - The algorithm is QR-DQN with one term added to its loss, not a copy
//     of it: the networks, returns, optimizer step and target update are
//     QR-DQN's (and quantile.Core's).
//   - The penalty is algo.ConservativePenalty, shared with CRR, which adds
//     the same term.
//   - DefaultConfig is Tianshou's CartPole test (test_discrete_cql.py):
//     hidden [64], 200 quantiles, lr 3e-3, γ 0.99, 3-step returns, a copy
//     every 500 steps, w = 10, ε 0.001; its offline trainer runs 5 epochs of
//     1,000 updates of 32 transitions with 100 test episodes after each.
package discretecql
