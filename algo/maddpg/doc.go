// Package maddpg is multi-agent DDPG (Lowe et al. 2017, "Multi-Agent
// Actor-Critic for Mixed Cooperative-Competitive Environments"), as Machin
// has it: each agent has a deterministic actor that sees only its own
// observation, and a centralised critic Qᵢ(x, a₁, …, a_N) that sees every
// agent's observation x = (o₁, …, o_N) and every agent's action. Actors and
// critics have target copies moved by Polyak averaging, exploration adds
// Gaussian noise to the actors' raw actions, and one replay buffer holds the
// joint transitions.
//
// The networks are algo/actorcritic's: DeterministicActor for μᵢ, Critics
// (one critic) for Qᵢ over the concatenated observations and actions, and
// Optimizer for both. Agent i's critic regresses on
//
//	yᵢ = rᵢ + γ·(1 − dᵢ)·Q′ᵢ(x′, μ′₁(o′₁), …, μ′_N(o′_N))
//
// and its actor ascends Qᵢ(x, a₁, …, μᵢ(oᵢ), …, a_N), the other agents'
// actions taken from the buffer. The targets move after every agent has
// made its two steps.
//
// The actors' raw actions lie in [−1, 1]; the env receives them mapped
// linearly onto each agent's Box bounds, and the critics see the raw ones.
package maddpg
