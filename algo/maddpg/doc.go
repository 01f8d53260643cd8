// Package maddpg is multi-agent DDPG (Lowe et al. 2017, "Multi-Agent
// Actor-Critic for Mixed Cooperative-Competitive Environments"), as Machin
// has it: decentralised actors and centralised critics for the agents of a
// Parallel multi-agent env.
//
// # Overview
//
// Each agent i has a deterministic actor μᵢ(oᵢ) that sees only its own
// observation, and a critic Qᵢ(x, a₁, …, a_N) that sees every agent's
// observation x = (o₁, …, o_N) and every agent's action, both
// concatenated in the env's PossibleAgents order. Actors and critics have
// target copies moved by Polyak averaging, exploration adds Gaussian noise
// to the actors' raw actions, and one replay buffer holds the joint
// transitions. Agent i's critic regresses on
//
//	yᵢ = rᵢ + γ·(1 − dᵢ)·Q′ᵢ(x′, μ′₁(o′₁), …, μ′_N(o′_N))
//
// and its actor ascends Qᵢ(x, a₁, …, μᵢ(oᵢ), …, a_N), the other agents'
// actions taken from the buffer. The networks are algo/actorcritic's:
// DeterministicActor for μᵢ, Critics (one critic) for Qᵢ and Optimizer for
// both. With Config.Independent each critic sees only its own agent's
// observation and action: independent DDPG learners, the paper's
// baseline.
//
// # Invariants
//
// A transition is stored whole: every agent's observation, raw action,
// reward and terminated flag of one env step, in one slot of the buffer,
// so the agents' parts always stay aligned. The targets move only after
// every agent has made its critic and actor steps of an update.
//
// # Aliasing
//
// The map and arrays Act returns, and the map of losses Update returns,
// are owned by the MADDPG and rewritten by the next call. Store copies the
// observations it is given, so an env may reuse its observation arrays.
//
// # Decisions
//
// MADDPG drives its own episodes (Episode) instead of implementing
// algo.OffPolicy: the trainers and collectors of the single-agent
// algorithms hold one observation and one action space, and a joint
// transition of several agents does not fit their batches.
//
// The actors' raw actions lie in [−1, 1] (tanh); the env receives them
// mapped linearly onto each agent's Box bounds, and the critics see the
// raw ones, so that every critic input has the same scale whatever the
// bounds.
//
// Targets are one-step: the other agents' actions in a stored n-step
// segment come from older policies, which the centralised critic would
// take as fixed.
package maddpg
