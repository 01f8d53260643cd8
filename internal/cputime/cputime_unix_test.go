//go:build unix

package cputime_test

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/gorl/gorl/internal/cputime"
)

// spin does a fixed amount of arithmetic (about 50 µs of CPU on the
// machines the project runs on) that the compiler cannot remove.
func spin() {
	x := sink | 1
	for i := 0; i < 100_000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	sink = x
}

// benchtime sets -test.benchtime for the rest of the test, so that
// testing.Benchmark runs a fixed number of iterations instead of a second.
func benchtime(t *testing.T, v string) {
	t.Helper()
	old := flag.Lookup("test.benchtime").Value.String()
	if err := flag.Set("test.benchtime", v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("test.benchtime", old) })
}

// TestProcessCountsCPUNotSleep checks that Process grows while the process
// computes, by no more than the wall time on one goroutine, and stays
// nearly flat while it sleeps: it is CPU time, not wall time, and it is
// never read as decreasing.
func TestProcessCountsCPUNotSleep(t *testing.T) {
	t0, ok := cputime.Process()
	if !ok {
		t.Fatal("Process is not measured on a Unix system")
	}
	// Burn until 20 ms of CPU time show, failing if that takes more than
	// 10 s of wall time (a Process that does not move).
	wall0 := time.Now()
	deadline := wall0.Add(10 * time.Second)
	prev := t0
	for {
		spin()
		t1, ok := cputime.Process()
		if !ok {
			t.Fatal("Process stopped measuring")
		}
		if t1 < prev {
			t.Fatalf("Process went back from %v to %v", prev, t1)
		}
		prev = t1
		if t1-t0 >= 20*time.Millisecond {
			// One goroutine spinning cannot use much more CPU time than
			// wall time (the test binary's other goroutines are idle).
			if wall := time.Since(wall0); t1-t0 > 2*wall+10*time.Millisecond {
				t.Errorf("Process moved %v in %v of wall time on one goroutine", t1-t0, wall)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Process moved %v in 10 s of spinning", t1-t0)
		}
	}

	// A 200 ms sleep uses next to no CPU; wall time would show 200 ms.
	before, _ := cputime.Process()
	time.Sleep(200 * time.Millisecond)
	after, _ := cputime.Process()
	if d := after - before; d < 0 || d > 100*time.Millisecond {
		t.Errorf("Process moved %v over a 200 ms sleep; want between 0 and 100 ms", d)
	}
}

// TestMeasure checks Measure's protocol (one warm-up call, then b.N calls)
// and that its cpu-ns/op agrees with the CPU time of the same body measured
// directly with Process, within a factor of 2 (other goroutines of the test
// binary and timer granularity blur it a little).
func TestMeasure(t *testing.T) {
	benchtime(t, "200x")

	const calls = 200
	t0, _ := cputime.Process()
	for i := 0; i < calls; i++ {
		spin()
	}
	t1, _ := cputime.Process()
	want := float64(t1-t0) / calls

	n, maxN := 0, 0
	r := testing.Benchmark(func(b *testing.B) {
		n = 0
		cputime.Measure(b, func() { n++; spin() })
		maxN = b.N
	})
	if n != maxN+1 {
		t.Errorf("body ran %d times for b.N = %d; want b.N + 1 (one warm-up call)", n, maxN)
	}
	got, ok := r.Extra["cpu-ns/op"]
	if !ok {
		t.Fatalf("no cpu-ns/op metric in %v", r.Extra)
	}
	if got < want/2 || got > want*2 {
		t.Errorf("cpu-ns/op = %.0f; the body measured directly takes %.0f ns of CPU", got, want)
	}
}

// TestStartReport checks the Start/Report pair on a loop the benchmark
// writes itself, against the same direct measurement as TestMeasure.
func TestStartReport(t *testing.T) {
	benchtime(t, "100x")

	const calls = 100
	t0, _ := cputime.Process()
	for i := 0; i < calls; i++ {
		spin()
	}
	t1, _ := cputime.Process()
	want := float64(t1-t0) / calls

	r := testing.Benchmark(func(b *testing.B) {
		defer cputime.Start(b).Report()
		for i := 0; i < b.N; i++ {
			spin()
		}
	})
	got, ok := r.Extra["cpu-ns/op"]
	if !ok {
		t.Fatalf("no cpu-ns/op metric in %v", r.Extra)
	}
	if got < want/2 || got > want*2 {
		t.Errorf("cpu-ns/op = %.0f; the body measured directly takes %.0f ns of CPU", got, want)
	}
}

// Process reads the process's CPU time: two readings around some work
// differ by the CPU time that work took.
func ExampleProcess() {
	before, ok := cputime.Process()
	spin()
	after, _ := cputime.Process()
	fmt.Println(ok, after >= before)
	// Output: true true
}
