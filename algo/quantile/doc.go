// Package quantile holds what the quantile members of the DQN family share:
// QR-DQN (algo/qrdqn), IQN (algo/iqn) and FQF (algo/fqf), and the algorithms
// built on them. Each of those packages owns its network and its loss; this
// one owns the rest once.
//
// # Overview
//
//   - Common: the hyperparameters they share with DQN (γ, n-step returns,
//     the target network, double Q-learning, Adam, ε and β schedules) and
//     κ of the quantile Huber loss (tensor.Tape.QuantileHuber).
//   - Core: the off-policy plumbing around an algorithm's network: the
//     ε-greedy policy (policy.Q over the network's mean or weighted
//     quantiles), n-step distributional returns (algo.QReturns), reading a
//     sampled batch, the gradient step and target update, priorities
//     (algo.BetaSchedule), schedules and the saved state.
//   - ImplicitNet: IQN's network, also FQF's quantile function: a feature
//     MLP, the cosine embedding of the fractions (tensor.Tape.Cosines and a
//     linear layer with ReLU), their product, and a head to one value per
//     action.
//
// # Invariants
//
// Quantile values are laid out [k, M, A]: k observations, M quantiles (or
// sampled fractions), A actions, so that the Q-values are a reduction over
// axis 1 and the values of the taken actions a gather over axis 2.
//
// # Aliasing
//
// Tensors returned by the networks belong to the tape they were recorded
// on. The statistics map of Core.Step is the Core's own, overwritten by the
// next step.
//
// # Decisions
//
//   - One layout [k, M, A] for the three algorithms, so that acting, target
//     selection and gathering are written once. QR-DQN's MLP output unit
//     j·A + a is quantile j of action a (Tianshou orders it the other way).
//   - The quantile Huber loss is one fused tensor op returning each row's
//     loss: a composition of broadcast ops makes B·N·M tensors of several
//     kinds for QR-DQN's 200 quantiles, and the per-row losses are what
//     prioritized replay needs. The op sorts each row's targets and sums
//     runs of them with prefix sums rather than visiting all N·M pairs
//     (figures in BENCHMARKS.md).
//   - Priorities are each transition's quantile Huber loss (unweighted by
//     the importance weights).
package quantile
