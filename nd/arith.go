package nd

import "slices"

type binOp uint8

const (
	opAdd binOp = iota
	opSub
	opMul
	opDiv
	opOr  // bool +
	opAnd // bool *
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
)

var opNames = [...]string{
	opAdd: "add", opSub: "subtract", opMul: "multiply", opDiv: "true_divide", opOr: "add", opAnd: "multiply",
	opEq: "equal", opNe: "not_equal", opLt: "less", opLe: "less_equal", opGt: "greater", opGe: "greater_equal",
}

func (op binOp) compare() bool { return op >= opEq }

// Add returns x + y elementwise with numpy broadcasting. x and y are each an
// *Array, a Go scalar (bool or number) or a Go slice (converted by New).
// The result dtype is ResultType of the operands, where Go scalars follow
// numpy 2's weak-scalar rule (NEP 50): a Go int, float64 or bool takes the
// array's dtype when its kind is not higher (int array + 1 keeps the int
// dtype, float32 array + 0.5 stays float32, int array + 0.5 is float64),
// while sized Go scalars (int32, float32, …) promote like arrays of their
// type. Integer overflow wraps, as in numpy. Bool + bool is logical or.
//
// Add returns an error wrapping ErrShape if the shapes do not broadcast,
// ErrCast if a weak Go int does not fit the array's dtype (numpy's
// OverflowError), and ErrDType for Object arrays or non-numeric operands.
func Add(x, y any) (*Array, error) { return binary(opAdd, x, y) }

// Sub returns x - y; see Add. Subtracting bool arrays is an error, as in
// numpy.
func Sub(x, y any) (*Array, error) { return binary(opSub, x, y) }

// Mul returns x * y; see Add. Bool * bool is logical and.
func Mul(x, y any) (*Array, error) { return binary(opMul, x, y) }

// Div returns x / y, numpy's true division: integer and bool operands give
// float64; float32 stays float32. Division by zero gives ±Inf or NaN.
func Div(x, y any) (*Array, error) { return binary(opDiv, x, y) }

// Eq returns the Bool array x == y, compared in the operands' ResultType
// (see Add for the operand rules). Object arrays compare elementwise with
// Equal's element rule; ordering comparisons on them are an error.
func Eq(x, y any) (*Array, error) { return binary(opEq, x, y) }

// Ne returns the Bool array x != y; see Eq.
func Ne(x, y any) (*Array, error) { return binary(opNe, x, y) }

// Lt returns the Bool array x < y; see Eq. NaN compares false.
func Lt(x, y any) (*Array, error) { return binary(opLt, x, y) }

// Le returns the Bool array x <= y; see Eq.
func Le(x, y any) (*Array, error) { return binary(opLe, x, y) }

// Gt returns the Bool array x > y; see Eq.
func Gt(x, y any) (*Array, error) { return binary(opGt, x, y) }

// Ge returns the Bool array x >= y; see Eq.
func Ge(x, y any) (*Array, error) { return binary(opGe, x, y) }

// Neg returns -x, with x's dtype (unsigned integers wrap, as in numpy).
// Negating a bool or Object array is an error wrapping ErrDType.
func Neg(x any) (*Array, error) {
	a, err := operandArray(x)
	if err != nil {
		return nil, err
	}
	if a.dt == Bool || a.dt == Object {
		return nil, errorf(ErrDType, "the negative operator is not supported for %v arrays", a.dt)
	}
	zero := newArray(a.dt, nil)
	return binary(opSub, zero, a)
}

// Add sets a = a + y in place (numpy's a += y); see the function Add for the
// operand rules. y must broadcast to a's shape, and the result dtype must be
// castable to a's dtype under "same_kind" (int64 += float is an error,
// float32 += float64 array is allowed); otherwise an error is returned and
// a is unchanged. Writes go through to the array a views. With an *Array y
// of a's dtype the operation does not allocate.
func (a *Array) Add(y any) error { return a.inplace(opAdd, y) }

// Sub sets a = a - y in place; see Array.Add.
func (a *Array) Sub(y any) error { return a.inplace(opSub, y) }

// Mul sets a = a * y in place; see Array.Add.
func (a *Array) Mul(y any) error { return a.inplace(opMul, y) }

// Div sets a = a / y in place; see Array.Add. Integer arrays cannot hold the
// float64 quotient, so dividing them in place is an error.
func (a *Array) Div(y any) error { return a.inplace(opDiv, y) }

