// Package collector runs policies in vector envs and stores the transitions
// in replay buffers: Tianshou's Collector and AsyncCollector.
//
// # Overview
//
// A [Collector] is made from a [Config] (a vector env, a [Policy], a buffer,
// hooks) and collects on request ([Request]: NStep steps or NEpisode
// episodes, random actions, a reset first, rendering), returning [Stats]:
//
//	c, err := collector.New(collector.Config{Env: envs, Policy: pol, Buffer: buf, Explore: true})
//	...
//	if err := c.Reset(ctx, seeds); err != nil { ... }
//	stats, err := c.Collect(ctx, collector.Request{NStep: 1000})
//
// Every vector step acts on the envs' last observations, steps the envs,
// adds one transition per env to the buffer, env i's to sub-buffer i (obs,
// act, rew, terminated, truncated, obs_next, info, policy; the buffer
// derives done), calls the hooks, and resets the envs whose episode ended,
// since vector envs never reset themselves: a stored obs_next is the true
// last observation of its episode. With NStep, one env collects exactly
// NStep steps and n envs whole vector steps until at least NStep; NEpisode
// is exact, by Tianshou's rule (see [Collector]). An [AsyncCollector] sends
// actions to the idle envs and stores the results of the first WaitNum envs
// to finish, or of those finished by a timeout (vector.Env's Send and
// Recv), collecting at least NStep steps or NEpisode episodes.
//
// For checkpoints, [Collector.MarshalState] saves what the collector keeps
// per env between Collects; restored with the vector env's states, the
// policy and the random sources, a run resumes exactly (TestCollectorState).
//
// The collector declares what it needs from a policy and does not import
// any policy package: [Policy] (actions for a batch of observations, with an
// optional hidden state, written into a Batch the collector hands back on
// every call) and optionally [ActionMapper] (Tianshou's map_action and its
// inverse). Exploration reaches the policy as Act's explore argument, set by
// Config.Explore.
//
// With a Discrete action space, action masks (env.ActionMask: a masked
// observation's "action_mask", or the info's) are checked before every
// action: a mask that allows nothing is an error naming the env and the
// step of its episode, and random actions are drawn uniformly among the
// allowed ones.
//
// What is stored, per transition:
//
//   - obs and obs_next: the observation acted on and the one the step
//     returned, as the vector env stacks them (an array, or nested keys for
//     Dict and Tuple spaces);
//   - act: the policy's "act" (before MapActionTo), or the random action
//     (after UnmapActionTo);
//   - rew (float64), terminated and truncated (bool);
//   - info: the step's Info as a Batch: each key becomes an array (bool →
//     bool, Go's integer types → int64, float32 and float64 → float64,
//     *nd.Array → its dtype and shape per row, nested env.Info or
//     map[string]any → nested keys, anything else → an Object array holding
//     the value); an Info lacking a key stores zero (nil); while no Info
//     has held anything, info is a reserved key;
//   - policy: the policy's "policy" Batch, plus hidden_state (the state Act
//     returned) when the policy has a hidden state, as Tianshou stores it; a
//     reserved key for random actions and policies without data.
//
// # Invariants
//
//   - Row j of everything a vector step handles (the policy's input and
//     output, the vector env's result, the Batch added to the buffer, the
//     StepEvents) belongs to env ids[j], and env i's transitions go to
//     sub-buffer i, in the order they happened.
//   - The buffer holds whole vector steps only: a vector step whose env,
//     Info or data fails stores nothing (the buffers of package buffer
//     check before they store).
//   - Per env, the collector keeps the last observation and Info, the hidden
//     state and the running return and length across Collects; hidden states
//     are zero in the first step of an episode (all zero after Reset), and
//     nil until the policy first returns one. Episodes begun in an earlier
//     Collect count their earlier steps in Stats.
//   - The envs are reset by the first Collect (without seeds; call Reset
//     for seeds), by ResetBeforeCollect, and by the Collect after an error
//     that left them out of step with the collector (an env's error or
//     panic, a buffer or Info error); after a policy's error nothing has
//     been stepped and the next Collect continues. Every episode in progress
//     that such a reset abandons ends in the buffer: its last stored
//     transition is marked truncated.
//   - Bad requests and configs are errors wrapping [ErrRequest] and
//     [ErrConfig]; errors of envs name the env ("env 3: …"; a panic inside an
//     env is a *vector.PanicError); errors of the policy and the buffer are
//     wrapped. Nothing in the package panics on data.
//
// # Aliasing
//
// The obs Batch and the state given to Policy.Act are storage of the
// collector, valid during the call; so is StepEvent.Batch. The dst Batch of
// Act is kept by the collector, one per number of envs acting, and handed
// back on the next call with as many envs; the collector reads "act",
// "state" and "policy" from it and never writes into them. Stats.Returns
// and Stats.Lens are reused by the next Collect. The buffer copies what it
// stores. Frames given to Config.OnFrame belong to the envs.
//
// # Decisions
//
// The policy writes into a dst Batch the collector keeps per number of
// acting envs, rather than returning a new Batch: a policy that reuses the
// arrays it finds there acts without allocating, and Collect then allocates
// nothing in steady state (locked by TestCollectAllocs: policy, random,
// hidden state, n_episode subsets, AsyncCollector, CartPole). Exploration is
// a Config field passed to every Act, as Tianshou's exploration_noise is a
// collector argument: training and evaluation use different collectors.
//
// The per-env state is kept by env id and gathered into scratch rows when
// only some envs act (the tail of an NEpisode Collect, every
// AsyncCollector step); when the acting envs are 0…k−1 the rows are a view
// of the per-env storage, and views of every prefix are made once. Moving
// rows uses typed copies of contiguous arrays (a CartPole observation row
// is 4 floats): it is 3% of a one-env CartPole step's CPU time.
//
// The Batches handed to the policy and to the buffer have fixed keys whose
// values are set again only when they change (most are the same arrays
// step after step): Batch.Set parses a key path every time, and setting
// the eight transition keys every step took 18% of a one-env CartPole
// step's CPU time in a profile.
//
// Infos are stored as arrays keyed like the Infos rather than dropped
// (Tianshou keeps them as a Batch): numbers and arrays are what algorithms
// and loggers read from them, and copying them into preallocated columns
// costs nothing when the Infos are empty (classic control). Tianshou's
// vector envs add env_id to every Info; here the collector writes it, as
// an Int64 column preallocated with the others, rather than the vector
// env adding a key to each env's own Info map (which the env owns and may
// reuse). A key whose
// values change kind (a float after integers) is an error naming the env
// and the key rather than a silent conversion, since the buffer's column
// dtype is fixed by the first Add.
//
// A reset of every env (Reset, ResetBeforeCollect, the reset after an
// error, AsyncCollector.Reset) abandons the episodes in progress; the
// collector ends them in the buffer with Buffer.EndEpisode, which
// marks the last stored transition of each truncated. Tianshou leaves them
// unfinished, so its buffer joins them to the env's next episode: n-step
// returns and GAE run across the reset, and the next episode is reported
// from the abandoned one's start. Truncated rather than dropped: the
// transitions are real, and a truncated step bootstraps from its obs_next,
// as at a time limit. Episode returns and lengths come from the
// collector's own per-env sums, which count only the episodes that end.
//
// After an NEpisode Collect, Tianshou resets every env; this collector
// keeps the per-env state instead. By the n_episode rule every env that
// stepped has just finished an episode and been reset, so the only
// difference is that envs that did not step keep their episodes, and no
// reset is wasted.
//
// Without a Config.Buffer the collector makes a Vector of one transition
// per env, as Tianshou does: such collectors (evaluation) want statistics.
// A buffer must have at least as many sub-buffers as there are envs
// (Buffer.BufferNum).
//
// Stats times the policy and the env with three clock reads per vector
// step, a small but visible part of a one-env CartPole step (less with
// more envs); users ask for those figures, so they are always measured
// (docs/design.md has the cost).
//
// The saved state leaves out the envs' last Infos: Infos are arbitrary Go
// values, and an Info given to a policy matters far less than the
// observation; after a restore the policy's first step sees empty Infos.
// The AsyncCollector has no saved state: between its Collects envs are in
// flight, whose steps a checkpoint cannot hold; a resumed run resets them.
//
// The AsyncCollector keeps the action and policy data each env was sent
// until its result arrives, so a transition holds what was decided when
// its action was sent (Tianshou keeps its whole per-env Batch for the same
// reason); envs sent random actions store zeros under the policy's keys,
// as Tianshou pads missing keys. Its Timeout is a context deadline per
// vector step (one allocation); without a Timeout it allocates nothing.
//
// The steady state allocates nothing; buffer.Add is the largest single part
// of a one-env random-action step (BENCHMARKS.md has the figures).
package collector
