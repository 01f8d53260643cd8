//go:build race

package trainer_test

// raceEnabled reports whether the race detector is on: its instrumentation
// allocates, so allocation counts are not checked then.
const raceEnabled = true