// operand is one side of a binary operation.
type operand struct {
	arr    *Array
	sc     scalar
	scalar bool
}

func toOperand(v any) (operand, error) {
	if a, ok := v.(*Array); ok {
		if a == nil {
			return operand{}, errorf(ErrDType, "nil *Array operand")
		}
		return operand{arr: a}, nil
	}
	if isSequence(v) {
		a, err := New(v)
		return operand{arr: a}, err
	}
	s, ok := scalarOf(v)
	if !ok {
		return operand{}, errorf(ErrDType, "unsupported operand %s", describe(v))
	}
	return operand{sc: s, scalar: true}, nil
}

func operandArray(v any) (*Array, error) {
	o, err := toOperand(v)
	if err != nil {
		return nil, err
	}
	if o.scalar {
		return scalarArray(o.sc, o.sc.dt), nil
	}
	return o.arr, nil
}

// scalarArray returns a 0-d array of dtype dt holding s (unchecked).
func scalarArray(s scalar, dt DType) *Array {
	a := newArray(dt, nil)
	setScalar(a, 0, s)
	return a
}

// opType returns the dtype an operation computes in, and the dtype of its
// result.
func opType(op binOp, x, y operand) (work, result DType, err error) {
	switch {
	case x.scalar && y.scalar:
		work = ResultType(x.sc.dt, y.sc.dt)
	case x.scalar:
		work = weakResult(y.arr.dt, x.sc)
	case y.scalar:
		work = weakResult(x.arr.dt, y.sc)
	default:
		work = ResultType(x.arr.dt, y.arr.dt)
	}
	for _, o := range [2]operand{x, y} {
		if o.scalar && !o.sc.fits(work) {
			if !op.compare() {
				return 0, 0, errorf(ErrCast, "Go integer %v out of bounds for %v", o.sc.v, work)
			}
			work = Float64 // compare exactly enough in float64, as numpy 2 compares Python ints
		}
	}
	if work == Object {
		if op != opEq && op != opNe {
			return 0, 0, errorf(ErrDType, "ufunc '%s' is not supported for object arrays", opNames[op])
		}
		return Object, Bool, nil
	}
	switch {
	case op.compare():
		return work, Bool, nil
	case op == opDiv && !work.IsFloat():
		return Float64, Float64, nil
	case op == opSub && work == Bool:
		return 0, 0, errorf(ErrDType, "numpy boolean subtract, the `-` operator, is not supported")
	}
	return work, work, nil
}

func (o operand) as(dt DType) (*Array, error) {
	if o.scalar {
		return scalarArray(o.sc, dt), nil
	}
	if o.arr.dt == dt {
		return o.arr, nil
	}
	return o.arr.AsType(dt)
}

func (o operand) shape() []int {
	if o.scalar {
		return nil
	}
	return o.arr.shape
}

func binary(op binOp, xv, yv any) (*Array, error) {
	x, err := toOperand(xv)
	if err != nil {
		return nil, err
	}
	y, err := toOperand(yv)
	if err != nil {
		return nil, err
	}
	work, result, err := opType(op, x, y)
	if err != nil {
		return nil, err
	}
	var buf [walkStack]int
	shape, ok := broadcastPair(x.shape(), y.shape(), buf[:0])
	if !ok {
		return nil, errorf(ErrShape, "operands could not be broadcast together with shapes %s %s", shapeString(x.shape()), shapeString(y.shape()))
	}
	xa, err := x.as(work)
	if err != nil {
		return nil, err
	}
	ya, err := y.as(work)
	if err != nil {
		return nil, err
	}
	dst := newArray(result, shape)
	apply(op, dst, xa, ya)
	return dst, nil
}

