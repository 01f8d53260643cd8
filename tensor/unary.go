package tensor

import "math"

// unaryOp selects an elementwise function of one tensor.
type unaryOp int

const (
	opNeg unaryOp = iota
	opExp
	opLog
	opSqrt
	opAbs
	opPow       // f[0] = exponent
	opClamp     // f[0] = lo, f[1] = hi
	opAddScalar // f[0] = c
	opMulScalar // f[0] = c
	opReLU
	opLeakyReLU // f[0] = negative slope
	opELU       // f[0] = alpha
	opTanh
	opSigmoid
	opSoftplus
)

// softplusThreshold is PyTorch's default: above it softplus(x) is x to
// float32 precision and the identity is used.
const softplusThreshold = 20

// Neg returns −x elementwise.
func (tp *Tape) Neg(x *Tensor) *Tensor { return tp.unary(opNeg, x, 0, 0) }

// Exp returns eˣ elementwise.
func (tp *Tape) Exp(x *Tensor) *Tensor { return tp.unary(opExp, x, 0, 0) }

// Log returns the natural logarithm elementwise: −Inf at 0, NaN below.
func (tp *Tape) Log(x *Tensor) *Tensor { return tp.unary(opLog, x, 0, 0) }

// Sqrt returns √x elementwise (NaN for negative x). Its gradient is infinite
// at 0.
func (tp *Tape) Sqrt(x *Tensor) *Tensor { return tp.unary(opSqrt, x, 0, 0) }

// Abs returns |x| elementwise; its gradient at 0 is 0.
func (tp *Tape) Abs(x *Tensor) *Tensor { return tp.unary(opAbs, x, 0, 0) }

// Pow returns xᵖ elementwise, with math.Pow's special cases (a negative x to
// a non-integer power is NaN). p = 2 and p = 1 are computed exactly.
func (tp *Tape) Pow(x *Tensor, p float32) *Tensor { return tp.unary(opPow, x, p, 0) }

// Clamp returns min(max(x, lo), hi) elementwise. The gradient passes where
// lo ≤ x ≤ hi and is 0 elsewhere, as in PyTorch. Use ±Inf (float32) for an
// open side.
func (tp *Tape) Clamp(x *Tensor, lo, hi float32) *Tensor { return tp.unary(opClamp, x, lo, hi) }

// AddScalar returns x + c elementwise.
func (tp *Tape) AddScalar(x *Tensor, c float32) *Tensor { return tp.unary(opAddScalar, x, c, 0) }

// MulScalar returns c·x elementwise.
func (tp *Tape) MulScalar(x *Tensor, c float32) *Tensor { return tp.unary(opMulScalar, x, c, 0) }

// ReLU returns max(x, 0) elementwise, as PyTorch's relu: NaN stays NaN and
// −0 becomes +0. Its gradient is 0 where the result is 0 (at x ≤ 0) and
// passes elsewhere, also where the result is NaN.
func (tp *Tape) ReLU(x *Tensor) *Tensor { return tp.unary(opReLU, x, 0, 0) }

// LeakyReLU returns x for x > 0 and slope·x otherwise (PyTorch's default slope
// is 0.01).
func (tp *Tape) LeakyReLU(x *Tensor, slope float32) *Tensor {
	return tp.unary(opLeakyReLU, x, slope, 0)
}

// ELU returns x for x > 0 and alpha·(eˣ − 1) otherwise (PyTorch's default
// alpha is 1).
func (tp *Tape) ELU(x *Tensor, alpha float32) *Tensor { return tp.unary(opELU, x, alpha, 0) }

// Tanh returns tanh(x) elementwise, computed in float32 within 4 units in
// the last place of the exact value (measured over every float32), with
// tanh(±0) = ±0, tanh(±Inf) = ±1 and NaN kept.
func (tp *Tape) Tanh(x *Tensor) *Tensor { return tp.unary(opTanh, x, 0, 0) }

// Sigmoid returns 1/(1 + e⁻ˣ) elementwise, computed in float32 within 4
// units in the last place of the exact value where that is at least the
// smallest normal float32 (x > −87.3); below, the result is at most
// 1.2e-38 and is 0 from x = −88.72. NaN stays NaN.
func (tp *Tape) Sigmoid(x *Tensor) *Tensor { return tp.unary(opSigmoid, x, 0, 0) }

// Softplus returns ln(1 + eˣ) elementwise, and x itself above 20 (PyTorch's
// beta = 1, threshold = 20).
func (tp *Tape) Softplus(x *Tensor) *Tensor { return tp.unary(opSoftplus, x, 0, 0) }

func (tp *Tape) unary(op unaryOp, x *Tensor, p0, p1 float32) *Tensor {
	n := tp.newNode(unaryBack, x, nil, nil)
	n.ints[0] = int(op)
	n.f = [2]float32{p0, p1}
	y := n.setShape(x.shape...)
	unaryForward(op, y, x.data, p0, p1)
	return &n.out
}

