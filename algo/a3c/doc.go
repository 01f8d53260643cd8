// Package a3c is the asynchronous advantage actor-critic (Mnih et al.,
// "Asynchronous Methods for Deep Reinforcement Learning", 2016; Machin's
// A3C): N workers, each with its own env and copy of the networks,
// compute n-step actor-critic gradients and push them to the shared
// model, whose optimizer applies each as it arrives; the workers pull the
// new weights before their next rollout.
//
// # Overview
//
// Run starts Config.Workers workers as goroutines and serves the shared
// model from the calling goroutine's side, all on one cluster.Transport
// (an embedded NATS server for a one-process run, or a real deployment).
// A worker collects NSteps env steps, estimates returns and advantages
// and computes the gradient of A2C's loss with its own a2c.A2C
// (Preprocess, then Gradients), and pushes it with a cluster.GradPusher
// tagged with the weights version it was computed on. The holder applies
// it with one Adam shared by all workers (the paper's shared statistics),
// clipping its global norm when MaxGradNorm is set, and publishes the new
// weights as the next version of a cluster.ParamServer; the worker fetches
// that version and goes on.
//
// With Setup.Remote, Run starts no workers: each runs RunWorker in a
// process of its own, reports its env steps and episodes to the holder
// (cluster.Report) and stops when the holder's status says the run is
// over (cluster.Status). Setup.Restore loads a saved shared model before
// its first weights are published, and its versions go on from the
// restored updates.
//
// # Invariants
//
//   - Each pushed gradient is applied once, even when a reply is lost and
//     the worker sends it again (cluster.GradServer).
//   - Gradients are applied one at a time, in the order they arrive; a
//     worker never waits for another, only for its own push and fetch.
//   - Setup.After sees the shared model between two updates, never during
//     one.
//
// # Decisions
//
//   - The loss is A2C's, computed by package a2c: A3C differs in where the
//     optimizer step runs, not in what is minimized.
//   - Gradients travel as float32 values in the order of the networks'
//     trainable parameters; workers and holder build the same networks
//     from the same Config, so no names are sent.
//   - The shared optimizer is the holder's A2C's own (actorcritic.Optimizer,
//     stepped with Apply on the pushed gradients), so that the A2C's Save
//     and Load carry its moments and a restored run goes on with them.
//   - After a push, a worker fetches the version the holder answered with,
//     not one above its own: a holder restarted from a checkpoint numbers
//     its versions from the restored updates, below the worker's.
//   - The run is not reproducible bit for bit: the order in which the
//     workers' gradients arrive depends on the scheduler. A seed fixes
//     every network's initialization and every random stream.
package a3c
