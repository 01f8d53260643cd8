//go:build race

package batch_test

// raceEnabled reports whether the race detector is on: sync.Pool then
// drops items on purpose, so the allocation counts of StackTo and CatTo
// are not checked.
const raceEnabled = true
