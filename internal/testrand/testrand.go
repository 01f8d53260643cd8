// Package testrand gives the randomized tests of the module their seed: one
// flag, -testrand.seed, shared by every package whose tests import it.
//
// The default seed, 1, makes the tests deterministic. Seed 0 draws a seed
// once per test binary and logs it with each test that uses it, so that a
// failure can be reproduced with -testrand.seed=N.
package testrand

import (
	"flag"
	"math/rand/v2"
	"sync"
	"testing"
)

var (
	seedFlag = flag.Uint64("testrand.seed", 1, "seed of the randomized tests; 0 draws one per test binary and logs it")
	drawn    = sync.OnceValue(rand.Uint64)
)

// Seed returns the seed of the randomized tests: the -testrand.seed flag, or
// when it is 0 a seed drawn once per test binary, which it logs to t.
func Seed(t testing.TB) uint64 {
	t.Helper()
	if s := *seedFlag; s != 0 {
		return s
	}
	s := drawn()
	t.Logf("-testrand.seed=%d", s)
	return s
}

// New returns a generator of stream stream seeded with Seed(t); tests that
// draw several generators give each its own stream.
func New(t testing.TB, stream uint64) *rand.Rand {
	t.Helper()
	return rand.New(rand.NewPCG(Seed(t), stream))
}
