//go:build !race

package algo_test

const raceEnabled = false
