package testrand_test

import (
	"testing"

	"github.com/gorl/gorl/internal/testrand"
)

// TestDeterministic checks that two generators of the same stream draw the
// same numbers (the default seed, 1, or the one given), and that two streams
// differ.
func TestDeterministic(t *testing.T) {
	a, b, c := testrand.New(t, 7), testrand.New(t, 7), testrand.New(t, 8)
	same, differ := true, false
	for range 8 {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		same = same && x == y
		differ = differ || x != z
	}
	if !same || !differ {
		t.Errorf("same stream equal: %v, other stream different: %v; want true, true", same, differ)
	}
	if s := testrand.Seed(t); s == 0 {
		t.Errorf("Seed = 0")
	}
}
