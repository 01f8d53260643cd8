package cputime

import (
	"testing"
	"time"
)

// Meter measures the CPU time of a benchmark's timed loop. Its zero value
// reports nothing; make one with Start.
type Meter struct {
	b     *testing.B
	start time.Duration
	ok    bool
}

// Start starts measuring the process's CPU time for b. Call it right
// before the timed loop (after b.ResetTimer), and Report after it:
//
//	m := cputime.Start(b)
//	for i := 0; i < b.N; i++ { … }
//	m.Report()
//
// or defer cputime.Start(b).Report() in front of the loop.
func Start(b *testing.B) Meter {
	t, ok := Process()
	return Meter{b: b, start: t, ok: ok}
}

// Report reports the process's CPU time since Start, divided by b.N, as the
// metric "cpu-ns/op" (nanoseconds per operation). It reports nothing where
// the CPU time cannot be measured.
func (m Meter) Report() {
	if !m.ok {
		return
	}
	t, ok := Process()
	if !ok {
		return
	}
	m.b.ReportMetric(float64(t-m.start)/float64(m.b.N), "cpu-ns/op")
}

// Measure calls body once untimed (to warm up caches, tapes and scratch
// buffers), then b.N times with allocations reported, and reports the CPU
// time per call as "cpu-ns/op" besides the wall-clock time.
func Measure(b *testing.B, body func()) {
	body()
	b.ReportAllocs()
	b.ResetTimer()
	m := Start(b)
	for i := 0; i < b.N; i++ {
		body()
	}
	m.Report()
}
