// Package algotest provides what the tests of the algorithms (the packages
// under algo) and of the code around them (policy, trainer) share: spaces,
// linear layers with given weights for hand-computed losses, CartPole envs,
// on-policy collections of transitions in a vector buffer, the comparison of
// parameter sets and saved states, the checks every algorithm passes, and the
// BLAS tag of benchmark names.
//
// # Overview
//
//   - [Discrete] and [Box] make spaces, failing the test on bad arguments.
//   - [Linear] is a layer y = W·x with W given by rows.
//   - [CartPoles] makes CartPole-v1 envs (the package registers them by
//     importing env/classic).
//   - [Collection] fills a vector buffer with random transitions of several
//     envs, as an on-policy trainer collects them, and [Take] returns the
//     whole collection as algo.Learner.StepAll takes it.
//   - [EqualParams] compares two parameter sets bit for bit; [State]
//     returns an algorithm's saved state, to compare byte for byte.
//   - [CheckOnPolicy] and [CheckOffPolicy] run the checks every algorithm
//     passes (determinism, resume from a saved state, the allocation lock of
//     the steady-state update, a smoke run) from a short description of the
//     algorithm ([OnPolicy], [OffPolicy]), so that an algorithm's own tests
//     hold only what is particular to it: its loss by hand, its options.
//   - [Build] makes an algorithm from its New ([NewFunc]) for the usual
//     spaces; [SmallOffPolicy] describes an actor-critic with one hidden
//     layer to CheckOffPolicy; [CheckRejects] checks that New refuses each
//     bad configuration of a table ([Reject]) and an unsupported action
//     space with the package's configuration error.
//   - [Five] and [Preprocessed] give the loss tests their five hand-checked
//     transitions as a preprocessed batch.
//   - [MLP64] evaluates an MLP's parameters in float64, the reference of
//     the loss tests.
//   - [BLASTag] names the BLAS in sub-benchmark names.
//
// # Decisions
//
// One helper package for the algorithm tests, after env/envtest and
// batch/batchtest: a helper used by three or more packages' tests lives
// here rather than in a copy per package. Helpers that only two packages
// share, or that only look alike (each algorithm's train function, its
// hand-computed fixtures), stay with their tests.
//
// The checks compare whole saved states rather than parameters and counters
// one by one: a state equal byte for byte covers the networks, the
// optimizers, the random sources and the counters, and holds for any
// algorithm that implements Save.
package algotest