// apply computes dst = xa op ya; xa and ya have the working dtype and
// broadcast to dst's shape.
func apply(op binOp, dst, xa, ya *Array) {
	var xb, yb [walkStack]int
	xs, _ := broadcastStrides(xa, dst.shape, xb[:])
	ys, _ := broadcastStrides(ya, dst.shape, yb[:])
	if op.compare() {
		switch xa.dt {
		case Bool, Uint8:
			compareRuns[uint8](op, dst, xa, ya, xs, ys)
		case Int8:
			compareRuns[int8](op, dst, xa, ya, xs, ys)
		case Int16:
			compareRuns[int16](op, dst, xa, ya, xs, ys)
		case Int32:
			compareRuns[int32](op, dst, xa, ya, xs, ys)
		case Int64:
			compareRuns[int64](op, dst, xa, ya, xs, ys)
		case Uint16:
			compareRuns[uint16](op, dst, xa, ya, xs, ys)
		case Uint32:
			compareRuns[uint32](op, dst, xa, ya, xs, ys)
		case Uint64:
			compareRuns[uint64](op, dst, xa, ya, xs, ys)
		case Float32:
			compareRuns[float32](op, dst, xa, ya, xs, ys)
		case Float64:
			compareRuns[float64](op, dst, xa, ya, xs, ys)
		case Object:
			compareObjects(op, dst, xa, ya, xs, ys)
		}
		return
	}
	switch xa.dt {
	case Bool:
		if op == opAdd {
			op = opOr
		} else {
			op = opAnd
		}
		logicRuns(op, dst, xa, ya, xs, ys)
	case Int8:
		arithRuns[int8](op, dst, xa, ya, xs, ys)
	case Int16:
		arithRuns[int16](op, dst, xa, ya, xs, ys)
	case Int32:
		arithRuns[int32](op, dst, xa, ya, xs, ys)
	case Int64:
		arithRuns[int64](op, dst, xa, ya, xs, ys)
	case Uint8:
		arithRuns[uint8](op, dst, xa, ya, xs, ys)
	case Uint16:
		arithRuns[uint16](op, dst, xa, ya, xs, ys)
	case Uint32:
		arithRuns[uint32](op, dst, xa, ya, xs, ys)
	case Uint64:
		arithRuns[uint64](op, dst, xa, ya, xs, ys)
	case Float32:
		arithRuns[float32](op, dst, xa, ya, xs, ys)
	case Float64:
		arithRuns[float64](op, dst, xa, ya, xs, ys)
	}
}

// arithRuns is the elementwise kernel: one instantiation per dtype, with the
// operation chosen once per run and a bounds-check-free loop for contiguous
// runs.
func arithRuns[T number](op binOp, dst, xa, ya *Array, xs, ys []int) {
	d, x, y := elems[T](dst), elems[T](xa), elems[T](ya)
	walk(dst.shape, 3, [3][]int{dst.strides, xs, ys}, [3]int{dst.off, xa.off, ya.off}, func(o [3]int, n int, st [3]int) {
		if st == [3]int{1, 1, 1} {
			dd, xx, yy := d[o[0]:o[0]+n], x[o[1]:o[1]+n], y[o[2]:o[2]+n]
			switch op {
			case opAdd:
				for k := range dd {
					dd[k] = xx[k] + yy[k]
				}
			case opSub:
				for k := range dd {
					dd[k] = xx[k] - yy[k]
				}
			case opMul:
				for k := range dd {
					dd[k] = xx[k] * yy[k]
				}
			case opDiv:
				for k := range dd {
					dd[k] = xx[k] / yy[k]
				}
			}
			return
		}
		di, xi, yi := o[0], o[1], o[2]
		for k := 0; k < n; k++ {
			a, b := x[xi], y[yi]
			var r T
			switch op {
			case opAdd:
				r = a + b
			case opSub:
				r = a - b
			case opMul:
				r = a * b
			case opDiv:
				r = a / b
			}
			d[di] = r
			di += st[0]
			xi += st[1]
			yi += st[2]
		}
	})
}

// logicRuns computes bool + (or) and bool * (and) on the bytes of bool
// arrays.
func logicRuns(op binOp, dst, xa, ya *Array, xs, ys []int) {
	d, x, y := elems[uint8](dst), elems[uint8](xa), elems[uint8](ya)
	walk(dst.shape, 3, [3][]int{dst.strides, xs, ys}, [3]int{dst.off, xa.off, ya.off}, func(o [3]int, n int, st [3]int) {
		di, xi, yi := o[0], o[1], o[2]
		for k := 0; k < n; k++ {
			if op == opOr {
				d[di] = x[xi] | y[yi]
			} else {
				d[di] = x[xi] & y[yi]
			}
			di += st[0]
			xi += st[1]
			yi += st[2]
		}
	})
}

