// Package categorical holds what gorl's distributional Q-learners with a
// categorical return distribution share: the support and its projection,
// the networks, and the categorical DQN (Bellemare, Dabney and Munos, "A
// Distributional Perspective on Reinforcement Learning", 2017) with the
// options Rainbow adds. C51 (package c51) and Rainbow (package rainbow) are
// siblings built on it; neither imports the other.
//
// # Overview
//
//   - [Support]: N atoms zⱼ evenly spaced in [VMin, VMax], the expected
//     value of a distribution over them, and ProjectTo, the projection Φ of
//     the shifted and scaled target distribution onto the atoms.
//   - [DQN]: the learner. Init builds the networks (an MLP or Nature-CNN
//     trunk, a head giving NumAtoms logits per action: one linear stream, or
//     a dueling head combined atom by atom, optionally of noisy layers),
//     Adam, and a policy.Q acting on the expected returns; Preprocess stores
//     the projected n-step target distributions under [KeyTargetDist],
//     Update takes one Adam step on the (importance-weighted) cross entropy
//     and updates the target network, Postprocess gives a prioritized buffer
//     the cross entropies as priorities, Schedule anneals ε and β, Save and
//     Load keep every piece of state.
//   - [Settings], [Head] and [Exploration]: the configuration pieces the
//     algorithms' Configs embed or build.
//
// The n-step windows are algo.QReturns' (windows stop at episode ends,
// terminated steps do not bootstrap), whose Discounted gives each window's
// reward sum r and factor d = γᵐ (0 after termination): the target
// distribution puts the probability of atom zⱼ on r + d·zⱼ.
//
// # Invariants
//
//   - Each action's atoms are contiguous in the network's output [k,
//     actions·atoms].
//   - ProjectTo conserves probability: the target distributions sum to 1.
//   - An update cycle allocates nothing in steady state (the algorithms'
//     AllocsPerRun checks lock it).
//   - With noisy layers, both networks draw new noise at the start of every
//     Preprocess, from a random source saved with the state; the policy
//     switches the layers to their mean weights while its training-step
//     flag is off.
//
// # Aliasing
//
// Preprocess stores "returns" and KeyTargetDist as arrays that are memory of
// the DQN, overwritten by the next Preprocess. Network and Target return the
// networks themselves; Support's Atoms its own slice.
//
// # Decisions
//
//   - One learner for C51 and Rainbow, as in Tianshou, where Rainbow's
//     policy is C51's with noise drawn before each update: the network
//     options (dueling, noisy) are Init's, and each algorithm's package
//     holds only its Config and defaults.
//   - The target distribution travels in the batch (KeyTargetDist), as DQN's
//     returns do, so that Update reads everything it needs from the batch it
//     is given.
//   - The projection clamps each shifted atom to [VMin, VMax] and splits its
//     probability between its two neighbours by floor and distance, one pass
//     over the atoms (Tianshou forms the same result as a dense N × N
//     triangular kernel; the tests use that form as the reference).
//   - Masked envs (env.NewMasked): the networks read "obs.obs", the policy
//     is policy.Q (greedy and ε-greedy over the allowed actions), and the
//     target's next action is the best allowed one; an obs_next that allows
//     none (an episode's end) gets all its mass at 0.
package categorical
