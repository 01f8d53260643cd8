// Package multiagent defines environments with several agents, in the two
// forms PettingZoo gives them, and a registry of such envs by id.
//
// # Overview
//
// Every agent has a string id, its own observation space and its own action
// space (Spaces). An AEC env (Agent Environment Cycle) is turn-based: one
// agent, AgentSelection, acts at a time; Last returns what that agent sees
// (its observation, the reward it collected since it last acted, and whether
// it is done) and Step applies its action. A Parallel env steps all live
// agents at once with a map of actions and returns maps of observations,
// rewards and flags.
//
// Envs that mask actions return, for each agent, a Dict observation with
// key "obs" (the real observation) and key "action_mask" (a MultiBinary(n)
// array of int8, 1 for a valid action), as PettingZoo and Tianshou do.
//
// # Invariants
//
//   - Agents returns the live agents in a fixed order; PossibleAgents every
//     agent the env can have. An agent that is terminated or truncated stays
//     live in an AEC env until it takes its dead step, Step(nil), as in
//     PettingZoo; in a Parallel env it leaves Agents after the Step that
//     ended it.
//   - Step after every agent has left, or before Reset, returns an error
//     wrapping env.ErrNeedReset; an action outside the agent's space
//     returns one wrapping env.ErrAction and changes nothing.
//   - Equal seeds give equal episodes for equal actions.
//
// # Aliasing
//
// Observations, maps and infos that an env returns may be owned by the env
// and overwritten by its next call; callers copy what they keep.
package multiagent
