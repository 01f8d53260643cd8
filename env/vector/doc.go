// Package vector runs several envs side by side for batched collection:
// one interface, [Env], with a sequential implementation, [Sync], and a
// goroutine-per-env one, [Async].
//
// # Overview
//
// A vector env resets and steps any subset of its envs, addressed by id
// (their index), with per-env seeds, and returns a [Result] whose rows
// follow the ids: the observations stacked into one [n, …] array (or Batch
// for Dict spaces), rewards, terminated and truncated flags, and Infos.
// Nothing is reset automatically: the collector resets the envs whose
// episode ended, so the last observation of an episode is the true one.
//
// Besides Step, which waits for every env it steps, Send starts envs
// without waiting and Recv returns the first waitNum to finish, or those
// finished when a context's deadline passes (Tianshou's wait_num and
// timeout), for collectors that must not wait for slow envs.
//
//	v, _ := vector.NewAsync(envs)
//	defer v.Close()
//	res, err := v.Reset(ctx, nil, seeds)
//	...
//	res, err = v.Step(ctx, nil, actions) // actions: [n, action shape…]
//
// # Invariants
//
//   - Row j of a Result belongs to env Result.IDs[j]: the ids given to
//     Step or Reset, in order, or the envs in the order they finished for
//     Recv.
//   - An env runs at most one command at a time; calling it again before
//     its result is received is a programmer error (a panic wrapping
//     ErrBusy), as are bad ids (ErrID), Recv with nothing sent
//     (ErrNotRunning) and any use after Close (ErrClosed).
//   - Errors name the env ("env 3: …"), a panic inside an env comes back
//     as a *PanicError, and the vector env stays usable after either.
//   - A NaN or infinite reward or floating-point observation element is an
//     error wrapping ErrNonFinite that names the env and its step, unless
//     Config.AllowNonFinite is set.
//   - Close waits for running envs, stops every goroutine and closes the
//     envs; it can be called again.
//
// # Envs that hang
//
// A context is honoured between envs (Sync) or while waiting (Async), but
// an env's Step that never returns cannot be interrupted: Go has no way to
// stop a goroutine. Config.StepTimeout bounds every env call: past it, the
// call fails with an error wrapping ErrStepTimeout that names the env and
// its step, the env's call is abandoned (its goroutine keeps running it,
// and ends if the call ever returns), and the vector env is unusable: every
// later call but Close returns that error. Close neither closes nor waits
// for an abandoned env. Sync runs its envs' calls in a goroutine of its own
// only when a timeout is set, so that it can stop waiting.
//
// # Aliasing
//
// A Result, its slices, its stacked observations and the frames of Render
// are storage the vector env owns and reuses: valid until its next call.
// The observations are copies of what the envs returned (so envs may reuse
// their arrays); the Infos are the envs' own. Actions are copied into
// per-env slots before Step or Send returns, so the caller may reuse its
// actions array at once.
//
// # Decisions
//
// No auto-reset, unlike Gymnasium's vector envs: Tianshou's collector
// resets envs itself so that a stored obs_next is the real last
// observation, and the collector is the only user.
//
// Async keeps one goroutine per env for the env's lifetime, fed through a
// channel, rather than a goroutine per step or a pool: an env is often not
// safe to move between goroutines in other libraries it wraps, and the
// handoff through two channel operations costs about a microsecond, far
// below what an env worth running in parallel costs per step. The
// goroutines are owned by the Async (a sync.WaitGroup that Close waits on)
// rather than an errgroup: an env's error is a result of one call, not a
// reason to stop the others, so there is no first error to cancel on.
//
// Each env's result is written by its goroutine into a slot of its own and
// copied into the stacked Result by the calling goroutine, in the order the
// envs finish: that order is only known then, and the copy (four floats
// for CartPole) is cheaper than synchronizing writers. For cheap envs Sync
// is faster than Async (see the benchmarks): the handoff costs more than
// the step.
//
// Actions whose dtype is the action space's are copied with nd.TakeTo and
// Step allocates nothing (locked by AllocsPerRun tests for Sync and Async);
// other dtypes are cast under nd's "same_kind" rule through a row view,
// one allocation per env.
//
// NewProcess runs each env in a worker process of the program instead
// (Tianshou's SubprocVectorEnv), over package wire's protocol: the envs are
// wire.Env clients stepped by an Async, so the vector env's code is the
// same, and a crashing env takes down only its worker. A restarted worker
// ends its env's episode as truncated rather than failing the call, so
// that the collector stores the episode, resets that env and goes on
// without any change of its own.
//
// Sync implements Send and Recv too, stepping the sent envs in order when
// Recv is called, so that asynchronous collectors can be tested
// deterministically.
package vector
