// Package pg implements REINFORCE, the vanilla policy gradient (Williams,
// "Simple Statistical Gradient-Following Algorithms for Connectionist
// Reinforcement Learning", 1992), as an algo.OnPolicy algorithm.
//
// # Overview
//
// [New] builds a [PG] from a [Config] and the env's spaces: a policy network
// without critic (an actorcritic.Net: a Categorical head for a Discrete
// action space, an actorcritic.NormalHead for a Box), Adam and a
// policy.Actor. Each update (algo.Learner.StepAll, driven by the on-policy
// trainer) is
//
//   - Preprocess: the discounted returns Gₜ = Σₖ γᵏrₜ₊ₖ of the collection
//     (algo.Episodic with λ = 1), optionally standardized by running
//     statistics, stored as "returns";
//   - UpdateRepeat: passes over shuffled minibatches, one Adam step each on
//     −mean(log π(aₜ|sₜ)·Gₜ).
//
// With Config.Baseline (REINFORCE with baseline, Sutton and Barto §13.4)
// the network has a critic V(s), Preprocess stores the advantages
// Âₜ = Gₜ − V(sₜ) with actorcritic.GAE at λ = 1, and the loss weighs
// log π by Âₜ and adds VFCoef·mean((Gₜ − V(sₜ))²).
//
// PG embeds actorcritic.Base: Policy, Schedule, Postprocess, Save and Load
// come from there.
//
// # Invariants
//
//   - Actions outside the space, missing keys and observations that are not
//     numeric arrays are errors of Preprocess and UpdateRepeat, returned
//     before any parameter changes. A distribution that becomes NaN (a
//     diverged network) stops an update with an error after the steps
//     already taken.
//   - An update (Preprocess and UpdateRepeat) allocates nothing once a
//     collection of the same length and observation structure has been seen
//     (locked by AllocsPerRun tests for both heads).
//   - Save writes the networks, Adam's state, the random sources and the
//     counters (with the return statistics); a loaded PG continues bit for
//     bit (tested).
//
// # Aliasing
//
// Preprocess stores "returns" in the batch as an array that is memory of the
// PG, overwritten by the next Preprocess. The statistics map is reused
// between updates.
//
// # Decisions
//
//   - Return standardization follows Tianshou's Reinforce: the returns are
//     standardized with the running statistics of all earlier collections
//     (not of the collection itself), then added to them, and episodes cut
//     off by truncation or by the end of a collection bootstrap from the
//     running mean. The first collection differs: Tianshou standardizes it
//     with the initial statistics (mean 0, variance 1), which leaves its
//     returns as they are; here it bootstraps from the mean of its own
//     returns and is standardized with their statistics. Where every reward
//     is negative (Acrobot's −1 per step, γ 0.95: returns near −20) the
//     unstandardized first update weighs every action taken with a large
//     negative return; over the minibatch steps of one collection that
//     pushes the policy away from the one that collected it, and the policy
//     became deterministic within a collection or two: REINFORCE never left
//     −500 on Acrobot. With the first collection standardized, and one
//     gradient step per collection (batch_size 0, repeat_per_collect 1),
//     it solves Acrobot on some seeds (γ 0.99: 3 of 5 in LEARNING.md; on
//     the others no training episode ever reaches the goal).
//   - The entropy bonus (EntCoef) is gorl's option; Tianshou's REINFORCE
//     has none, and it is off by default. Without it, on the Acrobot seeds
//     whose first episodes never reach the goal, the standardized returns
//     carry no signal and the policy drifts towards a deterministic one
//     that never reaches it either; a bonus of 0.01 keeps it exploring
//     until an episode does (the matrix's preset: 10 of 10 seeds).
//   - Without Baseline, REINFORCE has no state-dependent baseline: each
//     return is compared with the running mean of all returns. Where the
//     return depends mostly on the start state rather than on the actions
//     (Pendulum, whose start angle is random) or the credit of a success
//     is spread over a hundred steps of −1 (MountainCar), the gradient's
//     noise swamps its signal: within 1M steps MountainCar's best tests
//     stayed at −128 to −149 and Pendulum reached −250 on 1 seed of 5.
//   - Baseline adds the learned V(s) of REINFORCE with baseline (Sutton
//     and Barto §13.4), default off so that the default stays Tianshou's
//     REINFORCE. It reuses A2C's pieces: the Net's critic, the one
//     Optimizer over actor and critic, and actorcritic.GAE at λ = 1, which
//     gives the Monte-Carlo returns with a bootstrap from V(s′) only where
//     an episode is cut off, and A2C's return scaling for the critic's
//     targets. The advantages are divided by the running σ of the returns
//     (σ after the collection's returns joined the statistics, so the
//     first collection uses its own), not centred: at the start V ≈ 0 and
//     every advantage carries the mean return as an offset. Over many
//     minibatch steps per collection that offset pushes the policy away
//     from the one that collected it (as A2C's Decisions found on Acrobot):
//     with Tianshou's two passes over minibatches of 64, MountainCar stayed
//     at −200 and Pendulum at −870 to −1087 (2 seeds each); with one
//     gradient step per collection the critic catches up first.
//     MountainCar then reaches −110 on 5 of 5 seeds (collections of 8
//     episodes). Pendulum with collections of 8 episodes still did not
//     (−728, −872 on 2 seeds): 1M steps are only 625 updates. With A2C's
//     collections of 64 steps over 8 envs it does, but then most returns
//     are cut off by the collection's end after 8 steps and bootstrap from
//     V(s′) (γ 0.9: a horizon of about 10 steps), which makes it close to
//     A2C with λ = 1. The same collections without Baseline stay far
//     from −250 (−1163, −898 on 2 seeds); the figures are in LEARNING.md.
package pg
