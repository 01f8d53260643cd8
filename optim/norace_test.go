//go:build !race

package optim

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
