// Package a2c implements the synchronous advantage actor-critic (Mnih et
// al., "Asynchronous Methods for Deep Reinforcement Learning", 2016) as an
// algo.OnPolicy algorithm.
//
// # Overview
//
// [New] builds an [A2C] from a [Config] and the env's spaces: an actor and a
// critic (an actorcritic.Net, by default one MLP trunk with two linear
// heads; a Categorical head for a Discrete action space, an
// actorcritic.NormalHead for a Box), Adam, and a policy.Actor. Each update
// (algo.Learner.StepAll, driven by the on-policy trainer) is
//
//   - Preprocess: the critic's values V(s) and V(s′) without gradients, the
//     GAE advantages Â and the returns G = Â + V (actorcritic.GAE, over the
//     buffer with algo.Episodic: terminated steps do not bootstrap,
//     truncated ones and the end of a collection do), stored as "v_s", "adv"
//     and "returns";
//   - UpdateRepeat: passes over shuffled minibatches, one step each on
//     −mean(log π(a|s)·Â) + VFCoef·mean((G − V(s))²) − EntCoef·mean(H[π(·|s)]),
//     with the gradients' norm clipped when MaxGradNorm is set.
//
// A2C embeds actorcritic.Critic: Policy, Schedule (learning-rate decay),
// Postprocess, Save and Load come from there, and so does the advantage
// estimation, shared with PPO.
//
// # Invariants
//
//   - An update allocates nothing once a collection of the same length and
//     observation structure has been seen (locked by AllocsPerRun tests for
//     both heads).
//   - Save writes the networks, Adam's state, the random sources and the
//     counters (with the return statistics of ReturnScaling); a loaded A2C
//     continues bit for bit (tested).
//   - Bad batches (missing keys, actions outside the space) are errors that
//     leave the networks unchanged.
//
// # Aliasing
//
// Preprocess stores "v_s", "returns" and "adv" in the batch as arrays that
// share the A2C's memory, overwritten by its next Preprocess or
// UpdateRepeat. The statistics map is reused between updates.
//
// # Decisions
//
//   - DefaultConfig is Tianshou's CartPole A2C test (a shared trunk of two
//     layers of 64, PyTorch's default initialization, γ 0.9, λ 1, lr 1e-3)
//     with deterministic evaluation; gorl bench a2c-cartpole runs it with
//     the trainer settings of that test (BENCHMARKS.md has the figures).
//   - The entropy is computed for the statistics ("entropy") even when
//     EntCoef is 0, as Tianshou computes its ent_loss; it enters the loss
//     only with a positive EntCoef, so its backward pass costs nothing then.
//   - On Acrobot the CartPole settings never leave −500, and no bug was
//     found (advantage sign, truncation against termination, reward scale
//     and entropy were checked). Every reward is −1 until the goal, so before
//     any episode reaches it the advantages of a collection share a negative
//     offset; with Tianshou's many minibatch steps per collection (episodes
//     of 500 steps in minibatches of 64) that offset pushes each taken action
//     down again and again, and the policy turns deterministic before an
//     episode reaches the goal. Collections of 80 steps (16 envs × 5, as
//     rl-zoo's A2C) learned in one gradient step, with separate actor and
//     critic networks, γ 0.99 and a gradient norm of 0.5, solve it on 5 of
//     5 seeds within 50k–172k env steps: gorl's A2C preset for Acrobot-v1
//     (LEARNING.md has the matrix figures).
package a2c
