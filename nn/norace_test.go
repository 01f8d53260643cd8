//go:build !race

package nn

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
