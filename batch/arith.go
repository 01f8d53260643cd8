package batch

import (
	"fmt"
	"slices"

	"github.com/gorl/gorl/nd"
)

// op is one of the four arithmetic operations.
type op int

const (
	opAdd op = iota
	opSub
	opMul
	opDiv
)

var opNames = [...]string{"add", "subtract", "multiply", "divide"}

func (o op) inplace(a *nd.Array, y any) error {
	switch o {
	case opAdd:
		return a.Add(y)
	case opSub:
		return a.Sub(y)
	case opMul:
		return a.Mul(y)
	}
	return a.Div(y)
}

func (o op) apply(x *nd.Array, y any) (*nd.Array, error) {
	switch o {
	case opAdd:
		return nd.Add(x, y)
	case opSub:
		return nd.Sub(x, y)
	case opMul:
		return nd.Mul(x, y)
	}
	return nd.Div(x, y)
}

// Add sets every array of b to b + y in place (Tianshou's b += y): y is a
// Go number or bool, an *nd.Array (broadcast to every array), or a *Batch
// of the same structure whose arrays broadcast to b's. Arithmetic follows
// nd's in-place rules (numpy broadcasting and "same_kind" casting: an int
// array += 0.5 is an error). Writes go through views, so
// b.Index(nd.All(), nd.I(1)).Add(1) changes b. nil values and reserved keys
// of b are skipped.
//
// A custom leaf that is an ArrayLeaf takes part through its array (its
// values change), and an ArrayLeaf in a Batch operand is used as its
// array. Every leaf is checked before any is written, so on error b is
// unchanged: an error wrapping ErrType, naming the key, for a string,
// other scalar or other custom leaf in b, an operand that is not a number,
// array or Batch, or a leaf nd refuses (with nd's error); ErrStructure if a
// Batch operand's keys or value kinds differ from b's.
func (b *Batch) Add(y any) error { return b.inplace(opAdd, y) }

// Sub sets b to b - y in place; see Batch.Add.
func (b *Batch) Sub(y any) error { return b.inplace(opSub, y) }

// Mul sets b to b * y in place; see Batch.Add.
func (b *Batch) Mul(y any) error { return b.inplace(opMul, y) }

// Div sets b to b / y in place (true division); see Batch.Add. Integer
// arrays cannot hold the quotient, so they make it an error.
func (b *Batch) Div(y any) error { return b.inplace(opDiv, y) }

// Add returns a new Batch holding x + y for every array of x (nd.Add: a new
// array with numpy's type promotion); y is as in Batch.Add. nil values and
// reserved keys are kept. It returns Batch.Add's errors.
func Add(x *Batch, y any) (*Batch, error) { return arith(opAdd, x, y) }

// Sub returns x - y; see Add.
func Sub(x *Batch, y any) (*Batch, error) { return arith(opSub, x, y) }

// Mul returns x * y; see Add.
func Mul(x *Batch, y any) (*Batch, error) { return arith(opMul, x, y) }

// Div returns x / y, nd's true division (integers give float64); see Add.
func Div(x *Batch, y any) (*Batch, error) { return arith(opDiv, x, y) }

// checkOperand accepts Go numbers and bools, arrays and Batches.
func checkOperand(y any) error {
	switch y.(type) {
	case *Batch, *nd.Array, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return nil
	}
	return &Error{Kind: ErrType, Msg: "arithmetic operand " + describe(y) + " is not a number, an array or a Batch"}
}

// pair is one array of the receiver and its operand.
type pair struct {
	x *nd.Array
	y any
}

func (b *Batch) inplace(o op, y any) error {
	if err := checkOperand(y); err != nil {
		return err
	}
	var pairs []pair
	if err := collectPairs(o, b, y, &pairs); err != nil {
		return err
	}
	for _, pr := range pairs {
		if err := o.inplace(pr.x, pr.y); err != nil {
			// Checked by probe; reaching here is a bug in the probe.
			panic(err)
		}
	}
	return nil
}

// collectPairs walks b (and y when it is a Batch), checks each array with
// its operand and appends them to pairs.
func collectPairs(o op, b *Batch, y any, pairs *[]pair) error {
	yb, structured := y.(*Batch)
	if structured {
		if err := operandKeys(b, yb); err != nil {
			return err
		}
	}
	for i := range b.ents {
		e := &b.ents[i]
		yv := y
		if structured {
			yv = leafArray(yb.ents[yb.lookup(e.key, i)].val)
		}
		switch x := leafArray(e.val).(type) {
		case nil:
		case *Batch:
			if len(x.ents) == 0 {
				continue
			}
			if sb, ok := yv.(*Batch); structured && (!ok || len(sb.ents) == 0) {
				return errAt(ErrStructure, e.key, "a Batch cannot be combined with "+describe(yv), nil)
			}
			if err := collectPairs(o, x, yv, pairs); err != nil {
				return within(e.key, err)
			}
		case *nd.Array:
			if structured {
				if _, ok := yv.(*nd.Array); !ok {
					return errAt(ErrStructure, e.key, "an array cannot be combined with "+describe(yv), nil)
				}
			}
			if err := probe(o, x, yv); err != nil {
				return errAt(ErrType, e.key, "cannot "+opNames[o]+" in place", err)
			}
			*pairs = append(*pairs, pair{x, yv})
		default:
			return errAt(ErrType, e.key, "cannot "+opNames[o]+" "+describe(x), nil)
		}
	}
	return nil
}

