// Package rppo is recurrent PPO: proximal policy optimization with a GRU
// or LSTM policy, for partially observed envs such as CartPoleNoVel-v1
// (CartPole without its velocities), where a feed-forward policy cannot
// tell which way the pole is moving, and memory tasks such as TMaze-v0.
//
// # Overview
//
// The Policy steps a recurrent cell (nn.GRUCell or nn.LSTMCell, Config.Cell)
// over each env's observations, one shared by the actor and the critic or
// one each (Config.SeparateTrunks);
// the collector keeps every env's hidden state between steps ("state") and
// zeroes it at an episode's start. The policy also stores the state it
// acted from with each transition, under "policy.state_in" (KeyStateIn).
// Preprocess cuts the collection into sequences of at most SeqLen steps
// that never cross an episode's end (actorcritic.Chunks), steps the cell
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
//   - Right after collection, stepping the cells from a stored start state
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
//   - One array per env holds every kind of state: the GRU's h, the LSTM's
//     h and c side by side, and with separate trunks the actor's state
//     followed by the critic's (Net.StateWidth values). The collector,
//     the stored "policy.state_in", the chunks and the unrolls stay the
//     same for every cell; the LSTM pays a slice and a concatenation per
//     step.
//   - A shared trunk by default, with an MLP head each: one state per env
//     to keep, and the critic's gradient shapes the memory too. Separate
//     trunks (as SB3-contrib's RecurrentPPO has by default) keep the
//     value's large gradients out of the actor's memory, at twice the
//     recurrent work; the critic's trunk steps at collection too, so that
//     its stored state is exact.
//   - Box actions use PPO's Gaussian with a state-independent σ starting
//     at exp(LogStdInit), 1 by default (actorcritic.NormalHead), and a
//     policy.BoxMap to the env's bounds. RewardScale is a fixed factor
//     rather than PPO's running return scaling: one number in the config,
//     and GAE's linearity lets Preprocess apply it to values instead of to
//     the buffer's rewards.
//   - State-dependent exploration (Config.SDE) is PPO's head,
//     actorcritic.SDEHead, not a copy: it reads the output of the actor's
//     last head layer, or the cell's h without head layers (the features
//     the mean is computed from, as gSDE's paper takes the policy's last
//     latent layer), and owns the mean layer. The log-probabilities of
//     the ratio, old and new, are those of its state-dependent Gaussian.
//     Its matrices are redrawn every SDESampleFreq samples and after every
//     Preprocess, so that each collection starts with new noise as
//     Stable-Baselines3's does (PPO, without that signal, counts samples
//     only); the matrices and the count are saved with the state.
package rppo
