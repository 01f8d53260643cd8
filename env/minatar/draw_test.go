package minatar

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/nd"
)

// TestStickyThreshold checks that the sticky-action test on the draw's low
// 53 bits decides as rand.Rand.Float64() < p does on the same stream, on
// random draws and on the values next to the threshold.
func TestStickyThreshold(t *testing.T) {
	const mask = 1<<53 - 1
	for _, p := range []float64{0, 0.1, 1.0 / 3, 0.5, 0.9999999, 1, math.SmallestNonzeroFloat64} {
		th := stickyThreshold(p)
		for _, x := range []uint64{0, 1, th - 1, th, th + 1, mask} {
			if x > mask {
				continue
			}
			if got, want := x < th, float64(x)/(1<<53) < p; got != want {
				t.Errorf("p = %v, bits %d: below threshold %v, Float64 below p %v", p, x, got, want)
			}
		}
		for _, seed := range []uint64{0, 1, 42, 1 << 40} {
			a, b := rand.NewPCG(seed, 7), rand.NewPCG(seed, 7)
			r := rand.New(b)
			for i := range 1000 {
				if got, want := a.Uint64()&mask < th, r.Float64() < p; got != want {
					t.Fatalf("p = %v, seed %d draw %d: sticky %v, rand.Float64() < p %v", p, seed, i, got, want)
				}
			}
		}
	}
}

// TestAction checks the decoding of actions: the int64 fast path and the
// space's path give the same index, and out-of-range or mistyped actions
// are errors.
func TestAction(t *testing.T) {
	e, err := New("Breakout", Config{MinimalActions: true})
	if err != nil {
		t.Fatal(err)
	}
	i64 := func(v int64) *nd.Array { a := nd.Zeros(nd.Int64); nd.Data[int64](a)[0] = v; return a }
	i32 := func(v int32) *nd.Array { a := nd.Zeros(nd.Int32); nd.Data[int32](a)[0] = v; return a }
	for _, tc := range []struct {
		name   string
		action any
		want   int
		ok     bool
	}{
		{"int64 first", i64(0), 0, true},
		{"int64 last", i64(2), 2, true},
		{"int64 past the minimal set", i64(3), 0, false},
		{"int64 negative", i64(-1), 0, false},
		{"int32 through the space", i32(1), 1, true},
		{"int32 out of range", i32(5), 0, false},
		{"1-d array", nd.Zeros(nd.Int64, 1), 0, false},
		{"not an array", 1, 0, false},
	} {
		got, err := e.action(tc.action)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("%s: action = %d, %v; want %d, ok %v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}
