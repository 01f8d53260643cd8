//go:build race

package blas

// raceEnabled is set under -race, where sync.Pool drops items on purpose and
// allocation counts are meaningless.
const raceEnabled = true
