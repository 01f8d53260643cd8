// Package classic implements Gymnasium's five classic-control environments, CartPole-v1,
// MountainCar-v0, MountainCarContinuous-v0, Pendulum-v1 and Acrobot-v1, with Gymnasium's
// dynamics, rewards and termination, and draws their scenes into RGB frames.
//
// # Overview
//
// Each env is a concrete type (CartPole, MountainCar, MountainCarContinuous, Pendulum, Acrobot)
// with a small raw API that knows nothing of arrays or spaces; the env package wraps these types
// into its Env interface and builds its spaces from the values exported here.
//
//	NewCartPole() *CartPole                  // Gymnasium's parameters, exported as fields
//	Reset(rng *rand.Rand)                    // sample an initial state
//	State() []float64                        // copy of the internal state
//	SetState(s []float64) error              // set it (reference tests, planning, replay)
//	Observe(dst []float32)                   // observation of the current state
//	Step(action int) (reward float64, terminated bool, err error)
//	Render() *image.RGBA, RenderTo(dst *image.RGBA)
//
// Discrete envs (CartPole, MountainCar, Acrobot) take an int action in [0, NumActions());
// continuous ones (MountainCarContinuous, Pendulum) take a float32, the one element of their
// action space of shape (1), with bounds from ActionBounds. ObservationBounds returns the
// observation space's float32 bounds as Gymnasium builds them.
//
// Truncation is not the env's business: in Gymnasium the TimeLimit wrapper ends an episode after
// max_episode_steps. Each env exports that limit (CartPoleMaxEpisodeSteps and so on) and the
// reward threshold Gymnasium registers (none for Pendulum) for the registry to use.
//
// The layout of State follows Gymnasium's env.unwrapped.state: CartPole [x, ẋ, θ, θ̇],
// MountainCar and MountainCarContinuous [position, velocity], Pendulum [θ, θ̇], Acrobot
// [θ₁, θ₂, θ̇₁, θ̇₂]. Units are given on each type.
//
// # Invariants
//
//   - A Step from a state that Gymnasium can reach computes what Gymnasium 1.4.0 with numpy 1.24
//     computes: the same operations in the same order and precision, so states agree to within
//     the last bit or two of float64 (Go's and glibc's sin and cos may differ there). The tests
//     check every step of the recorded reference trajectories to 1e-12.
//   - After a successful Step the state is finite; Acrobot's angles lie in [−π, π], and the
//     clipped quantities (MountainCar's position and velocity, Pendulum's θ̇, Acrobot's θ̇₁ and
//     θ̇₂) lie within their limits. MountainCarContinuous's state holds float32 values, so its
//     clipped position and velocity may exceed their limits by the float32 rounding of the
//     limit, as in Gymnasium.
//   - A failing call (Step or SetState returning an error) leaves the env unchanged.
//   - Step, Observe, Reset and RenderTo do not allocate.
//   - An env is not safe for concurrent use; distinct envs share nothing.
//
// # Aliasing
//
// State returns a copy and SetState copies its argument. Observe and RenderTo write into the
// caller's destination and keep no reference to it. Render returns a new frame on every call.
// ObservationBounds returns fresh slices.
//
// # Decisions
//
// Precision follows the data, not a reading of the Python. Gymnasium mixes float32 and float64:
// numpy 1.24 promotes a float32 scalar meeting a Python number to float64, so Pendulum and
// MountainCarContinuous compute in float64 from their float32 action (only the clip to the
// action bounds happens in float32), MountainCarContinuous rounds its state to float32 after
// each step, and Acrobot rounds its reset state to float32 and integrates in float64. Measured
// against the reference file: computing Pendulum's 0.001·u² in float32 puts rewards off by
// 2.6e-10, against 0 when done in float64; MountainCarContinuous agrees exactly.
//
// Expressions keep Gymnasium's operation order, and constants such as 12·2π/360 and 9π are
// computed from π rounded to float64, as Python does, not folded exactly by the compiler. This
// is what makes the 1e-12 tolerance hold (largest error measured: 3.3e-15 relative). On
// architectures where the Go compiler fuses x·y+z into one instruction (arm64, ppc64, s390x),
// results may differ from Gymnasium's in the last bits; amd64 does not fuse.
//
// Reset draws from the rng it is given with Gymnasium's distributions, lo + (hi−lo)·u as numpy's
// uniform does, but from a Go random stream, not numpy's PCG64: a seed does not reproduce
// Gymnasium's initial state. Tests that need Gymnasium's exact states use SetState.
//
// Bad input gets an error where Gymnasium would silently go on: a NaN or infinite continuous
// action (Gymnasium would carry the NaN into the state), a non-finite state, and a step whose
// result would not be finite (possible only from extreme states or parameters). Finite actions
// outside the bounds are clipped, as in Gymnasium; MountainCarContinuous's reward still charges
// 0.1·a² on the action as given. Checking finiteness costs an absolute value and a comparison per state value.
// Observe and Render before the first Reset or SetState panic with an error wrapping
// ErrNotReset, like a use after Close; Step returns that error, as Gymnasium raises there.
//
// SetState accepts any finite state, even one the dynamics cannot reach (Gymnasium lets one
// assign env.unwrapped.state freely), and starts afresh: CartPole forgets that the pole has
// fallen (steps_beyond_terminated) and Pendulum its last torque, as after Reset. CartPole keeps
// Gymnasium's stepping after termination: the terminating step is rewarded 1, later ones 0, and
// nothing is logged. Acrobot's wrap of the angles adds or subtracts 2π as Gymnasium's loop does,
// but first reduces a value more than a thousand turns away, which Gymnasium's loop would take
// millions of iterations on.
//
// Not exported: Acrobot's torque_noise_max (0) and book_or_nips ("book"), class attributes that
// Gymnasium's registration never changes; noise would need an rng inside Step. Reset options
// (Gymnasium's low/high and x_init/y_init) are not supported.
//
// Rendering is drawn in Go by a small rasterizer (internal/raster) with Gymnasium's geometry and
// colours, without anti-aliasing, and Pendulum's torque arrow is drawn as a ring with an
// arrowhead instead of Gymnasium's bitmap. RenderTo reuses the caller's frame and does not
// allocate; Render allocates one frame per call, as Gymnasium's rgb_array mode returns a new
// array. Clearing the frame is most of the cost: raster's BenchmarkFill of a 600×400 frame takes
// most of the time of BenchmarkRenderTo of a whole CartPole frame.
package classic
