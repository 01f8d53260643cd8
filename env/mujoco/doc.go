// Package mujoco implements Gymnasium's v4 MuJoCo tasks on the MuJoCo
// physics library: InvertedPendulum-v4, InvertedDoublePendulum-v4,
// Reacher-v4, Swimmer-v4, Hopper-v4, Walker2d-v4, HalfCheetah-v4, Ant-v4
// and Humanoid-v4, registered with the env package under those ids.
//
// # Overview
//
// Importing the package registers the tasks; env.Make("HalfCheetah-v4")
// then compiles the task's model and wraps it in Gymnasium's TimeLimit
// (1,000 steps; 50 for Reacher, as Gymnasium registers it). The library is
// Debian's libmujoco2.2.2 (package libmujoco-dev), loaded when the first env
// is made, without cgo; where it is missing, New and env.Make return an
// error wrapping ErrNoLibrary that names the package to install. Each task
// follows Gymnasium's v4 class with its default arguments: frame skip,
// observation layout, reward terms and weights, healthy ranges and
// termination, reset noise. RewardTerms reports the last step's terms under
// Gymnasium's info keys; SetState, QPos and QVel are Gymnasium's set_state
// and data.qpos/qvel.
//
// # Invariants
//
//   - Equal seeds give equal episodes for equal actions, bit for bit, in
//     any instance: the reset noise comes from the env's PCG source and the
//     physics is deterministic.
//   - MarshalState saves everything the next steps depend on (time, qpos,
//     qvel, the solver's warm start, the controls, the bodies' lagging
//     positions, the observation, the random stream), so a restored env
//     continues exactly as the saved one.
//   - Step and Reset do not allocate. An Env is not safe for concurrent
//     use; distinct envs share nothing but the loaded library.
//
// # Aliasing
//
// Step and Reset return the env's own observation array, overwritten by
// the next call; Render returns the env's own frame, redrawn by the next
// Render. QPos and QVel return copies; SetState copies its arguments.
//
// # Where the tasks differ from Gymnasium
//
//   - Observations are float32 (Gymnasium's are float64), as in the
//     classic-control envs: the networks compute in float32. Reward,
//     termination and the state are computed in float64 as in Gymnasium.
//   - The reset noise is drawn from a Go random stream with Gymnasium's
//     distributions, not from numpy's PCG64: a seed does not reproduce
//     Gymnasium's initial states.
//   - The models are written for this package with the bodies, joints,
//     masses, gears, contact parameters and solver options of Gymnasium's
//     asset files (Hopper and Walker2d in local coordinates; textures,
//     lights and cameras left out, since Render does not use them).
//     Walker2d keeps the v4 model's left-foot friction of 1.9.
//   - Gymnasium's v4 semantics are kept where they look like slips:
//     Reacher rewards the distance before the step, Humanoid leaves the
//     contact cost out of the reward, and the torso and mass-centre
//     positions that Ant's and Humanoid's forward rewards read lag the
//     positions by one physics step (MuJoCo computes them before it
//     integrates), as in Gymnasium.
//   - Info is empty; the reward terms are read with RewardTerms.
//   - Optional constructor arguments of Gymnasium's classes (weights,
//     ranges, use_contact_forces, ...) are not exposed: the tasks are
//     those of the registered defaults.
//   - Render draws an orthographic projection of the geoms in Go instead
//     of MuJoCo's OpenGL renderer (see Render).
//
// # Decisions
//
// The library is loaded through purego, as the tensor package loads
// OpenBLAS, so the default build needs neither cgo nor MuJoCo; a cgo
// binding behind a build tag, as for HDF5, would have taken the tasks out
// of the default binary. The functions called take only pointers and
// integers (mj_loadXML, mj_makeData, mj_step, mj_forward,
// mj_rnePostConstraint, mj_resetData, mj_name2id, mj_deleteData,
// mj_deleteModel). The mjModel and mjData fields are read at byte offsets
// printed from the 2.2.2 headers by testdata/offsets.c (offsets.go); the
// library's mj_version must be 222, and a test rebuilds the program
// against the installed headers and compares. The arrays MuJoCo allocates
// in mj_makeData are used as Go slices in place, so observing copies
// nothing twice. Each call passes its arguments from a slice kept in the
// env, so calls through purego do not allocate. The measured cost of the
// binding is in docs/design.md.
//
// mj_loadXML reads files, so a model's embedded MJCF text is written to a
// temporary file for the compile; loads are serialized.
//
// When a physics step meets a NaN, infinite or huge value in the positions,
// velocities, accelerations or controls, MuJoCo resets the simulation (or
// zeroes the controls) and goes on; Gymnasium's tasks go on with it, so the
// next transition jumps to the initial pose as if nothing had happened.
// Step instead reads mjData's warning counts after the frame skip and
// returns ErrUnstable, ending the episode. The package also installs its
// own mju_user_warning handler (a purego callback), because MuJoCo's
// default prints to standard output and appends to MUJOCO_LOG.TXT in the
// working directory, a file that does not belong to any run; the handler
// keeps the text for ErrUnstable's message. The handler is one per process,
// so with envs stepping on several goroutines the text may be another
// env's warning; which env failed comes from its own counts. MuJoCo's error
// handler (mju_user_error) is left as it is: it ends the process, which
// the vector env's process workers isolate.
package mujoco
