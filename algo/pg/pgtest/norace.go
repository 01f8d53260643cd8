//go:build !race

package pgtest

// RaceEnabled reports whether the race detector is on; allocation counts
// mean nothing under it.
const RaceEnabled = false
