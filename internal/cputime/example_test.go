package cputime_test

import (
	"slices"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

var sorted []int

// A benchmark that reports its CPU time per operation: run it with
// go test -bench Sort -cpu 1 to read ns/op and cpu-ns/op side by side.
func ExampleMeasure() {
	benchmarkSort := func(b *testing.B) {
		data := make([]int, 1000)
		for i := range data {
			data[i] = (i * 7919) % 1000
		}
		sorted = make([]int, len(data))
		cputime.Measure(b, func() {
			copy(sorted, data)
			slices.Sort(sorted)
		})
	}
	_ = benchmarkSort
}

// A benchmark with its own loop, for bodies too small for a function call
// per operation.
func ExampleStart() {
	benchmarkSum := func(b *testing.B) {
		data := make([]int, 1000)
		b.ReportAllocs()
		b.ResetTimer()
		defer cputime.Start(b).Report()
		for i := 0; i < b.N; i++ {
			s := 0
			for _, v := range data {
				s += v
			}
			sink = uint64(s)
		}
	}
	_ = benchmarkSum
}
