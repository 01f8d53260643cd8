// Package maze provides MaskedMaze-v0, a small grid maze whose observations
// carry an action mask: the env to test invalid-action masking with.
//
// # Overview
//
// The agent starts in the top-left cell of a fixed 5×5 maze and must reach
// the bottom-right one. Its four actions move it up, right, down or left; a
// move into a wall or off the grid is invalid and ends the episode with
// reward −1. Each valid move costs 0.01 and reaching the goal pays +1, so
// the shortest path (8 moves) returns 0.93. The registered env stops an
// episode after 50 steps.
//
// The observation is a masked observation (env.NewMasked): under "obs" the
// one-hot position (float32 [25]), under "action_mask" the four moves'
// validity (int8 [4], 1 = the move stays in the maze), the PettingZoo and
// Tianshou convention. A policy that reads the mask never takes an invalid
// move; one that ignores it must learn the walls first. Maze-v0 is the same
// maze with the position alone as observation, the baseline without masks.
//
// # Invariants
//
// The maze has no randomness: a seed changes nothing, and the same actions
// give the same episode. Reset and Step return the same observation Batch
// and arrays every call, so stepping does not allocate.
//
// # Aliasing
//
// The observation returned by Reset and Step is memory of the env,
// overwritten by its next call.
package maze
