// Package buffer provides the replay buffers of gorl: Tianshou's
// ReplayBuffer family over batch.Batch storage.
//
// # Overview
//
// [Replay] is a circular buffer of transitions (obs, act, rew, terminated,
// truncated, obs_next, info, policy and any other keys) kept in
// chronological ring order, with episode bookkeeping: [Replay.Add] reports
// each finished episode's return, length and first index; Prev and Next
// step within episodes; SampleIndices, Sample and SampleTo draw
// transitions; Take and TakeTo read them back as a Batch (buf[indices]),
// with frame stacking and a derived obs_next when so configured.
// [Vector] keeps one ring per environment over one storage, with global
// indices; [Cached] adds per-environment caches that move whole episodes
// into a main ring. Every type satisfies [Buffer].
//
// # Invariants
//
//   - Each ring (a Replay, or one sub-buffer) fills positions 0, 1, … and
//     then overwrites its oldest transition; Len counts the stored
//     transitions, SampleIndices(0, nil) lists them oldest first.
//   - done = terminated || truncated, computed by Add.
//   - Prev(i) = i at an episode's first step and Next(i) = i at its last
//     step and at the newest step of each ring (the unfinished tail):
//     Tianshou's prev/next, applied per sub-buffer.
//   - Add checks everything before storing anything: on error the buffer
//     is unchanged.
//
// # Aliasing
//
// Data, Rew, Terminated, Truncated and Done are views of the storage:
// they see later Adds, and writes through them change the buffer. Take,
// Sample and Get return copies. TakeTo and SampleTo write into the
// caller's Batch, reusing its arrays when their dtype and shape fit.
// Add copies the caller's arrays into the storage; custom leaves and other
// Go values are stored by reference.
//
// # Decisions
//
//   - All buffer types share one implementation: a list of rings over one
//     storage tree (Tianshou's ReplayBufferManager layout), so Replay is the
//     one-ring case and Vector, Cached and the prioritized and hindsight
//     forms differ only in their rings and options.
//   - Add and the samplers copy rows through typed slices of the storage
//     (one generic kernel per element type) instead of batch.SetRow and
//     Take: it keeps Add of a CartPole transition and SampleTo of 64 rows
//     free of allocations (locked by AllocsPerRun tests).
//   - Rewards are stored as float64, as Tianshou stores them (its
//     astype(float)), and must be one number per transition.
package buffer
