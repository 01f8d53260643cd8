// Package envtest provides deterministic fake envs and a conformance
// checker for code built on package env.
//
// # Overview
//
// [Fake] is an env whose episode lengths and rewards are fixed in advance by
// its [Config], after Tianshou's MoveToRightEnv: its observation [ID,
// episode, step] tells a test which env produced it and where in which
// episode, episodes end (terminated, or truncated) after the configured
// lengths whatever the actions, and it can sleep in every step (to test
// asynchronous collection), fail with an error or panic at a chosen step.
// It renders a tiny frame and saves its state, so that code handling
// Renderers and Staters can be tested with it.
//
// [Check] tests an env against the env.Env contract, after
// testing/fstest.TestFS: spaces, seeded reproducibility, the end of an
// episode, state restoring, rendering and Close. Run it on every env and
// wrapper you write.
//
// # Invariants
//
//   - A Fake has no randomness: a seeded Reset restarts its episode
//     sequence, so equal seeds and actions give equal results.
//   - Check reports through t.Errorf only (never t.Fatal), so it can be run
//     against a recording testing.TB; it uses the env it is given and
//     closes it.
//
// # Aliasing
//
// A Fake returns the same observation array and frame on every call; its
// Info is a new map each call when Config.Info is set.
//
// # Decisions
//
// The Fake's actions do not drive it (unlike MoveToRightEnv, whose length
// depends on going right): collector tests need episode lengths they can
// state before collecting, with any policy, including a random one. The
// last action is kept (LastAction) for tests that check what reached the env.
package envtest
