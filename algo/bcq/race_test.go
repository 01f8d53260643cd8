//go:build race

package bcq_test

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = true
