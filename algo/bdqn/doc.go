// Package bdqn implements the branching dueling Q-network (Tavakoli et al.,
// "Action Branching Architectures for Deep Reinforcement Learning", 2018)
// as Tianshou's BDQN trains it, an algo.OffPolicy algorithm for
// multi-dimensional discrete actions: a MultiDiscrete action space, or a
// Box discretized into Bins points per dimension.
//
// # Overview
//
// [New] builds a [BDQN] from a [Config] and the env's spaces: a [Branching]
// network (a shared trunk, a state-value head and one advantage head per
// action dimension, Qᵈ = V + Aᵈ − mean Aᵈ), its target copy, Adam and an
// ε-greedy policy that takes the greedy action of every branch and, with
// probability ε, a uniformly random action for the whole observation.
// [DefaultConfig] is the setting of Tianshou's BDQN test on Pendulum. Each
// update is
//
//   - Preprocess: the n-step targets y = Σγᵗrₜ + γⁿ·mean_d Q′ᵈ(s′,
//     argmax_a Qᵈ(s′, a)) through algo.QReturns (no bootstrap after
//     termination, one after truncation);
//   - Update: Adam on mean_{b,d}(y_b − Qᵈ(s_b, a_bᵈ))², then the target's
//     copy every TargetUpdateFreq gradient steps.
//
// ε decays per env step as Tianshou's test does (algo.Scheduled).
//
// # Invariants
//
//   - An update cycle allocates nothing once a batch of the same size has
//     been seen (locked by algotest.CheckOffPolicy's AllocsPerRun test).
//   - Save writes both networks, Adam's state, the policy's random source
//     and the counters; a loaded BDQN continues bit for bit.
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "returns" as an array that is memory of the BDQN,
// overwritten by its next Preprocess. The statistics map is reused.
//
// # Decisions
//
//   - Config.Hold makes the ε-greedy exploration temporally extended
//     (policy.Hold, εz-greedy): the random action of all branches is kept
//     for a drawn number of steps, one hold per env rather than per
//     branch, since Tianshou's exploration replaces the whole action too.
//     Without it no training episode reaches MountainCarContinuous's flag
//     (random forces drawn at every step average out); with it the
//     preset meets the bar (LEARNING.md).
//   - A Box is discretized inside the policy rather than by wrapping the
//     envs: its actions are the indices of the points env.ContinuousToDiscrete
//     maps to (env.ActionMesh, one mesh for both), stored in the buffer as
//     float32 in the Box's dtype, and MapActionTo sends the points to the
//     env (collector.ActionMapper, Tianshou's map_action). gorl's command
//     builds envs from their ids alone, so `gorl train --algo bdqn --env
//     Pendulum-v1` learns through the same discretization with no wrapper
//     option; a library user may equally wrap the env in
//     env.ContinuousToDiscrete and give BDQN its MultiDiscrete space.
//   - Random actions (random prefill) are mapped back to the nearest point,
//     so the buffer holds one form of action; the trainer's default prefill
//     acts with the policy, as Tianshou's test does.
//   - The loss is the squared error without Huber or gradient clipping, and
//     the replay is uniform, as in Tianshou's BDQN.
package bdqn
