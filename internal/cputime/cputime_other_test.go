//go:build !unix

package cputime_test

import (
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

// TestNotMeasured checks that a platform without getrusage says so, and
// that benchmarks there get no cpu-ns/op metric rather than a false 0.
func TestNotMeasured(t *testing.T) {
	if d, ok := cputime.Process(); ok || d != 0 {
		t.Errorf("Process() = %v, %v; want 0, false", d, ok)
	}
	r := testing.Benchmark(func(b *testing.B) {
		defer cputime.Start(b).Report()
	})
	if _, ok := r.Extra["cpu-ns/op"]; ok {
		t.Errorf("cpu-ns/op reported where CPU time is not measured: %v", r.Extra)
	}
}
