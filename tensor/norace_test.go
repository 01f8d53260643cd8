//go:build !race

package tensor_test

const raceEnabled = false
