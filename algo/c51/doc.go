// Package c51 implements C51, the categorical DQN of Bellemare, Dabney and
// Munos, "A Distributional Perspective on Reinforcement Learning" (2017), as
// an algo.OffPolicy algorithm.
//
// # Overview
//
// [New] builds a C51 from a [Config] and the env's spaces. The network gives,
// for each action, the logits of a categorical distribution over NumAtoms
// atoms evenly spaced in [VMin, VMax]; the policy acts ε-greedily on the
// expected returns Q(s, a) = Σⱼ pⱼ(s, a)·zⱼ. The update cycle (algo.Learner,
// or a trainer), all of it in algo/categorical, which Rainbow shares:
//
//   - Preprocess: the n-step projected Bellman target of each sampled
//     transition: the target network's distribution at the window's last
//     obs_next, for the action of largest expected return under the online
//     network, shifted by the discounted rewards, scaled by γᵐ (collapsed
//     onto the rewards after a terminal step) and projected onto the atoms
//     (categorical.Support.ProjectTo), stored under "target_dist".
//   - Update: one Adam step on the mean over the batch of w·H, H the cross
//     entropy of the network's distribution of the taken action against the
//     target and w the importance weights of a prioritized buffer (1
//     otherwise); then the target network is copied every TargetUpdateFreq
//     steps (or moved by Polyak averaging with Tau).
//   - Postprocess: a prioritized buffer gets each transition's cross entropy
//     as its new priority, and β follows its schedule.
//
// The ε schedule (EpsTrain → EpsTrainFinal over EpsDecaySteps env steps) is
// applied through algo.Scheduled, which the trainers call.
//
// # Invariants
//
//   - The target network starts as a copy of the online network.
//   - An update cycle (sample, n-step projected targets, update, target
//     update) allocates nothing in steady state (locked by an AllocsPerRun
//     test).
//   - Save writes every piece of state (networks, Adam's moments, the
//     policy's random source, counters), so Load into a C51 of the same
//     configuration continues bit for bit (tested).
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" and "target_dist" as arrays that are memory of
// the C51, overwritten by the next Preprocess. The statistics map Update
// returns is reused. Network and Target return the networks themselves.
//
// # Decisions
//
//   - DefaultConfig is Tianshou's CartPole test (test/discrete/test_c51.py):
//     four hidden layers of 128, 51 atoms over [−10, 10], γ 0.9, 3-step
//     returns, a hard target update every 320 gradient steps, lr 1e-3, ε 0.1
//     / 0.05. That test also lowers ε from 0.1 to 0.01 between 10k and 50k
//     env steps; CartPole is solved before 10k, so the default keeps ε
//     constant, as DQN's does.
//   - The greedy next action comes from the online network and its
//     distribution from the target network, as in Tianshou's C51 (double
//     Q-learning's split), and from the online network alone without a
//     target network.
//   - The network gives logits and the loss takes their log-softmax, instead
//     of Tianshou's probabilities with log(p + 10⁻⁸): the same loss without
//     the offset, and no log of an underflowed probability.
//   - The priorities are the per-sample cross entropies, as in Tianshou and
//     the Rainbow paper (the KL divergence differs from it by the target's
//     entropy, which does not depend on the network).
package c51
