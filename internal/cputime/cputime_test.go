package cputime_test

import (
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

var sink uint64

// TestZeroMeter checks that the zero Meter, inside a benchmark, neither
// panics (it holds no benchmark) nor reports a cpu-ns/op metric.
func TestZeroMeter(t *testing.T) {
	var panicked any
	r := testing.Benchmark(func(b *testing.B) {
		defer func() { panicked = recover() }()
		var m cputime.Meter
		m.Report()
	})
	if panicked != nil {
		t.Fatalf("Report of the zero Meter panicked: %v", panicked)
	}
	if v, ok := r.Extra["cpu-ns/op"]; ok {
		t.Errorf("the zero Meter reported cpu-ns/op = %v, want no metric", v)
	}
}
