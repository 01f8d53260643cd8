// Package a2c implements the synchronous advantage actor-critic (Mnih et
// al., "Asynchronous Methods for Deep Reinforcement Learning", 2016) as an
// algo.OnPolicy algorithm, and the advantage estimation it shares with PPO
// (package ppo).
//
// # Overview
//
// [New] builds an [A2C] from a [Config] and the env's spaces: an actor and a
// critic (a pg.Net, by default one MLP trunk with two linear heads; a
// Categorical head for a Discrete action space, a pg.NormalHead for a Box),
// Adam, and a policy.Actor. Each update (algo.Learner.StepAll, driven by the
// on-policy trainer) is
//
//   - Preprocess: the critic's values V(s) and V(s′) without gradients, the
//     GAE advantages Â and the returns G = Â + V ([GAE], over the buffer with
//     algo.Episodic: terminated steps do not bootstrap, truncated ones and the
//     end of a collection do), stored as "v_s", "adv" and "returns";
//   - UpdateRepeat: passes over shuffled minibatches, one step each on
//     −mean(log π(a|s)·Â) + VFCoef·mean((G − V(s))²) − EntCoef·mean(H[π(·|s)]),
//     with the gradients' norm clipped when MaxGradNorm is set.
//
// A2C embeds pg.Base: Policy, Schedule (learning-rate decay), Postprocess,
// Save and Load come from there.
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
//     with deterministic evaluation; with the trainer settings of that test
//     (16 envs, 16 episodes per collection, one pass of minibatches of 64;
//     gorl bench a2c-cartpole) it solved CartPole on 10 of 10 seeds in
//     31k–52k env steps, 0.13–0.21 s each with OpenBLAS.
//   - Return scaling follows Tianshou: the critic learns returns divided by
//     the running standard deviation s of the returns, values are multiplied
//     by s before estimating advantages, and the mean is not subtracted
//     (OpenAI Baselines' value normalization, which Tianshou found to work
//     as well or better).
//   - The entropy is computed for the statistics ("entropy") even when
//     EntCoef is 0, as Tianshou computes its ent_loss; it enters the loss
//     only with a positive EntCoef, so its backward pass costs nothing then.
//   - GAE is exported for PPO rather than duplicated: it evaluates the
//     critic through pg.Net and writes the pg.Rollout's columns, so both
//     algorithms estimate advantages with one piece of code, as Tianshou's
//     PPO inherits A2C's _add_returns_and_advantages.
package a2c
