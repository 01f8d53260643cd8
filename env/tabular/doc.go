// Package tabular holds small Markov decision processes with finitely many
// states and actions, given as tables, and the env that runs any of them:
// FrozenLake (Gymnasium's FrozenLake-v1 on its 4×4 map, slippery) and NChain
// (the chain of Strens, "A Bayesian Framework for Reinforcement Learning",
// 2000, as Gym's NChain-v0 had it). They are registered as "FrozenLake-v1"
// and "NChain-v0", so env.Make finds them once the package is imported.
//
// # Overview
//
// An MDP lists, for every state and action, the outcomes of a step: next
// state, reward, whether the episode terminates there, and its probability.
// Its Env draws an outcome per step from its own PCG source, so a seed
// reproduces an episode and the env's whole state can be saved. Because the
// tables are the model, algorithms and tests can compute exact values and
// optimal policies (ValueIteration), which is what regret is measured
// against.
//
// # Invariants
//
// Observations are 0-d int64 arrays of a Discrete space, actions 0-d integer
// arrays of a Discrete space. The outcome probabilities of every
// state-action pair sum to 1 (New checks it). A state from which every
// outcome of every action terminates is never observed as the first state.
//
// # Aliasing
//
// Reset and Step return the same observation array every call.
package tabular