// operandKeys checks that y has exactly b's keys.
func operandKeys(b, y *Batch) error {
	for _, e := range b.ents {
		if y.find(e.key) < 0 {
			return errAt(ErrStructure, e.key, "key missing from the operand", nil)
		}
	}
	for _, e := range y.ents {
		if b.find(e.key) < 0 {
			return errAt(ErrStructure, e.key, "operand key missing from the batch", nil)
		}
	}
	return nil
}

// probe reports the error the in-place operation x op= y would return,
// without writing x: shapes with BroadcastShapes, dtypes and scalar values
// by running the operation on 0-d arrays of the same dtypes.
func probe(o op, x *nd.Array, y any) error {
	z := nd.Zeros(x.DType())
	ya, ok := y.(*nd.Array)
	if !ok {
		return o.inplace(z, y)
	}
	s, err := nd.BroadcastShapes(x.Shape(), ya.Shape())
	if err != nil {
		return err
	}
	if !slices.Equal(s, x.Shape()) {
		return &nd.Error{Kind: nd.ErrShape, Msg: fmt.Sprintf("nd: operand of shape %v does not broadcast to the array's shape %v", ya.Shape(), x.Shape())}
	}
	return o.inplace(z, nd.Zeros(ya.DType()))
}

func arith(o op, x *Batch, y any) (*Batch, error) {
	if err := checkOperand(y); err != nil {
		return nil, err
	}
	yb, structured := y.(*Batch)
	if structured {
		if err := operandKeys(x, yb); err != nil {
			return nil, err
		}
	}
	out := newBatch(len(x.ents))
	for i := range x.ents {
		e := &x.ents[i]
		yv := y
		if structured {
			yv = leafArray(yb.ents[yb.lookup(e.key, i)].val)
		}
		var v any
		switch xv := e.val.(type) {
		case nil:
		case *Batch:
			if len(xv.ents) == 0 {
				v = &Batch{}
				break
			}
			if sb, ok := yv.(*Batch); structured && (!ok || len(sb.ents) == 0) {
				return nil, errAt(ErrStructure, e.key, "a Batch cannot be combined with "+describe(yv), nil)
			}
			r, err := arith(o, xv, yv)
			if err != nil {
				return nil, within(e.key, err)
			}
			v = r
		case *nd.Array:
			if structured {
				if _, ok := yv.(*nd.Array); !ok {
					return nil, errAt(ErrStructure, e.key, "an array cannot be combined with "+describe(yv), nil)
				}
			}
			r, err := o.apply(xv, yv)
			if err != nil {
				return nil, errAt(ErrType, e.key, "cannot "+opNames[o], err)
			}
			v = r
		default:
			return nil, errAt(ErrType, e.key, "cannot "+opNames[o]+" "+describe(xv), nil)
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out, nil
}

// Mean returns a new Batch holding nd.Mean of every array of b: over the
// whole array with no axis (np.mean(batch) in Tianshou's Batch tutorial),
// along one axis otherwise (the older tutorial's mean over axis 0). nil
// values and reserved keys are kept. It returns an error wrapping ErrType,
// naming the key, for a string, other scalar or custom leaf, or an array nd
// cannot reduce (with nd's error).
func Mean(b *Batch, axis ...int) (*Batch, error) { return reduce(b, nd.Mean, "mean", axis) }

// Sum returns nd.Sum of every array of b; see Mean.
func Sum(b *Batch, axis ...int) (*Batch, error) { return reduce(b, nd.Sum, "sum", axis) }

// Min returns nd.Min of every array of b; see Mean.
func Min(b *Batch, axis ...int) (*Batch, error) { return reduce(b, nd.Min, "min", axis) }

// Max returns nd.Max of every array of b; see Mean.
func Max(b *Batch, axis ...int) (*Batch, error) { return reduce(b, nd.Max, "max", axis) }

func reduce(b *Batch, fn func(*nd.Array, ...int) (*nd.Array, error), name string, axis []int) (*Batch, error) {
	out := newBatch(len(b.ents))
	for i := range b.ents {
		e := &b.ents[i]
		var v any
		switch x := e.val.(type) {
		case nil:
		case *Batch:
			if len(x.ents) == 0 {
				v = &Batch{}
				break
			}
			r, err := reduce(x, fn, name, axis)
			if err != nil {
				return nil, within(e.key, err)
			}
			v = r
		case *nd.Array:
			r, err := fn(x, axis...)
			if err != nil {
				return nil, errAt(ErrType, e.key, "cannot take the "+name, err)
			}
			v = r
		default:
			return nil, errAt(ErrType, e.key, "cannot take the "+name+" of "+describe(x), nil)
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out, nil
}
