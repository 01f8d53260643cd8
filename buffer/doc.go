// Package buffer provides the replay buffers of gorl: Tianshou's
// ReplayBuffer family over batch.Batch storage, and Machin's transitions
// and replay memory.
//
// # Overview
//
// [Replay] is a circular buffer of transitions (obs, act, rew, terminated,
// truncated, obs_next, info, policy and any other keys) kept in
// chronological ring order, with episode bookkeeping: Add reports each
// finished episode's return, length and first index as a [Step]; Prev and
// Next step within episodes; SampleIndices, Sample and SampleTo draw
// transitions; Take and TakeTo read them back as a Batch (Tianshou's
// buf[indices]), with frame stacking ([Config].StackNum) and obs_next
// derived from the next step ([Config].IgnoreObsNext) when so configured;
// Get returns one stacked key; Update copies another buffer in.
//
//   - [Vector] (Tianshou's ReplayBufferManager and VectorReplayBuffer)
//     keeps one ring per environment over one storage, with global
//     indices; Add stores row j of a vector step into sub-buffer ids[j].
//   - [Cached] keeps per-environment caches and moves each finished
//     episode, whole and in order, into a main ring.
//   - [Prioritized] and [PrioritizedVector] sample in proportion to
//     priority^α from a sum tree and return importance weights under
//     "weight"; the learner reports priorities with UpdateWeight.
//   - [HER] and [HERVector] relabel goals with hindsight when sampling.
//   - [Transition], [Memory] and [PrioritizedMemory] are Machin's
//     transitions (major, sub and custom attributes) and its Buffer with
//     Append and SampleBatch.
//
// Every ring buffer satisfies [Buffer] (and the prioritized ones
// [Prioritizer]), so a collector and the algorithms handle them alike.
// BufferNum tells how many sub-buffers Add's ids name, and EndEpisode ends
// the episodes in progress of sub-buffers whose environment was reset
// mid-episode.
// Save and [Load] store any buffer in the package's file format;
// SaveHDF5 and [LoadHDF5] exchange ring buffers with HDF5 (h5py reads the
// files) when built with cgo and -tags hdf5.
//
// Randomness is injected: every sampling method takes a *rand.Rand (it
// may be nil only where nothing is drawn, SampleIndices(0, nil)).
//
// # Invariants
//
//   - Each ring (a Replay, or one sub-buffer) fills local positions 0, 1, …
//     and then overwrites its oldest transition; sub-buffer k owns global
//     indices [off_k, off_k+size_k). Len counts the stored transitions and
//     SampleIndices(0, nil) lists them oldest first, sub-buffer after
//     sub-buffer.
//   - done = terminated || truncated, computed by Add; a done key given
//     to Add is ignored.
//   - Prev(i) = i at an episode's first step (after a done step, or the
//     oldest stored step) and Next(i) = i at a done step and at the newest
//     step of its ring (the unfinished tail): Tianshou's prev/next, per
//     sub-buffer. Update does not end the destination's episode, so its
//     newest step and the first copied one are neighbours (the seam
//     Tianshou's buffer tutorial prints).
//   - A Step reports EpisodeReturn and EpisodeLen only on the step that ends
//     an episode (0 otherwise, as Tianshou's tutorial prints); EpisodeStart
//     is reported on every step, as Tianshou does.
//   - EndEpisode marks the newest transition of a sub-buffer truncated
//     unless it is done, so an abandoned episode ends where it was left
//     (Prev, Next and returns stop there) and the next Add starts a new
//     one; Cached moves the ended episode into its main ring.
//   - Add, Update and Load check everything before changing anything: on
//     error the buffer is unchanged (Load returns nothing).
//   - Priorities are positive: UpdateWeight stores (|p| + 2⁻²³)^α and
//     refuses NaN and infinities, so sampling cannot be corrupted by a
//     diverging learner.
//   - Programmer errors panic with an *[Error] wrapping [ErrIndex] (an
//     index or buffer id out of range), [ErrShape] (destinations of the
//     wrong length) or [ErrValue] (a nil random source where a draw is
//     needed); data errors are returned.
//   - A buffer is not safe for concurrent use: sampling reuses scratch
//     memory, and a hindsight buffer writes its storage when sampling.
//
// # Aliasing
//
// Data, Rew, Terminated, Truncated and Done are views of the storage:
// they see later Adds, and writes through them change the buffer. Take,
// Sample and Get return copies; the arrays of one Take or Sample result
// share their allocations (batch.Take makes them), so keeping one array
// keeps the headers and small buffers of all. TakeTo and SampleTo write
// into the caller's Batch, reusing its arrays when their dtype and shape
// fit (keys of the destination the buffer does not write are left alone).
// Add copies the caller's arrays into the storage; custom leaves and other
// Go values are stored by reference. Add keeps a reference to the last
// Batch it planned, and to its arrays, until it plans another (see
// Decisions). A Transition holds copies of what it was made from; its
// accessors return them by reference.
//
// # Allocation
//
// With a reused steps slice, Add of arrays already of the stored dtype and
// shape does not allocate (CartPole-shaped transitions, and vector steps
// of 8 rows), whether it reuses its plan or makes one; nor do SampleTo into
// a reused batch and index slice, UpdateWeight, EndEpisode, PrevTo and
// NextTo. Custom leaves, string values and hindsight relabelling allocate.
// These are locked by AllocsPerRun tests. Take and Sample allocate their
// result in a few allocations whatever the number of keys: 5 for 64
// CartPole transitions (the index slice, the Batch's nodes, and nd.Block's
// headers, shapes and elements), where filling an empty Batch took 20.
//
// # File format
//
// Version 1 is little-endian: the magic "gorlbuf\x00" and a version u16,
// then sections of tag u8, length u64, payload and a CRC-32C over tag,
// length and payload. A ring buffer's sections are meta (type, Config,
// each sub-buffer's size, length, position, last index and episode
// statistics, priority or hindsight settings), schema (the key tree, each
// array's dtype and row shape), one section per array holding all Cap()
// rows, priorities (prioritized buffers), and end. Object elements and
// custom attributes are tagged values: nil, bools, Go's integer and float
// types, strings, []any and map[string]any (keys sorted). A Memory's
// sections are meta, its transitions and priorities. Writing streams the
// storage (two passes per section: counting, then writing); reading
// streams it into the new buffer, checking every count and length against
// the input left before allocating, and the whole size the arrays need
// before allocating any.
//
// # HDF5 layout
//
// The root group holds attributes format ("gorl buffer"), version, kind
// (Tianshou's class name), size, stack_num, ignore_obs_next,
// save_only_last_obs, sample_avail, the sub-buffer states as 1-d
// attributes sub_size, sub_len, sub_next, sub_last, sub_ep_len,
// sub_ep_start and sub_ep_return, and alpha, beta, weight_norm and
// max_priority or horizon and future_k; a group "data" with one group per
// Batch key (attribute "keys" listing them in order) and one dataset per
// array of Cap() rows (bools as h5py's enum, strings as UTF-8 strings,
// with a bool dataset "<key>.none" marking nil elements); and a dataset
// "priority" for prioritized buffers. Other Object values and custom
// leaves are reported as unsupported.
//
// # Decisions
//
//   - All ring buffer types share one implementation, a list of rings over
//     one storage tree (Tianshou's ReplayBufferManager layout): Replay is
//     the one-ring case, and Vector, Cached and the prioritized and
//     hindsight forms differ only in their rings and options. Type names
//     drop Tianshou's "ReplayBuffer" suffix (buffer.Vector is its
//     VectorReplayBuffer); String prints Tianshou's names.
//   - Add and the samplers copy rows through typed slices of the storage
//     (one generic kernel per element type; rows of 1 to 4 elements as
//     fixed-size arrays) instead of batch.SetRow and batch.TakeTo, which
//     walk the tree with per-value dispatch and need a view per row of a
//     vector step (an allocation each). Add, a vector step and SampleTo
//     are allocation-free and many times faster than the Python reference
//     (BENCHMARKS.md).
//   - Add keeps its plan (which column each key of the input fills, the
//     checks passed, the offsets of direct row copies) while the input is
//     the same Batch holding, depth first, the same keys, arrays and nested
//     Batches, compared by pointer, for the same number of rows and the
//     same storage schema: a collector adds one Batch of the same arrays at
//     every step, and matching and checking it again took half of Add. An
//     nd.Array never changes dtype, shape or strides, so the checks still
//     hold; any other change, a new key or value, a key left out, another
//     row count, makes Add plan again, with every check. No version counter
//     of the Batch is needed: the walk compares about ten pointers and keys.
//     Keeping the plan more than halved the time of Add, and Add's share of
//     a one-env CartPole collector step fell by a quarter.
//   - Take and Sample fill a new Batch made by batch.Take from a one-row
//     template of the sampled layout (kept until the schema changes):
//     batch.Take builds the tree from one allocation per kind and nd.Block,
//     where TakeTo into an empty Batch made two allocations per array and
//     one per key. Sample(64) of CartPole transitions went from 20 to 5
//     allocations, but not faster, and short of the 20× over the Python
//     reference asked: its cost is allocating the returned bytes (batch's
//     BenchmarkAllocFloor) and the garbage collection that follows, more
//     than the copying. Sampling into a reused Batch (SampleTo) is the fast
//     form.
//   - Rewards are stored as float64, as Tianshou stores them (its
//     astype(float)), and must be one number per transition: episode returns
//     and the return kernels read them as a []float64. Terminated and
//     truncated may be given as numbers (Tianshou's tutorial adds
//     terminated=0) and are stored as value ≠ 0; other values follow nd's
//     "same_kind" rule, so a float action into an integer column is an error
//     rather than numpy's silent truncation.
//   - Randomness is an argument of each sampling call rather than state of
//     the buffer: a buffer can be saved and loaded without a generator's
//     state, and several samplers can share one buffer with their own
//     streams.
//   - Sampling uniformly from a Vector draws each index with probability
//     1/Len, the distribution Tianshou's two-stage draw (sub-buffer by
//     length, then index) has, in one stage; the drawn indices are in draw
//     order rather than grouped by sub-buffer.
//   - Importance weights are the paper's (P(i)/min_k P(k))^(−β) with the
//     minimum over the stored transitions (the sum tree's min tree), not
//     Tianshou's (p_i^α / p_min)^(−β) with p_min the smallest raw priority
//     ever seen: the latter mixes α into the ratio and never forgets an
//     overwritten priority. New transitions enter with the largest
//     priority given so far (1 at first), as in Tianshou.
//   - Priorities pᵅ and weights are exp(y·ln x) (exactly for y = ±1 and ±½)
//     with the package's own exp and log: a 128-entry table and a polynomial
//     of degree 5 or 6 on a reduced argument below 1/256, within 2 units in
//     the last place (log: 2e-16 in absolute value, which is what exp(y·ln x)
//     needs), with math.Exp and math.Log beyond the normal range. Each is
//     faster than math.Exp or math.Log alone, and 64 priorities cost about a
//     third of what math.Pow takes (BenchmarkPow64). Weights are computed
//     from the tree's leaves alone, exp(−β·(ln leafᵢ − ln min)), so that a
//     loaded buffer weighs samples with the same bits as the saved one;
//     keeping ln leafᵢ per slot to save the log was not measurably faster and
//     would not have survived Save and Load bit for bit.
//   - Prioritized Sample(64) into a reused Batch followed by UpdateWeight
//     stays short of the 20× over the Python reference asked (BENCHMARKS.md).
//     Before the changes above and the sum tree's (see internal/sumtree)
//     its CPU profile was led by the sum-tree updates and math.Exp and
//     math.Log; after them, by the tree search (its deep levels miss the
//     cache) and the tree update, with the row gathers, exp and log, checks
//     and drawing after them. Wider and flatter trees were measured and
//     were slower (see the sum tree's Decisions).
//   - EndEpisode marks the abandoned episode's last transition truncated,
//     not terminated: the environment was not in a terminal state, so
//     returns bootstrap from its obs_next, as at a time limit. Cached moves
//     the ended partial episode into its main ring rather than dropping
//     it, as the vector forms keep theirs: the transitions are real
//     experience. EndEpisode returns no error: given valid ids nothing can
//     fail, and ids out of range are a programmer error, as for Add.
//   - Hindsight relabelling follows Tianshou's algorithm, including its
//     in-place rewrite of the storage until the next write or sampling, so
//     n-step returns read relabelled rewards; with IgnoreObsNext the
//     rewards are computed with the new goals (Tianshou's code computes
//     them with the original goals in that case). Relabelled rows are
//     restored before any write, Save, or sampling.
//   - With StackNum > 1 only obs and obs_next are stacked when sampling
//     (Tianshou stacks only obs and obs_next); Get stacks any key.
//     StackNum is at most 4096 so that a sampled batch stays proportional
//     to the sample.
//   - Rows given to one sub-buffer in a single Add are stored one by one,
//     so each row's episode bookkeeping and a Cached buffer's move happen
//     before the next row (Tianshou moves the whole cache once, taking
//     later rows of the same call with the finished episode).
//   - Files hold every row of the capacity, as Tianshou's pickle and HDF5
//     files do: the storage a loaded buffer allocates is then backed by
//     bytes of the file, which a capacity field alone could not justify.
//     The format is the package's own rather than batch's MarshalBinary,
//     which builds the whole encoding in memory: a 7 GB Atari buffer would
//     need twice its size to save.
//   - The frame-stacking sampler moves whole 84×84 frames with copy: a
//     Sample(32) of stacked obs and obs_next costs 1.2× the plain copy of
//     the same 1.8 MB from random rows (BenchmarkFrameStackSample32 against
//     BenchmarkCopyFrameBytes32, CPU time), and an Atari-shaped buffer with
//     SaveOnlyLastObs stores 7,075.8 bytes per transition for 7,075 bytes
//     of frame and scalar fields (TestAtariMemory).
//   - Machin's memory addresses transitions by slot, as Machin does, so
//     that priorities and caller-supplied sample methods name stable
//     places; All lists the slots oldest first, which is also what the
//     "all" method returns.
package buffer
