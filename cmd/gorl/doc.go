// Command gorl trains, evaluates and benchmarks reinforcement-learning agents
// with the gorl packages.
//
// # Overview
//
//	gorl train --algo dqn --env CartPole-v1 [--seed N] [--config FILE] [--logdir DIR] [--set path=value]... [--resume | --overwrite]
//	gorl train --algo bc|bcq --dataset FILE [--env ID] [...]
//	gorl eval [--episodes N] [--seed N] [--explore] [--gif FILE] POLICY_OR_RUN_DIR
//	gorl list
//	gorl bench [--seeds N] [RUN]...
//	gorl dashboard [RUNS_DIR] [--addr 127.0.0.1:6006]
//	gorl train --algo apex-dqn|apex-ddpg|impala|a3c [--actors N] [--nats URL[,URL]] [...]
//	gorl serve [--host 127.0.0.1] [--port 4222]
//	gorl learner --connect URL --algo apex-dqn|apex-ddpg|impala|a3c [--actors N] [--logdir DIR] [--resume]
//	gorl actor --connect URL --id N [--group NAME]
//
// train builds a run from the algorithm's registered defaults for the env,
// then a JSON configuration file (--config), then --set assignments (a dotted
// path into the configuration and a JSON value: --set trainer.epochs=5,
// --set algorithm.hidden=[64,64], --set algorithm.prioritized.alpha=0.6).
// It writes the full configuration to DIR/config.json before training, logs
// to DIR (TensorBoard events and log.jsonl), prints one line per epoch,
// writes the best policy (DIR/best.gorl, at every new best test return), the
// last one (DIR/last.gorl) and a checkpoint (DIR/checkpoint.gorl) after every
// epoch. --resume continues the run of DIR from its checkpoint with its
// config.json; a --set may change only the settings that do not shape what
// the checkpoint holds (mutableOnResume: trainer.epochs and a few more),
// each change recorded in DIR/resumes.jsonl and config.json. A run with no
// checkpoint yet starts over. --overwrite replaces the run in DIR. The
// offline algorithms (gorl list marks them) learn from --dataset FILE, a
// buffer written by the buffer package's Save or gorl collect, or an HDF5
// file in the D4RL layout (with -tags hdf5), whose observations and actions
// fit the env's spaces, instead of from training envs; the env runs their
// tests.
//
// SIGINT and SIGTERM stop a command; train then prints where the run
// stopped, its checkpoint and the command that continues it, and exits with
// status 130. A second signal exits at once.
//
// Before it writes anything or builds an env, train checks the whole
// configuration: the numbers of envs (at most 10,000 each; an online
// algorithm needs train_envs ≥ 1), the trainer's settings for the loop the
// algorithm runs (a batch no larger than the buffer or dataset; with
// trainer.test_episodes=0 no tests run and the best policy is the last),
// the algorithm's settings, and an estimate of the memory the run takes
// (buffer columns from the env's spaces, networks with gradients and
// optimizer state, batches, envs) against the memory available:
// MemAvailable in /proc/meminfo, or the room under the cgroup's
// memory.max where that is less. The environment variable GORL_MEMORY
// overrides that figure (GORL_MEMORY=64GiB) or turns the check off
// (GORL_MEMORY=off). Each refusal names the setting at fault.
//
// When an env panics, the run fails with a one-line error and the panic's
// stack is appended to DIR/error.log (and printed with train --verbose). A
// panic in gorl itself ends the command with a one-line "internal error"
// and its stack in a gorl-panic-*.log file of the temporary directory
// (printed too with --verbose).
//
// eval loads a policy file (or DIR/best.gorl), rebuilds the algorithm from
// the configuration stored in it, runs episodes and prints their mean and
// standard deviation; --gif writes an animated GIF of one more episode from
// the env's rendered frames. It refuses a policy whose weights are not
// finite, naming the parameter. list prints the envs and algorithms. bench runs
// the learning and speed comparisons; gorl bench -h lists them.
//
// dashboard serves a read-only web page of the runs in RUNS_DIR (default
// runs; a run directory opens the page on that run) with their configs,
// learning curves that follow log.jsonl as it grows, and the newest .gif of
// each run directory (package dashboard). It listens on the loopback
// address unless --addr says otherwise. train --dashboard serves it beside
// the run while the run trains, on 127.0.0.1:6006 or a free port when that
// one is taken.
//
// # Extending
//
// Algorithms plug in with Register[C], C the algorithm's configuration
// type (name, defaults, constructor from the configuration and the env's
// spaces, optional buffer, whether it learns offline), and bench runs with
// RegisterBench, each from an init function in a file of its own
// (algo_<name>.go, bench_<name>.go); SolveSpec and solveRuns give a learning
// or speed run over seeds in a few lines.
//
// # Invariants
//
//   - Every run writes its full configuration before training, and every
//     policy file embeds it, so eval and --resume rebuild the same
//     algorithm; a configuration naming a field that does not exist is an
//     error, not a silently ignored setting.
//   - A seed reproduces a run (envs, weights, sampling), and a run that was
//     stopped and resumed logs what the run never stopped logs: on resume
//     the records logged after the checkpoint are cut from log.jsonl and the
//     older TensorBoard event files, and logged again.
//   - One run per directory: train refuses a directory that holds a run
//     without --resume or --overwrite, and a directory locked by a live run
//     (an flock on DIR/gorl.lock, which the system drops when a process
//     dies, so a crash leaves no stale lock).
//
// # Decisions
//
//   - Hyperparameters are set through one generic --set flag over the JSON
//     configuration rather than one flag per hyperparameter: every field of
//     every algorithm is reachable without code in the command, and the
//     names are those of config.json.
//   - A run stops by default at its env's registered stop threshold
//     (env.Spec.StopThreshold): that of Tianshou's tests where they set
//     one (195 on CartPole-v1, where Gymnasium registers 475; −250 on
//     Pendulum-v1, where it registers none), else Gymnasium's reward
//     threshold; without either it runs all its epochs.
//   - Cut event files rather than overlapping ones on resume: TensorBoard
//     hides the older of two records at a step (it drops events at or past
//     a step that goes back), but other readers of event files show both.
//   - Policy files are algo.SaveParts containers of the run configuration
//     and the policy's parameters (safetensors), written atomically.
package main