// selectPos returns a if v > 0 and b otherwise (a NaN with the sign bit
// clear counts as positive), without a branch: LeakyReLU's masks are random,
// and a mispredicted branch per element cost more than the rest of the
// backward pass.
func selectPos(v, a, b float32) float32 {
	bits := math.Float32bits(v)
	m := -(((bits | -bits) >> 31) &^ (bits >> 31)) // all ones when v > 0
	return math.Float32frombits(math.Float32bits(a)&m | math.Float32bits(b)&^m)
}

func unaryForward(op unaryOp, y, x []float32, p0, p1 float32) {
	x = x[:len(y)]
	switch op {
	case opNeg:
		for i, v := range x {
			y[i] = -v
		}
	case opExp:
		for i, v := range x {
			y[i] = float32(math.Exp(float64(v)))
		}
	case opLog:
		for i, v := range x {
			y[i] = float32(math.Log(float64(v)))
		}
	case opSqrt:
		for i, v := range x {
			y[i] = float32(math.Sqrt(float64(v)))
		}
	case opAbs:
		for i, v := range x {
			y[i] = float32(math.Abs(float64(v)))
		}
	case opPow:
		switch p0 {
		case 1:
			copy(y, x)
		case 2:
			for i, v := range x {
				y[i] = v * v
			}
		default:
			for i, v := range x {
				y[i] = float32(math.Pow(float64(v), float64(p0)))
			}
		}
	case opClamp:
		for i, v := range x {
			y[i] = min(max(v, p0), p1)
		}
	case opAddScalar:
		for i, v := range x {
			y[i] = v + p0
		}
	case opMulScalar:
		for i, v := range x {
			y[i] = v * p0
		}
	case opReLU:
		reluPar(y, x)
	case opLeakyReLU:
		for i, v := range x {
			if v <= 0 {
				v *= p0
			}
			y[i] = v
		}
	case opELU:
		for i, v := range x {
			if v <= 0 {
				v = p0 * float32(math.Expm1(float64(v)))
			}
			y[i] = v
		}
	case opTanh:
		for i, v := range x {
			y[i] = tanh(v)
		}
	case opSigmoid:
		for i, v := range x {
			y[i] = sigmoid(v)
		}
	case opSoftplus:
		for i, v := range x {
			if v <= softplusThreshold {
				v = float32(math.Log1p(math.Exp(float64(v))))
			}
			y[i] = v
		}
	}
}

// unaryBack adds g·f′ to the input's gradient. Each case computes the local
// derivative from the input x or the result y, whichever is cheaper.
func unaryBack(n *node) {
	op, p0, p1 := unaryOp(n.ints[0]), n.f[0], n.f[1]
	g := n.out.grad
	x, y := n.a.data[:len(g)], n.out.data[:len(g)]
	dst, acc := gradInto(n.a)
	dst = dst[:len(g)]
	put := func(i int, v float32) {
		if acc {
			v += dst[i]
		}
		dst[i] = v
	}
	switch op {
	case opNeg:
		for i, gv := range g {
			put(i, -gv)
		}
	case opExp:
		for i, gv := range g {
			put(i, gv*y[i])
		}
	case opLog:
		for i, gv := range g {
			put(i, gv/x[i])
		}
	case opSqrt:
		for i, gv := range g {
			put(i, gv*0.5/y[i])
		}
	case opAbs:
		for i, gv := range g {
			switch {
			case x[i] > 0:
				put(i, gv)
			case x[i] < 0:
				put(i, -gv)
			default:
				put(i, 0)
			}
		}
	case opPow:
		switch p0 {
		case 1:
			addTo(dst, g, acc)
		case 2:
			for i, gv := range g {
				put(i, 2*gv*x[i])
			}
		default:
			for i, gv := range g {
				put(i, gv*p0*float32(math.Pow(float64(x[i]), float64(p0-1))))
			}
		}
	case opClamp:
		for i, gv := range g {
			if x[i] < p0 || x[i] > p1 {
				gv = 0
			}
			put(i, gv)
		}
	case opAddScalar:
		addTo(dst, g, acc)
	case opMulScalar:
		for i, gv := range g {
			put(i, gv*p0)
		}
	case opReLU:
		reluBackPar(dst, g, y, acc)
	case opLeakyReLU:
		for i, gv := range g {
			put(i, selectPos(x[i], gv, gv*p0))
		}
	case opELU:
		for i, gv := range g {
			if x[i] <= 0 {
				gv *= y[i] + p0
			}
			put(i, gv)
		}
	case opTanh:
		for i, gv := range g {
			put(i, gv*(1-y[i]*y[i]))
		}
	case opSigmoid:
		for i, gv := range g {
			put(i, gv*y[i]*(1-y[i]))
		}
	case opSoftplus:
		for i, gv := range g {
			if x[i] <= softplusThreshold {
				gv *= sigmoid(x[i])
			}
			put(i, gv)
		}
	}
}
