package batch

import (
	"github.com/gorl/gorl/nd"
)

// IsNull returns a Batch of the same structure holding, for every value of b,
// where it is missing (Tianshou's Batch.isnull): nd.IsNull of each array (NaN
// in float arrays, nil or NaN in Object arrays), a 0-d true for nil (None), a
// 0-d false for a string or other scalar, and all false over the batch shape
// of a custom leaf (a custom leaf has no missing values). Reserved keys stay
// reserved.
func (b *Batch) IsNull() *Batch {
	out := newBatch(len(b.ents))
	for _, e := range b.ents {
		var v any
		switch x := e.val.(type) {
		case nil:
			v = nd.MustNew(true)
		case *nd.Array:
			v = nd.IsNull(x)
		case *Batch:
			v = x.IsNull()
		case Leaf:
			v = nd.Zeros(nd.Bool, x.BatchShape()...)
		default:
			v = nd.MustNew(false)
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out
}

// HasNull reports whether any value of b is missing in IsNull's sense (a
// nil value counts). It does not allocate.
func (b *Batch) HasNull() bool {
	for _, e := range b.ents {
		switch x := e.val.(type) {
		case nil:
			return true
		case *nd.Array:
			if x.HasNull() {
				return true
			}
		case *Batch:
			if x.HasNull() {
				return true
			}
		}
	}
	return false
}

// DropNull returns the rows of b (up to Len) in which no value has a missing
// element anywhere in the row, as a new Batch (Take), as Tianshou's
// Batch.dropnull does: it keeps rows 0 and 3 of a=[1, 2, None, 4], b=[5.,
// nan, 7., 8.]. A nil value is missing in every row, as Tianshou's None is,
// so it drops them all; custom leaves have no missing values. DropNull
// returns Len's error when b has no length.
func (b *Batch) DropNull() (*Batch, error) {
	n, err := b.Len()
	if err != nil {
		return nil, err
	}
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = true
	}
	b.markNull(keep)
	rows := make([]int, 0, n)
	for i, k := range keep {
		if k {
			rows = append(rows, i)
		}
	}
	return Take(b, rows), nil
}

// markNull clears keep[r] for every row r with a missing element.
func (b *Batch) markNull(keep []bool) {
	for _, e := range b.ents {
		switch x := e.val.(type) {
		case nil:
			clear(keep)
		case *nd.Array:
			if !x.HasNull() {
				continue
			}
			m := nd.Data[bool](nd.IsNull(x))
			row := len(m) / max(x.Dim(0), 1)
			for r := range keep {
				for _, null := range m[r*row : (r+1)*row] {
					if null {
						keep[r] = false
						break
					}
				}
			}
		case *Batch:
			x.markNull(keep)
		}
	}
}

// Apply returns a new Batch of b's structure in which every value that is
// not a Batch has been replaced by fn(value), converted as New converts
// values (Tianshou's apply_values_transform): arrays, nil, strings,
// other scalars and custom leaves are all passed to fn, nested Batches are
// walked (reserved keys stay). Values fn returns unchanged are shared with
// b. Apply returns fn's error or a conversion error, wrapped with the key.
func Apply(b *Batch, fn func(v any) (any, error)) (*Batch, error) {
	out := newBatch(len(b.ents))
	for _, e := range b.ents {
		var v any
		var err error
		if sub, ok := e.val.(*Batch); ok {
			v, err = Apply(sub, fn)
			if err != nil {
				return nil, within(e.key, err)
			}
		} else {
			if v, err = fn(e.val); err != nil {
				return nil, errAt(ErrValue, e.key, "transform failed", err)
			}
			if v, err = convert(v, false); err != nil {
				return nil, within(e.key, err)
			}
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out, nil
}

// Apply replaces every value of b that is not a Batch by fn(value) in
// place (apply_values_transform with inplace=True); see the function Apply.
// The transformed values are all computed before any is stored, so on error
// b is unchanged. Nested Batches keep their identity: a *Batch taken from b
// before sees the new values.
func (b *Batch) Apply(fn func(v any) (any, error)) error {
	r, err := Apply(b, fn)
	if err != nil {
		return err
	}
	b.replaceValues(r)
	return nil
}

// replaceValues stores r's values into b, which has r's structure, keeping
// b's nested Batches.
func (b *Batch) replaceValues(r *Batch) {
	for i := range b.ents {
		if sub, ok := b.ents[i].val.(*Batch); ok {
			sub.replaceValues(r.ents[i].val.(*Batch))
			continue
		}
		b.ents[i].val = r.ents[i].val
	}
}

// AsType returns a new Batch in which every array of b is converted to dt
// with nd's AsType (numpy's astype: floats to ints truncate, Object to
// numbers converts Go numbers): the Go form of Tianshou's to_torch(dtype)
// and to_numpy, without devices. nil values and reserved keys are kept. It
// returns an error wrapping ErrType, naming the key, for a string, other
// scalar or custom leaf (which cannot be converted) and for an array nd
// cannot convert (an Object array holding a string).
func AsType(b *Batch, dt nd.DType) (*Batch, error) {
	return asType(b, dt, true)
}

// AsType converts every array of b to dt in place (to_torch_(dtype)):
// arrays already of dtype dt are kept, others are replaced by converted
// copies. The conversions are all done before any is stored, so on error
// b is unchanged; see the function AsType.
func (b *Batch) AsType(dt nd.DType) error {
	r, err := asType(b, dt, false)
	if err != nil {
		return err
	}
	b.replaceValues(r)
	return nil
}

func asType(b *Batch, dt nd.DType, always bool) (*Batch, error) {
	out := newBatch(len(b.ents))
	for _, e := range b.ents {
		var v any
		switch x := e.val.(type) {
		case nil:
		case *nd.Array:
			if !always && x.DType() == dt {
				v = x
				break
			}
			c, err := x.AsType(dt)
			if err != nil {
				return nil, errAt(ErrType, e.key, "cannot convert to "+dt.String(), err)
			}
			v = c
		case *Batch:
			sub, err := asType(x, dt, always)
			if err != nil {
				return nil, within(e.key, err)
			}
			v = sub
		default:
			return nil, errAt(ErrType, e.key, "cannot convert "+describe(x)+" to "+dt.String(), nil)
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out, nil
}

// ToAtLeast2D returns a new Batch in which every array has at least two axes,
// as numpy's atleast_2d makes them (Tianshou's to_at_least_2d): a 0-d array
// becomes shape [1, 1] and a 1-d array of n elements shape [1, n], both views
// of b's arrays, while arrays with two or more axes are kept as they are. A
// custom leaf without batch axis gets one of length 1 (its Stack of itself
// alone), a string or other scalar becomes a [1, 1] Object array; nil and
// reserved keys are kept. It returns an error wrapping ErrStructure, naming
// the key, if a custom leaf's Stack fails.
func ToAtLeast2D(b *Batch) (*Batch, error) {
	out := newBatch(len(b.ents))
	for _, e := range b.ents {
		var v any
		switch x := e.val.(type) {
		case nil:
		case *nd.Array:
			switch x.Ndim() {
			case 0:
				v = x.ExpandDims(0).ExpandDims(0)
			case 1:
				v = x.ExpandDims(0)
			default:
				v = x
			}
		case *Batch:
			sub, err := ToAtLeast2D(x)
			if err != nil {
				return nil, within(e.key, err)
			}
			v = sub
		case Leaf:
			if len(x.BatchShape()) > 0 {
				v = x
				break
			}
			l, err := x.Stack(0)
			if err != nil {
				return nil, errAt(ErrStructure, e.key, "cannot add a batch axis to the custom leaf", err)
			}
			v = l
		default:
			v = asArray(x).ExpandDims(0).ExpandDims(0)
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out, nil
}