// compareRuns is the comparison kernel, one instantiation per dtype (bool
// compares as its bytes, false < true).
func compareRuns[T number](op binOp, dst, xa, ya *Array, xs, ys []int) {
	d, x, y := elems[bool](dst), elems[T](xa), elems[T](ya)
	walk(dst.shape, 3, [3][]int{dst.strides, xs, ys}, [3]int{dst.off, xa.off, ya.off}, func(o [3]int, n int, st [3]int) {
		di, xi, yi := o[0], o[1], o[2]
		for k := 0; k < n; k++ {
			a, b := x[xi], y[yi]
			var r bool
			switch op {
			case opEq:
				r = a == b
			case opNe:
				r = a != b
			case opLt:
				r = a < b
			case opLe:
				r = a <= b
			case opGt:
				r = a > b
			case opGe:
				r = a >= b
			}
			d[di] = r
			di += st[0]
			xi += st[1]
			yi += st[2]
		}
	})
}

func compareObjects(op binOp, dst, xa, ya *Array, xs, ys []int) {
	d, x, y := elems[bool](dst), elems[any](xa), elems[any](ya)
	walk(dst.shape, 3, [3][]int{dst.strides, xs, ys}, [3]int{dst.off, xa.off, ya.off}, func(o [3]int, n int, st [3]int) {
		di, xi, yi := o[0], o[1], o[2]
		for k := 0; k < n; k++ {
			d[di] = sameValue(x[xi], y[yi]) == (op == opEq)
			di += st[0]
			xi += st[1]
			yi += st[2]
		}
	})
}

// sameValue is == for Object elements: Go numbers and bools compare by
// value whatever their Go types (int(1) == int64(1) == 1.0 == true), other
// values as in Equal.
func sameValue(x, y any) bool {
	sx, okx := scalarOf(x)
	sy, oky := scalarOf(y)
	if !okx || !oky {
		return equalObjects(x, y)
	}
	fx, fy := sx.dt.kind() == kindFloat, sy.dt.kind() == kindFloat
	switch {
	case fx || fy:
		return sx.f == sy.f
	case sx.neg || sy.neg:
		return sx.neg == sy.neg && sx.i == sy.i
	}
	return sx.u == sy.u
}

// inplace computes a = a op y.
func (a *Array) inplace(op binOp, yv any) error {
	y, err := toOperand(yv)
	if err != nil {
		return err
	}
	x := operand{arr: a}
	work, result, err := opType(op, x, y)
	if err != nil {
		return err
	}
	if !CanCast(result, a.dt) {
		return errorf(ErrCast, "cannot cast ufunc '%s' output from dtype %v to %v with casting rule 'same_kind'", opNames[op], result, a.dt)
	}
	if !broadcastsTo(y.shape(), a.shape) {
		return errorf(ErrShape, "non-broadcastable output operand with shape %s doesn't match the broadcast shape of %s and %s", shapeString(a.shape), shapeString(a.shape), shapeString(y.shape()))
	}
	if work != a.dt || result != a.dt {
		r, err := binary(op, a, yv)
		if err != nil {
			return err
		}
		return CopyTo(a, r)
	}
	ya, err := y.as(work)
	if err != nil {
		return err
	}
	if ya.ptr == a.ptr && ya.n > 0 {
		var sb [walkStack]int
		st, _ := broadcastStrides(ya, a.shape, sb[:])
		if ya.off != a.off || !slices.Equal(st, a.strides) {
			ya = ya.Copy() // overlapping but not the same elements
		}
	}
	apply(op, a, a, ya)
	return nil
}

// broadcastPair appends to buf the broadcast shape of x and y, reporting
// false if they do not broadcast.
func broadcastPair(x, y []int, buf []int) ([]int, bool) {
	n := max(len(x), len(y))
	for i := 0; i < n; i++ {
		dx, dy := 1, 1
		if j := i - (n - len(x)); j >= 0 {
			dx = x[j]
		}
		if j := i - (n - len(y)); j >= 0 {
			dy = y[j]
		}
		switch {
		case dx == dy || dy == 1:
			buf = append(buf, dx)
		case dx == 1:
			buf = append(buf, dy)
		default:
			return nil, false
		}
	}
	return buf, true
}

// broadcastsTo reports whether shape from broadcasts to shape to.
func broadcastsTo(from, to []int) bool {
	if len(from) > len(to) {
		return false
	}
	for i, d := range from {
		if t := to[len(to)-len(from)+i]; d != t && d != 1 {
			return false
		}
	}
	return true
}
