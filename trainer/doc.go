// Package trainer runs the training loops of gorl: Tianshou's
// OffPolicyTrainer, OnPolicyTrainer and OfflineTrainer, with test episodes,
// stop criteria, best-policy saving, statistics and checkpoints.
//
// # Overview
//
// A [Trainer] is built from an algorithm (package algo), a [Config] (the
// numbers: epochs, steps per epoch, collection size, updates per step or
// repeats per collection, batch size, test episodes, stop threshold) and a
// [Setup] (the envs, the buffer, the seed, the logger, the checkpoint path,
// hooks). New picks the loop from the algorithm, as Tianshou's
// algorithm.create_trainer does:
//
//	alg, _ := dqn.New(dqn.DefaultConfig(), obsSpace, actSpace, rng)
//	tr, _ := trainer.New(alg, trainer.DefaultConfig(), trainer.Setup{TrainEnvs: train, TestEnvs: test, Buffer: buf, Seed: 1})
//	defer tr.Close()
//	res, err := tr.Run(ctx)
//
// The loops:
//
//   - off-policy (an algo.OffPolicy with training envs): collect
//     StepPerCollect steps (or EpisodePerCollect episodes) with exploration,
//     then make round(UpdatePerStep × steps collected) updates of BatchSize
//     transitions sampled from the buffer; PrefillSteps are collected first.
//   - on-policy (an algo.OnPolicy): collect, then one update on the whole
//     collection in RepeatPerCollect passes of minibatches of BatchSize, then
//     reset the buffer.
//   - offline (an algo.OffPolicy without training envs): StepPerEpoch updates
//     per epoch sampled from a fixed buffer.
//
// The off-policy loop has an overlapped mode (Config.Overlap): a collector
// goroutine gathers collection i+1 with Setup.Actor's policy, a copy of the
// trained one, while the learner makes the updates owed to collection i.
// The collector writes into a stage that the trainer takes over after
// those updates: it starts the next collection, which the stage records
// apart, and replays the one taken over into the buffer beside it before
// updating. So collection runs at most one collection ahead of the updates, the learner never samples data the sequential loop
// would not have had, and the buffer needs no lock. The actor takes the
// learner's parameters at the start of every epoch and at the first
// hand-over after every Config.OverlapSync updates. While an overlapped
// epoch runs, the worker pool leaves out one processor (the collector
// goroutine's), and the two goroutines poll for each other's hand-off for
// a short while before they block on it.
//
// Each epoch ends with TestEpisodes test episodes. One test also runs before
// training; it sets the best policy so far but never stops the run, as in
// Tianshou, so a solved run has always trained. Training stops when the mean test return meets the stop
// criterion (Config.RewardThreshold, or Setup.Stop), or after Epochs epochs.
// With TestInTrain, a collection whose finished training episodes meet the
// criterion on average triggers the test at once, and a passing test stops
// training. Each test whose mean return beats all earlier ones calls
// Setup.SaveBest. Statistics go to Setup.Logger under the scopes "train",
// "update" and "test", at the number of training env steps.
//
// # Invariants
//
//   - The policy's training-step flag is on while collecting training data
//     and off during test episodes. Training collectors explore; test
//     collectors explore only with Config.TestExploration (the policy's
//     test-time noise, such as DQN's εTest).
//   - Algorithms implementing algo.Scheduled are told the number of training
//     env steps before every collection and every update.
//   - Train env i is seeded with Setup.Seed + i and test env i with Setup.Seed
//   - len(TrainEnvs) + i when the run starts; the trainer's own random
//     source (sampling, random actions) is seeded from Setup.Seed. A seed
//     therefore reproduces a run, with a reproducible algorithm.
//   - A checkpoint written at the end of an epoch holds the algorithm's state
//     (networks, target networks, optimizers, counters, random sources), the
//     buffer, the trainer's counters and random source, the envs' states and
//     the training collector's per-env state (last observations, hidden
//     states, running returns). Restore followed by Run continues as the
//     uninterrupted run would, for envs that save their state (see Restore).
//   - In the overlapped mode a seed still reproduces a run and a resumed run
//     continues as the uninterrupted one (checkpoints are written at the end
//     of an epoch, when no collection is in progress, and hold the actor's
//     state and the collector's random source), but the run is not the
//     sequential loop's: each collection uses parameters at least one
//     collection's updates old, and the collector explores with its own
//     random source and the actor's. A checkpoint of one mode does not
//     restore into the other.
//
// # Aliasing
//
// The trainer owns the envs of its Setup from New on and closes them in
// Close; it runs them in vector envs. It keeps Setup.Buffer and writes into
// it; Restore replaces it by the buffer loaded from the checkpoint
// (Trainer.Buffer).
//
// # Decisions
//
//   - One New picks the loop from the algorithm's methods (an OnPolicy
//     algorithm has UpdateRepeat; an OffPolicy one Update) and the setup (no
//     training envs: offline), instead of three constructors: algorithms
//     live above this package and cannot build their trainer themselves, and
//     this is the Go form of Tianshou's algorithm.run_training(params).
//   - Config holds only numbers (with JSON tags), Setup the live objects, so
//     a run writes its Config next to its logs and a configuration file
//     fills it.
//   - Episodes in progress at an epoch's end continue after a restore: the
//     checkpoint saves the envs' states (vector.Env.MarshalState) and what
//     the collector keeps per env (collector.Collector.MarshalState), so the
//     collector resumes with the same last observations and running
//     returns, and the training statistics stay whole. When an env cannot
//     save its state, the whole vector env is saved without states and reset
//     on restore: an all-or-nothing rule that keeps the saved collector
//     state consistent with the envs.
//   - Gradient steps per collection are round(UpdatePerStep × steps), with
//     Go's rounding of halves away from zero (Python's round rounds halves to
//     even: 0.5 × 5 steps gives 3 updates here, 2 in Tianshou).
//   - The on-policy trainer counts one gradient step per update of a whole
//     collection (its passes and minibatches are the algorithm's business).
//   - Training and update statistics are logged every LogInterval env steps
//     (Tianshou logs at intervals too), test statistics after every test:
//     each record is a write system call.
//   - Checkpoints replace the previous one through a temporary file and a
//     rename, so a crash while writing leaves the previous checkpoint intact.
//   - The overlapped mode hands collections over through a stage rather
//     than locking the replay buffer: the collector's writes (copies of the
//     vector steps' transitions, reused from one collection to the next)
//     are replayed into the buffer between two batches of updates, while
//     the next collection records into a second list. A lock
//     would let the learner sample transitions whose arrival depends on the
//     scheduler, so a seed would no longer reproduce a run, and would have
//     to be held through sampling and the n-step returns, whose target
//     network pass is a large part of an update. The price is one more copy
//     of each transition.
//   - The collecting policy is a second algorithm built by the caller
//     (Setup.Actor) whose policy parameters are copied from the learner's
//     with nn.Copy: every off-policy algorithm gets the mode through this
//     trainer, with no copy method of its own. Exploration schedules reach
//     it through algo.Scheduled; hooks that change the trained policy
//     directly (TrainHook) do not reach it.
//   - Collection runs at most one collection ahead, not more: with the
//     update-to-data ratio fixed per collection, a deeper queue would only
//     make the collecting parameters staler, and it cannot raise the
//     throughput above that of the slower of the two sides.
//   - What overlapping gains is bounded by collection's share of the time:
//     at most (C + U) / max(C, U) for collection C and updates U. Measured
//     for DQN (BENCHMARKS.md), an update costs as much CPU as about fifty
//     CartPole env steps, so at Tianshou's ratio (one update per 10
//     steps) collection is about a sixth of the time and the bound about
//     1.2×; it nears 2× only around one update per 50–100 steps. The
//     stage about doubles the cost of storing a vector step, a small
//     fraction of collecting it.
//   - The overlapped mode takes one processor out of the worker pool
//     (par.Reserve) rather than letting the learner hand tasks to helpers
//     beside a busy collector: on two processors a helper then waits for
//     the collector's processor while the learner runs the task itself.
//     Holding the collector back while the learner's tasks run (a gate the
//     collector checks after each vector step) was measured too and gained
//     less (BENCHMARKS.md).
//   - The hand-offs poll before they block: a blocked goroutine's wake-up
//     can take as long as a short collection, and the two sides hand over
//     once per collection. The polling costs CPU time, not wall time, on
//     an otherwise idle machine.
package trainer
