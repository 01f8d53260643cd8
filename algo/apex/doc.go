// Package apex is Ape-X DQN (Horgan et al., 2018; Machin's DQNApex): many
// actors, each with its own env, ε and copy of the Q network, feed one
// distributed prioritized buffer; one learner samples it, updates the
// network and the priorities, and publishes its weights for the actors.
//
// # Overview
//
// Run starts Config.Actors actors as goroutines and runs the learner in the
// calling goroutine, all on one cluster.Transport: an embedded NATS server
// for a one-process run, or a real deployment. Actor i explores with
// εᵢ = ε^(1 + α·i/(N−1)) (ε 0.4, α 7 by default), gathers n-step
// transitions, computes their initial priorities |G − Q(s, a)| with its own
// network and adds them to its shard in small batches. The learner is a
// dqn.DQN (double Q-learning, target network) that reads the n-step
// returns the actors gathered, and publishes its online network's
// parameters every PublishEvery updates through a cluster.ParamServer;
// actors pick up the newest version every SyncEvery env steps without
// waiting for it.
//
// RunDDPG is Ape-X DDPG (Machin's DDPGApex) on the same loop: actor i
// explores with Gaussian noise of its own scale σᵢ = σ·spread^(½ − i/(N−1))
// around DDPG's σ, computes initial priorities |G − Q(s, a)| with its copy
// of the critic and the targets (the learner publishes all four networks),
// and the learner is a ddpg.DDPG whose critic step weighs the squared TD
// errors by the buffer's importance weights.
//
// With Setup.Remote (DDPGSetup.Remote) the learner starts no actors: they
// run RunActor (RunDDPGActor) in other processes on the same transport.
// Setup.Restore (DDPGSetup.Restore) loads a saved learner before its first
// weights are published.
//
// # Invariants
//
//   - No actor waits on the learner and the learner waits on no actor
//     beyond the sample deadline: a lost actor shrinks the buffer, it does
//     not stop training.
//   - A transition's n-step return stops at the end of its episode; a
//     terminated one does not bootstrap, a truncated one bootstraps from
//     its last observation with γᵏ for the k steps it holds.
//
// # Decisions
//
//   - One loop serves both algorithms through a small agent interface
//     (acting policy, published weights, bootstrap values, TD errors,
//     update); the actions a transition stores are indices for DQN and
//     raw actor outputs for DDPG, mapped into the env's Box only for Step.
//   - Actors gather n-step returns themselves and send ready transitions
//     (obs, act, n-step reward, obs_next, flags and the discount γᵏ), as in
//     the paper: a shard holds no episodes, so the learner cannot look
//     ahead in it, and a transition is sent once.
//   - The run is not reproducible bit for bit: actors and learner
//     interleave as the scheduler lets them. A seed fixes every network's
//     initialization and every random stream.
package apex
