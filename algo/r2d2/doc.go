// Package r2d2 is recurrent DQN in the style of R2D2 (Kapturowski et al.,
// "Recurrent Experience Replay in Distributed Reinforcement Learning",
// 2019), in one process: a recurrent Q network for partially observed envs
// such as CartPoleNoVel-v1, learned from sequences of the replay buffer.
//
// # Overview
//
// The Policy steps an LSTM or GRU cell (nn.LSTMCell, nn.GRUCell) over each
// env's observations and acts ε-greedily on the Q-values of a head after
// it; the collector keeps every env's state between steps ("state") and
// zeroes it at an episode's start, and the policy stores the state it
// acted from with each transition, under "policy.state_in" (KeyStateIn).
// With Config.Hold the random actions are held for drawn durations
// (εz-greedy, policy.Hold, as DQN's option); the hold's rows then ride in
// the collector's state beside the recurrent state, so both restart with
// every episode.
//
// Every sampled transition is the first trained step of a sequence:
// Preprocess walks the buffer back BurnIn steps (fewer at an episode's
// start) and forward SeqLen + NStep steps (fewer at an episode's end or at
// the newest step of an unfinished one), steps the online and the target
// network through the burn-in from the state stored at its first step,
// without gradient, then through the rest to compute each trained step's
// n-step double-Q target (algo.NStep's windows; value-rescaled with
// ValueRescale). Update steps the online network from the burned-in states
// through the SeqLen trained steps, backpropagates the importance-weighted
// squared TD errors through time, copies the target network every
// TargetUpdateFreq steps, and gives each sequence the priority η·max|δ| +
// (1 − η)·mean|δ| over its trained steps, which Postprocess hands to a
// prioritized buffer at the sequence's first trained step.
//
// # Invariants
//
//   - A sequence never crosses an episode boundary: its slots past an
//     end (and before its episode's start, in the burn-in) are padding,
//     masked out of the loss and the priorities (tested: filling the
//     padding with other numbers changes nothing).
//   - No gradient reaches the burn-in: its steps run on a tape without
//     gradients, and the trained part starts from their result as a
//     constant (tested on the inputs' gradient).
//   - Right after collection, the burn-in from a stored state arrives at
//     the state stored at the sequence's first trained step (tested), so
//     stored states and recomputed ones agree until the weights change.
//   - A terminated step's target does not bootstrap; a truncated or
//     unfinished one does, from the observation after it.
//
// # Aliasing
//
// Preprocess stores "returns" ([m, SeqLen], the targets) in the batch as an
// array that is memory of the R2D2, overwritten by the next Preprocess; TD
// and Priorities return memory overwritten by the next Update. The
// Policy's outputs ("act", "state", "policy") are its memory, valid until
// its next Act.
//
// # Decisions
//
//   - One sequence per sampled transition, rather than stored overlapping
//     sequences as the paper keeps: the ordinary replay buffers, their
//     prioritized forms and the trainers serve unchanged, every stored
//     step can start a trained part, and a sequence's priority lives at its
//     first trained step. The price is walking the buffer for each sample.
//   - Burn-in backwards from the sampled step, so that the step itself is
//     always trained; a shorter burn-in at an episode's start is exact,
//     since the stored state there is zero.
//   - The targets are computed in Preprocess, once per sampled batch, from
//     the online and the target network stepped through the whole
//     sequence from their burned-in states, as the paper's learner does;
//     the trained part of the update is padded to SeqLen steps for every
//     batch, so that every update records the same operations and the
//     steady state allocates nothing.
//   - The loss is the mean over the valid trained steps of the
//     importance-weighted squared errors; the paper's value rescaling is
//     an option, off by default: CartPole's returns are small.
//   - A package of its own rather than an option of dqn: sequences, states
//     in and out of the policy, burn-in and per-sequence priorities change
//     every step of DQN's update.
package r2d2
