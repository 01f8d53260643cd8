// Package psrl is posterior sampling for reinforcement learning (Osband,
// Russo and Van Roy, "(More) Efficient Reinforcement Learning via Posterior
// Sampling", 2013) on finite MDPs, Tianshou's PSRL: a Bayesian posterior
// over the transition probabilities and mean rewards of every state-action
// pair; after each collection one MDP is drawn from the posterior, solved
// by value iteration, and acted on greedily until the next collection.
//
// # Overview
//
// PSRL is an algo.OnPolicy algorithm for envs with Discrete observation
// and action spaces (env/tabular's FrozenLake and NChain). UpdateRepeat adds
// the collection's transitions to the posterior, draws an MDP, and solves
// it; the policy is a *policy.Q over the solved action values (a table that
// is the policy's one parameter, so policy files and gorl eval work as for
// DQN), acting greedily.
//
//   - Transitions: P(·|s, a) ~ Dirichlet(c₀ + counts) over the next states,
//     c₀ = TransCountPrior, plus a terminal outcome whose prior count is 0:
//     an episode can end after (s, a) in a drawn MDP only once it has been
//     seen to.
//   - Rewards: the mean reward of (s, a) has a Normal-Gamma prior (mean μ₀,
//     κ₀ pseudo-observations of it, precision τ ~ Gamma(α₀, β₀) with β₀ =
//     α₀σ₀², so E[τ] = 1/σ₀²), updated in closed form from the count, sum
//     and sum of squares of the observed rewards; a draw takes τ then μ ~
//     N(μₙ, 1/(κₙτ)).
//   - Solving: value iteration on the drawn MDP with discount γ until no
//     state value changes by more than Epsilon, warm-started from the last
//     solution.
//
// # Invariants
//
// The counts, reward sums and last values are saved with the random
// sources: a resumed run draws the same MDPs. UpdateRepeat does not
// allocate once a collection of the same length has been seen.
//
// # Aliasing
//
// The statistics map returned by UpdateRepeat is owned by the PSRL and
// overwritten by the next call.
//
// # Decisions
//
//   - Normal-Gamma instead of Tianshou's Normal with a known variance:
//     Tianshou's model keeps a Normal posterior for the mean whose variance
//     comes from the empirical reward variance; the conjugate Normal-Gamma
//     learns the variance too and needs no small constant for pairs with one
//     observed reward. DefaultConfig's σ₀ = 1 matches Tianshou's rew_std_prior.
//   - A terminal outcome instead of Tianshou's add_done_loop option: a
//     terminated step leads to a state of value 0, so FrozenLake's holes and
//     goal are not mistaken for states the agent stays in.
//   - batchSize and repeat of UpdateRepeat are ignored: the posterior
//     update is exact and done once per collection.
package psrl
