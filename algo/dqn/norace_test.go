//go:build !race

package dqn_test

const raceEnabled = false
