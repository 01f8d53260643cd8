// Package bc implements behaviour cloning, supervised learning of a policy
// from logged transitions (Tianshou's ImitationPolicy), as an
// algo.OffPolicy algorithm for the offline trainer.
//
// # Overview
//
// [New] builds a BC from a [Config] and the env's spaces: an MLP from the
// observation to one logit per action (Discrete action space) or to the
// action (Box action space), Adam, and a deterministic policy. The update
// cycle (algo.Learner, or the trainer's offline loop over a buffer loaded
// with buffer.Load):
//
//   - Preprocess and Postprocess: nothing.
//   - Update: one Adam step on the mean over the batch of the cross entropy
//     −log softmax(logits(s))[a] of the logged action a (Discrete), or of
//     the squared error ‖f(s) − a‖²/m (Box of m dimensions), with optional
//     gradient-norm clipping.
//
// The policy acts with the action of largest logit (Discrete) or with the
// network's output mapped to the Box by Config.Map (Box), in every mode: it
// never samples and adds no exploration noise.
//
// # Invariants
//
//   - The network learns actions in the form the buffer stores them, which
//     is the collecting policy's form before its action mapping; Config.Map
//     must repeat that mapping for a Box.
//   - An update cycle (sample, update) and acting allocate nothing in
//     steady state (locked by AllocsPerRun tests).
//   - Save writes every piece of state (network, Adam's moments, the update
//     counter), so Load into a BC of the same configuration continues bit
//     for bit, and the offline trainer's checkpoints resume exactly (tested
//     with the trainer).
//   - Bad batches (missing keys, actions outside the space or of the wrong
//     shape or dtype) are errors that leave the network unchanged.
//
// # Aliasing
//
// The statistics map Update returns is reused by the next Update; the actions
// Act writes are the policy's memory until its next call. Network returns the
// network itself.
//
// # Decisions
//
//   - Continuous actions are learned by mean squared error, as Tianshou's
//     ImitationPolicy does, not by the log-likelihood of a Normal
//     distribution: the policy stays deterministic (no standard deviation to
//     learn or to sample from) and its loss needs no distribution head.
//   - The Discrete policy takes the argmax of the logits, not a sample, as
//     Tianshou's ImitationPolicy does: a cloned expert is evaluated by its
//     most likely action.
//   - Discrete actions of any integer dtype are accepted (cast to int64 with
//     nd.CopyTo into scratch memory, no allocation); float actions for a
//     Discrete space are an error rather than a silent truncation.
//   - DefaultConfig is Tianshou's imitation settings in its CartPole test
//     (two hidden layers of 64, lr 1e-3). On CartPole (gorl bench
//     offline-cartpole), 2,000 updates on 20,000
//     transitions collected with ε = 0.1 by a DQN that had reached a mean
//     test return of 198–270 gave mean test returns of 248–342 over 100
//     episodes on 5 of 5 seeds.
package bc
