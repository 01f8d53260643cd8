// Package rppo is recurrent PPO: proximal policy optimization with a GRU
// policy, for partially observed envs such as CartPoleNoVel-v1 (CartPole
// without its velocities), where a feed-forward policy cannot tell which
// way the pole is moving.
//
// # Overview
//
// The Policy steps a GRU cell (nn.GRUCell) over each env's observations;
// the collector keeps every env's hidden state between steps ("state") and
// zeroes it at an episode's start. The policy also stores the state it
// acted from with each transition, under "policy.state_in" (KeyStateIn).
// Preprocess cuts the collection into sequences of at most SeqLen steps
// that never cross an episode's end (actorcritic.Chunks), steps the GRU
// through them from their stored start states to get the old
// log-probabilities and the values, and computes GAE. UpdateRepeat draws
// minibatches of whole sequences, each started from its stored state, and
// backpropagates PPO's clipped loss through time within each sequence.
//
// # Invariants
//
//   - No gradient crosses a sequence's start: its state is a constant read
//     from the collection. A sequence starting an episode starts from zero,
//     as the collector's state did.
//   - The losses are means over the valid steps only: the padding after a
//     short sequence's end is masked (actorcritic.Packed.MaskTo).
//   - Right after collection, stepping the GRU from a stored start state
//     gives the states stored for the following steps (tested), so the
//     first pass of an update sees exactly the policy that acted.
//
// # Aliasing
//
// Preprocess stores "v_s", "returns", "adv" and "logp_old" in the batch as
// arrays that are memory of the RPPO, overwritten by the next Preprocess.
// The Policy's outputs ("act", "state", "policy") are its memory, valid
// until its next Act.
//
// # Decisions
//
//   - A package of its own rather than an option of ppo: everything PPO's
//     update does per row (shuffled rows, a feed-forward Net, the Rollout's
//     minibatches) changes for sequences (chunking, hidden states in and
//     out of the policy, unrolling in time, masked losses), so an option
//     would branch every step of ppo. The clipped objective itself is a
//     few lines, written here again over masked means.
//   - Stored states, not burn-in: each sequence starts from the state the
//     policy had when it acted, which is exact for the first pass of an
//     on-policy update and only slightly stale after the networks change
//     within the update. Without "policy.state_in" in the batch (data
//     collected by another policy) sequences start from zero.
//   - Padded sequences in the update, packed ones in Preprocess: a
//     minibatch is laid out as SeqLen steps × its sequences whatever their
//     lengths, so every minibatch of one size records the same operations
//     and the steady state allocates nothing; Preprocess, run once per
//     collection, steps only the rows that exist.
//   - One GRU shared by actor and critic, with an MLP head each: one state
//     per env to keep, and the critic's gradient shapes the memory too.
//   - Discrete action spaces only, for now; New refuses others by name.
package rppo
