package tensor

import "math"

// expTable holds 2^(j/64) for j in [0, 64), rounded to float32.
var expTable = func() (t [64]float32) {
	for j := range t {
		t[j] = float32(math.Exp2(float64(j) / 64))
	}
	return t
}()

// expf returns eˣ in float32 arithmetic, within 2 units in the last place
// (ulp) of the correctly rounded value for results between the smallest
// normal float32, 2⁻¹²⁶ ≈ 1.1755e-38 (at x ≈ −87.3365), and 3.39e38
// (x < 88.716). Below −87.3365 it returns 2⁻¹²⁶ to within 0.001%, from
// 88.716 it returns +Inf (a little before the true overflow at 88.723), and
// NaN stays NaN.
//
// x = (64k + j)·ln2/64 + r with |r| ≤ ln2/128, so eˣ = 2ᵏ · 2^(j/64) · eʳ,
// the middle factor from a table and eʳ from its Taylor polynomial of degree
// 3 (the first omitted term is below 2⁻³⁵). ln2/64 is split in two so that
// k·ln2/64 is subtracted without rounding error (Cody and Waite).
func expf(x float32) float32 {
	const (
		round = 0x1.8p23               // adding it rounds |v| < 2²² to an integer
		ln2Hi = 0x1.63p-7              // the leading 9 bits of ln2/64, so n·ln2Hi is exact
		ln2Lo = -3.3155381258545403e-6 // ln2/64 − ln2Hi
	)
	x = min(max(x, -87.33654), 89) // e^−87.33654 ≈ 2⁻¹²⁶
	t := x*(64*math.Log2E) + round
	n := math.Float32bits(t) // round(x·64/ln2) in the low 22 bits, offset by round's bits
	t -= round
	r := x - t*ln2Hi - t*ln2Lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6)))
	return p * expTable[n&63] * math.Float32frombits(((n>>6)+127)<<23)
}

// sigmoid returns 1/(1 + e⁻ᵛ) in float32, within 4 ulp for results of at
// least the smallest normal float32, 0 for v ≤ −88.716, and exactly 1 from
// v ≈ 17.
func sigmoid(v float32) float32 { return 1 / (1 + expf(-v)) }

// tanh returns tanh(v) in float32, within 4 ulp, with tanh(±0) = ±0 and
// tanh(±Inf) = ±1. Below 0.3 in magnitude it sums the odd Taylor series to
// degree 11 (the next term is below 2⁻³⁰·|v|); above, 1 − 2/(e²ᵛ + 1) loses
// at most a couple of bits to cancellation.
func tanh(v float32) float32 {
	const sign = 0x80000000
	a := math.Float32frombits(math.Float32bits(v) &^ sign)
	var t float32
	if a < 0.3 {
		a2 := a * a
		t = a + a*a2*(-1.0/3+a2*(2.0/15+a2*(-17.0/315+a2*(62.0/2835+a2*(-1382.0/155925)))))
	} else {
		t = 1 - 2/(expf(2*a)+1)
	}
	return math.Float32frombits(math.Float32bits(t) | math.Float32bits(v)&sign)
}
