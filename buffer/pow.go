package buffer

import "math"

// Priorities and importance weights are powers, pᵅ and (P(i)/P_min)^(−β),
// two per sampled transition and learning step. They are computed as
// exp(y·ln x) with the table-driven exp and log below, each several times
// faster than math.Exp and math.Log chained (see the package's Decisions).

// powLn returns x^y for x > 0 given lnx = ln x: exactly for y = ±1 and
// ±½, as exp(y·lnx) otherwise, to within a few units in the last place of
// that (relative error below 1e-15 for |y·ln x| ≤ 1).
func powLn(x, lnx, y float64) float64 {
	switch y {
	case 1:
		return x
	case -1:
		return 1 / x
	case 0.5:
		return math.Sqrt(x)
	case -0.5:
		return 1 / math.Sqrt(x)
	}
	return exp(y * lnx)
}

// Table sizes and reduction constants. exp reduces x to k·ln2/128 + r with
// |r| ≤ ln2/256; log reduces the mantissa m ∈ [1, 2) of x to m·inv − 1
// with |m·inv − 1| ≤ 1/256, inv the rounded reciprocal of the middle of
// m's 128th of [1, 2).
const (
	tabBits = 7
	tabLen  = 1 << tabBits

	// ln2Hi + ln2Lo = ln 2 to within 2e-27; ln2Hi has 32 significant bits,
	// so that k·ln2Hi and k·ln2Hi/128 are exact for |k| < 2²¹.
	ln2Hi = 0x1.62e42ffp-1
	ln2Lo = -0x1.718432a1b0e26p-35

	expShift = 0x1.8p52 // adding it rounds a float64 below 2⁵¹ to an integer
)

var (
	// expTab[j] = 2^(j/128).
	expTab [tabLen]float64
	// logInv[i] = 1/cᵢ rounded, cᵢ = 1 + (i + ½)/128, and logTab[i] =
	// −ln(logInv[i]): the reduction m·logInv[i] − 1 is then exact up to
	// one rounding, whatever the rounding of the reciprocal.
	logInv, logTab [tabLen]float64
)

func init() {
	for j := range expTab {
		expTab[j] = math.Exp2(float64(j) / tabLen)
	}
	for i := range logInv {
		logInv[i] = 1 / (1 + (float64(i)+0.5)/tabLen)
		logTab[i] = -math.Log(logInv[i])
	}
}

// exp returns e^x. For |x| ≤ 708 it reduces x = k·ln2/128 + r, so that
// e^x = 2^(k div 128) · 2^((k mod 128)/128) · e^r, with e^r from a degree-5
// polynomial (truncation below 1e-18 for |r| ≤ ln2/256); elsewhere, and for
// NaN, it returns math.Exp(x), which handles overflow and subnormal results.
func exp(x float64) float64 {
	if !(math.Abs(x) <= 708) {
		return math.Exp(x)
	}
	kf := x*(tabLen/math.Ln2) + expShift - expShift
	k := int(kf)
	r := (x - kf*(ln2Hi/tabLen)) - kf*(ln2Lo/tabLen)
	p := r + r*r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120))))
	t := expTab[k&(tabLen-1)]
	scale := math.Float64frombits(uint64(k>>tabBits+1023) << 52) // |k>>7| ≤ 1022
	return (t + t*p) * scale
}

// log returns ln x. For a normal positive x = 2^e·m, m ∈ [1, 2), it reduces
// m by a tabled reciprocal to 1 + r with |r| ≤ 1/256, so that ln x =
// e·ln 2 + logTab[i] + ln(1 + r), with ln(1 + r) from a degree-6 polynomial
// (truncation below 1e-16); the absolute error is a few units in the last
// place of 1, which is what the relative error of exp(y·ln x) depends on.
// For 0, subnormals, +Inf and NaN it returns math.Log(x); x must not be
// negative.
func log(x float64) float64 {
	b := math.Float64bits(x)
	if b-(1<<52) >= 0x7ff<<52-1<<52 { // not a normal positive number
		return math.Log(x)
	}
	e := float64(int(b>>52) - 1023)
	i := b >> (52 - tabBits) & (tabLen - 1)
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52)
	r := m*logInv[i] - 1
	p := r - r*r*(1.0/2-r*(1.0/3-r*(1.0/4-r*(1.0/5-r*(1.0/6)))))
	return (e*ln2Hi + logTab[i]) + (e*ln2Lo + p)
}
