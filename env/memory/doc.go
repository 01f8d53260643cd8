// Package memory holds memory tasks written in Go: envs whose observations
// hide what the agent must remember, so that a feed-forward policy cannot
// do better than chance and a recurrent one (algo/rppo) must carry the
// information in its hidden state.
//
// Importing the package registers TMaze-v0 (a corridor of
// DefaultTMazeLength cells) and, for other lengths, the ids "TMaze-v0:L"
// for a corridor of L cells (TMaze-v0:20).
package memory
