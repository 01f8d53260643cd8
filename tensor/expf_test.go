package tensor

import (
	"math"
	"testing"
)

// ulpDiff returns the distance between a and b in units in the last place:
// the number of float32 values between them, plus one.
func ulpDiff(a, b float32) int64 {
	key := func(f float32) int64 { // monotonic in f, with −0 = +0
		v := int64(int32(math.Float32bits(f)))
		if v < 0 {
			v = math.MinInt32 - v
		}
		return v
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return d
}

// TestActivationAccuracy checks expf, sigmoid and tanh against float64
// references from package math, rounded to float32, on every 509th float32
// (8.4 million values of every sign and exponent) and on a fine grid over
// [−20, 20]. The bounds are those documented (2, 4 and 4 ulp); a sweep over
// all 2³² float32 values found the same maxima.
func TestActivationAccuracy(t *testing.T) {
	var worst [3]int64
	var at [3]float32
	check := func(x float32) {
		if x != x {
			return
		}
		got := [3]float32{expf(x), sigmoid(x), tanh(x)}
		want := [3]float64{math.Exp(float64(x)), 1 / (1 + math.Exp(-float64(x))), math.Tanh(float64(x))}
		for i := range got {
			w := float32(want[i])
			if i < 2 && (w < 0x1p-126 || x >= 88.716) {
				continue // outside the documented ranges, checked below
			}
			if d := ulpDiff(got[i], w); d > worst[i] {
				worst[i], at[i] = d, x
			}
		}
	}
	for b := uint64(0); b < 1<<32; b += 509 {
		check(math.Float32frombits(uint32(b)))
	}
	for x := float32(-20); x <= 20; x += 1.0 / 4096 {
		check(x)
	}
	for i, name := range []string{"expf", "sigmoid", "tanh"} {
		bound := []int64{2, 4, 4}[i]
		t.Logf("%s: at most %d ulp (at %g)", name, worst[i], at[i])
		if worst[i] > bound {
			t.Errorf("%s is %d ulp off at %g, documented bound %d", name, worst[i], at[i], bound)
		}
	}

	// Limits and special values (by definition, and the documented clamps).
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	for _, tc := range []struct {
		name    string
		got     float32
		want    float32
		wantNaN bool
	}{
		{"expf(+Inf)", expf(inf), inf, false},
		{"expf(89)", expf(89), inf, false},
		{"expf(0)", expf(0), 1, false},
		{"expf(NaN)", expf(nan), 0, true},
		{"sigmoid(+Inf)", sigmoid(inf), 1, false},
		{"sigmoid(20)", sigmoid(20), 1, false},
		{"sigmoid(−Inf)", sigmoid(-inf), 0, false},
		{"sigmoid(−88.72)", sigmoid(-88.72), 0, false},
		{"sigmoid(0)", sigmoid(0), 0.5, false},
		{"sigmoid(NaN)", sigmoid(nan), 0, true},
		{"tanh(+Inf)", tanh(inf), 1, false},
		{"tanh(−Inf)", tanh(-inf), -1, false},
		{"tanh(NaN)", tanh(nan), 0, true},
	} {
		if tc.wantNaN != (tc.got != tc.got) || !tc.wantNaN && tc.got != tc.want {
			t.Errorf("%s = %g, want %g", tc.name, tc.got, tc.want)
		}
	}
	if z := tanh(negZero); math.Float32bits(z) != 0x80000000 {
		t.Errorf("tanh(−0) = %g, want −0", z)
	}
	if e := expf(-inf); math.Abs(float64(e)/0x1p-126-1) > 1e-5 {
		t.Errorf("expf(−Inf) = %g, want 2⁻¹²⁶ = %g within 0.001%%", e, float32(0x1p-126))
	}
	if s := sigmoid(-87.5); !(s >= 0 && s <= 1.2e-38) {
		t.Errorf("sigmoid(−87.5) = %g, want at most 1.2e-38", s)
	}
}
