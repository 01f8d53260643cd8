package minatar

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/nd"
)

// TestUnitFloat checks that the sticky-action draw takes from the stream
// exactly what rand.Rand.Float64 takes, so that the games' later draws see
// the same stream.
func TestUnitFloat(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 40} {
		a, b := rand.NewPCG(seed, 7), rand.NewPCG(seed, 7)
		r := rand.New(b)
		for i := range 1000 {
			if got, want := unitFloat(a), r.Float64(); got != want {
				t.Fatalf("seed %d draw %d: unitFloat = %v, rand.Float64 = %v", seed, i, got, want)
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
