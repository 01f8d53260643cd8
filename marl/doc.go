// Package marl trains several agents in one multi-agent env (package
// env/multiagent): Tianshou's multi-agent policy manager and the collection
// around it, self-play, and action selection within an action mask.
//
// # Overview
//
// A Dispatcher maps each agent id to the policy that acts for it, one
// policy per agent or one shared by several (Tianshou's
// MultiAgentPolicyManager); Set swaps an agent's policy, as self-play does
// with its opponent. An AECCollector plays a turn-based env with a
// Dispatcher and routes each agent's transitions into that agent's buffer:
// a transition runs from one of the agent's turns to its next one, its
// reward is all the agent earned in between (PettingZoo's cumulative
// reward) and its obs_next what the agent sees at its next turn, so each
// agent learns from its own point of view. A ParallelCollector does the same
// for a Parallel env, one transition per agent per step.
//
// MaskedQ and Random act within the "action_mask" of a masked observation.
// SelfPlay trains a DQN on a two-player masked game against a pool of its
// own past copies and a random player, and Evaluate measures a policy
// against another.
//
// # Invariants
//
//   - An agent's buffer receives only that agent's transitions, in the
//     order of its turns; an agent without a buffer is not recorded.
//   - A transition's obs and obs_next are copies: the env may overwrite
//     its observations.
//
// # Decisions
//
//   - Masked action selection lives in one file (mask.go): greedy and
//     ε-random choices and the bootstrap maximum are taken over the valid
//     actions only.
//   - SelfPlay computes its own one-step targets (the maximum of the
//     target network over the valid next actions) and then calls the
//     DQN's Update, so the DQN itself needs no knowledge of masks.
package marl
