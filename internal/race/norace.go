//go:build !race

package race

// Enabled reports whether the race detector is on: false in this build.
const Enabled = false
