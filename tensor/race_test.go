//go:build race

package tensor_test

// raceEnabled is set under -race, where sync.Pool drops items on purpose and
// allocation counts are meaningless.
const raceEnabled = true
