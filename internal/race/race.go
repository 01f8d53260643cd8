//go:build race

package race

// Enabled reports whether the race detector is on: true in this build.
const Enabled = true
