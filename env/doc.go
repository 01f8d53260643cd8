// Package env is Gymnasium's environment model in Go: the Env interface,
// spaces, a registry of named envs, and the standard wrappers.
//
// # Overview
//
// An [Env] is reset with an optional [Seed] and stepped with actions:
//
//	obs, info, err := e.Reset(env.SeedOf(42))
//	obs, reward, terminated, truncated, info, err := e.Step(action)
//
// Observations and actions are values of the env's spaces ([Space]):
// [Discrete], [Box], [MultiDiscrete] and [MultiBinary] values are
// *nd.Array, and [Dict] and [Tuple] values are *batch.Batch (a Tuple's keys
// are "0", "1", …), ready to be stacked for a batch of envs; each space
// samples (Sample, or SampleTo into a preallocated batch of envs' values),
// tests membership (Contains) and prints as Gymnasium prints it. Optional abilities are small
// interfaces: [Renderer] (an RGB frame) and [Stater] (save and restore the
// whole state for checkpoints), reached through the functions [Render],
// [MarshalState] and [UnmarshalState].
//
// [Make] returns a registered env wrapped in its [TimeLimit], as gym.make
// does; env packages [Register] their ids in init (import
// github.com/gorl/gorl/env/classic for CartPole-v1 and the other classic
// tasks), and [IDs] lists them.
//
// Wrappers are small types that embed the env they wrap and change one
// thing: [TimeLimit], [ClipAction], [RescaleAction], [ContinuousToDiscrete],
// [NormalizeObservation], [NormalizeReward], [TransformObservation],
// [TransformReward], [FrameStack], [RecordEpisodeStatistics] and
// [TruncatedAsTerminated]. Each forwards Render and the state functions to
// the env it wraps, adding its own state (step counts, statistics, frames)
// to the saved state, and has Unwrap; [Unwrapped] finds the innermost env.
// A [Normalizer] holds statistics that several envs share (Stable-Baselines3's
// VecNormalize): [Normalizer.Wrap] puts each env behind it as a training env,
// which updates them, or a test env, which only reads them.
//
// The Atari preprocessing of DQN is a set of wrappers too: [NoopReset],
// [MaxAndSkip], [EpisodicLife], [GrayscaleResize] and [SignReward] (for
// TransformReward), put together with FrameStack by
// [NewAtariPreprocessing], so that an Atari-like env (a Gymnasium game
// through the bridge) gets observations [4, 84, 84] for nn.NatureCNN.
//
// An env that forbids some actions of a Discrete(n) space returns masked
// observations ([NewMasked]: a Dict of "obs" and "action_mask", int8
// MultiBinary(n), 1 = allowed, as PettingZoo and Tianshou do), or puts the
// mask in its Info under [KeyActionMask]; [ActionMask] reads masks for the
// collector and the policies, and [Unmasked] recognizes masked spaces.
//
// # Invariants
//
//   - An episode starts with a successful Reset and ends with the first Step
//     reporting terminated or truncated; Step outside an episode returns an
//     error wrapping [ErrNeedReset] and changes nothing. A Step that fails
//     (an invalid action wraps [ErrAction]) leaves the episode where it was.
//   - Equal seeds and equal actions give equal episodes: a seed fixes the
//     env's random stream (a PCG source, seeded by [Reseed]), and nothing
//     else in an env is random. Wrappers with statistics carried across
//     episodes (the normalizing ones) are the exception, until frozen.
//   - Errors name the env or wrapper they come from; bad data and a failing
//     env give errors, programmer errors panic: SampleTo into a destination
//     of the wrong shape (an *nd.Error wrapping nd.ErrShape), Register of a
//     duplicate id (an error wrapping [ErrRegister]), RunningMeanStd.Update
//     with the wrong length.
//   - Spaces are immutable; Low, High, Shape and the like return copies.
//   - Restoring a state is all or nothing: UnmarshalState either succeeds or
//     returns an error wrapping [ErrState] and leaves every layer unchanged.
//
// # Aliasing
//
// The observation and Info an env returns may be owned by the env and
// overwritten by its next call: the wrappers of this package and the
// classic envs return the same observation array every step, which is what
// makes stepping allocation-free. Callers copy what they keep (the vector
// envs copy each observation into their stacked result). An env does not
// keep the action it is given. Sample returns a new value; SampleTo writes
// into the caller's array. RecordEpisodeStatistics returns a new Info at
// the end of an episode.
//
// # Decisions
//
// Reset takes a Seed value (NoSeed or SeedOf(v)) rather than a *uint64:
// passing a pointer through an interface method makes it escape, one
// allocation per Reset of every env of a vector env, and a struct reads as
// well at the call site. An env never seeded seeds itself from the runtime's
// random source on its first Reset, like Gymnasium's reset(seed=None):
// defaulting to a fixed seed would make the envs of a vector env that are
// reset without seeds identical, a silent error; runs that must be
// reproducible pass seeds.
//
// Step has Gymnasium's five results plus an error, rather than a result
// struct: it reads like the Python a reader knows, and wrappers that change
// one result pass the others through by name. Step after the end of an
// episode is an error (ErrNeedReset), where Gymnasium only warns and
// CartPole keeps stepping with reward 0: a collector that forgets a reset
// would otherwise store transitions from beyond the end of an episode. It
// also makes the state of an ended episode irrelevant to checkpoints.
//
// Values are `any` holding *nd.Array (or *batch.Batch for Dict and Tuple
// spaces) instead of a generic Env[Obs, Act]: the collector and the vector
// envs handle every env through one interface, and the dynamic check costs
// one type assertion per step. Tuple values are Batches keyed by position
// rather than Go slices, so that they stack, index and store like Dict
// values; Dict equality ignores key order, as Gymnasium's does, since
// Batches are matched by key.
//
// Box.Contains uses numpy's "safe" casting (can_cast), as Gymnasium does, so
// a float64 array is not in a float32 Box even when its values are; a vector
// env converts actions to the space's dtype before stepping. A nil shape in
// NewBox follows Gymnasium: the shape of the bound that is an array, (1,)
// for two numbers.
//
// Samples are drawn with Gymnasium's distributions (Box: uniform, shifted
// exponentials, normal, and floor(uniform(low, high+1)) for integer boxes)
// from a Go random stream, so a seed does not reproduce numpy's samples.
//
// NormalizeObservation and NormalizeReward keep their statistics in float64;
// Gymnasium keeps NormalizeObservation's in float32, so the normalized
// observations agree to float32 rounding rather than bit for bit.
// NormalizeReward follows Gymnasium's G ← γ·G·(1 − terminated) + r, which
// drops G on the terminating step itself and never clears it at a reset or
// a truncation, for the same scaling as Gymnasium. RescaleAction does not
// clip (Gymnasium 1.x does not), and needs finite bounds on both sides.
// RecordEpisodeStatistics keeps no queue of recent episodes; the collector
// computes statistics over what it collects.
//
// A wrapper's saved state is a tag naming the wrapper and format version,
// its own fields, and the wrapped env's state as a length-prefixed block;
// every length is checked against the input before use, and a fuzz test
// feeds arbitrary bytes to a stack of every stateful wrapper. Stateless
// wrappers save exactly the wrapped env's state.
package env
