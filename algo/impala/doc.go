// Package impala is IMPALA (Espeholt et al., 2018; Machin's IMPALA): actors
// run a copy of the policy and send whole unrolls of a fixed length through
// a distributed buffer; one learner corrects for the lag between the
// actors' policies and its own with V-trace and broadcasts its weights.
//
// # Overview
//
// Run starts Config.Actors actors as goroutines and runs the learner in the
// calling goroutine, on one cluster.Transport. An actor collects Unroll
// steps of its env with a collector into a small buffer, computes the
// behaviour policy's log-probabilities of its actions, and adds the unroll
// as one row to its shard of a distributed.Buffer (a ring of QueueSize
// unrolls, so that what the learner samples is recent). The learner samples
// BatchSize unrolls across the shards, evaluates its network on them,
// computes V-trace targets and advantages (VTrace) and takes one Adam step
// on
//
//	L = −mean(log π(a|x)·adv) + VFCoef·mean((v − V(x))²) − EntCoef·mean(H[π(·|x)]).
//
// It publishes its weights after every PublishEvery updates; actors take
// the newest version before each unroll.
//
// # Invariants
//
//   - An unroll's row holds obs and obs_next [T, …], act, the rewards
//     ("rews"), the behaviour log-probabilities ("logp"), and per step
//     whether the episode terminated ("terms") and whether it continues in
//     the unroll ("conts"); its rew is the unroll's reward sum.
//   - The trace stops at episode ends inside an unroll; a truncated episode
//     and the unroll's last step bootstrap from V of their next
//     observation.
//
// # Decisions
//
//   - Actors collect with the collector and a one-env vector env, as local
//     training does, rather than with a loop of their own: episode ends,
//     resets and time limits are handled in one place.
//   - The run is not reproducible bit for bit: actors and learner
//     interleave as the scheduler lets them.
package impala
