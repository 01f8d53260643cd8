package batch

import (
	"github.com/gorl/gorl/nd"
)

// SetIndex sets b[idx...] = v, writing into b's arrays (so through a view
// into the original), Tianshou's batch[idx] = value. v is either
//
//   - a *Batch (or a map, converted as New converts it) whose keys are a
//     subset of b's: each of its arrays or scalars is assigned to the array
//     under the same key path with nd's SetIndex (broadcasting, "same_kind"
//     casting, Go values checked by value), and every key of b that v lacks
//     is reset at idx (0, false, or nil for Object arrays; nested Batches
//     recursively), as Tianshou's batch[0] = Batch.empty(batch[0]) needs;
//   - or a scalar (a Go number or bool, a string, nil), assigned to every
//     array of b.
//
// A custom leaf in v may be assigned to an Object array of b, which then
// holds it as one element per position (the storage ZerosStacked makes for
// a custom leaf). An ArrayLeaf of b is written through its array, and an
// ArrayLeaf in v assigned to an array (not an Object array) or an
// ArrayLeaf of b is written as its array: data[:, 1] += 6 is
// sub := data.Index(idx...); sub.Add(6); data.SetIndex(sub, idx...) (see
// ArrayLeaf).
//
// nil values and reserved keys of b are left alone. Before writing anything
// SetIndex checks the structure and returns an error wrapping ErrKey,
// naming the key, if v has a key b lacks, and ErrType if v is an array (use
// a Batch), a value cannot go where v puts it (a Batch onto an array, an
// array onto a Batch) or b holds a string, other scalar or custom leaf (not
// an ArrayLeaf) that the assignment would have to change. A value that nd refuses (a shape
// that does not broadcast, a cast that is not allowed) returns nd's error
// wrapped with the key; the keys before it have been written then. A bad
// index panics as in Index.
func (b *Batch) SetIndex(v any, idx ...nd.Index) error {
	src, err := assignSource(v)
	if err != nil {
		return err
	}
	if err := checkAssign(b, src); err != nil {
		return err
	}
	if idx == nil {
		idx = []nd.Index{} // non-nil: assign at an index, not a row
	}
	return assign(b, src, idx, 0)
}

// assignSource converts the value of SetIndex: a Batch or a scalar.
func assignSource(v any) (any, error) {
	switch v.(type) {
	case *nd.Array:
		return nil, &Error{Kind: ErrType, Msg: "SetIndex assigns a Batch or a scalar, not " + describe(v) + ": put it in a Batch"}
	case Leaf:
		return nil, &Error{Kind: ErrType, Msg: "SetIndex cannot assign " + describe(v)}
	case *Batch, nil, string:
		return v, nil
	}
	c, err := convert(v, false)
	if err != nil {
		return nil, err
	}
	if a, ok := c.(*nd.Array); ok {
		if a.Ndim() > 0 {
			return nil, &Error{Kind: ErrType, Msg: "SetIndex assigns a Batch or a scalar, not " + describe(v) + ": put it in a Batch"}
		}
		// A Go number (named types included): assign its value, which nd
		// checks by value.
		return a.Item(), nil
	}
	return c, nil
}

// missing marks a key of the destination that the assigned Batch lacks.
type missing struct{}

func (b *Batch) sourceValue(src any, i int, key string) any {
	sb, ok := src.(*Batch)
	if !ok {
		return src
	}
	if j := sb.lookup(key, i); j >= 0 {
		return sb.ents[j].val
	}
	return missing{}
}

func checkAssign(dst *Batch, src any) error {
	if sb, ok := src.(*Batch); ok {
		for _, e := range sb.ents {
			if dst.find(e.key) < 0 {
				return errAt(ErrKey, e.key, "item assignment cannot create keys", nil)
			}
		}
	}
	for i := range dst.ents {
		e := &dst.ents[i]
		sv := dst.sourceValue(src, i, e.key)
		_, isMissing := sv.(missing)
		sb, svBatch := sv.(*Batch)
		switch x := leafArray(e.val).(type) {
		case nil:
			if !isMissing && sv != nil && !isScalar(sv) {
				return errAt(ErrType, e.key, "cannot assign "+describe(sv)+" into nil", nil)
			}
		case *nd.Array:
			if x.DType() != nd.Object {
				sv = leafArray(sv) // an Object array stores the leaf itself
			}
			_, svLeaf := sv.(Leaf)
			if svBatch || !isMissing && !isScalar(sv) && !isArray(sv) && !(svLeaf && x.DType() == nd.Object) {
				return errAt(ErrType, e.key, "cannot assign "+describe(sv)+" into a "+x.DType().String()+" array", nil)
			}
			if x.DType() != nd.Object && !isMissing && isScalar(sv) && !isNumber(sv) {
				return errAt(ErrType, e.key, "cannot assign "+describe(sv)+" into a "+x.DType().String()+" array", nil)
			}
		case *Batch:
			if len(x.ents) == 0 {
				if svBatch && len(sb.ents) > 0 || isArray(leafArray(sv)) {
					return errAt(ErrType, e.key, "cannot assign "+describe(sv)+" into a reserved key", nil)
				}
				continue
			}
			if isArray(leafArray(sv)) {
				return errAt(ErrType, e.key, "cannot assign "+describe(sv)+" into a Batch", nil)
			}
			next := sv
			if isMissing {
				next = &Batch{}
			}
			if err := checkAssign(x, next); err != nil {
				return within(e.key, err)
			}
		default:
			return errAt(ErrType, e.key, "cannot assign into "+describe(x), nil)
		}
	}
	return nil
}

// isNumber reports whether v is a Go bool or number.
func isNumber(v any) bool {
	switch v.(type) {
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return true
	}
	return false
}

func isArray(v any) bool {
	_, ok := v.(*nd.Array)
	return ok
}

// zeroOf returns the Go value that resets an element of dtype dt.
func zeroOf(dt nd.DType) any {
	switch dt {
	case nd.Bool:
		return false
	case nd.Object:
		return nil
	}
	return 0
}

// SetRow sets b[i] = src along axis 0 of every array, the allocation-free
// form of SetIndex(src, nd.I(i)) that replay buffers use to store a
// transition: src is a Batch whose keys are a subset of b's, each array of
// src is assigned to the row with nd's SetRow (broadcast and cast under the
// "same_kind" rule), and the keys src lacks are reset in that row. A
// negative i counts from the end. ArrayLeaf values of b and src take part
// through their arrays, as in SetIndex. SetRow does not allocate when the
// values of b and src are arrays (numbers are 0-d arrays); a string or
// other scalar stored into an Object array allocates, and an ArrayLeaf
// allocates what its Array method does.
//
// SetRow returns SetIndex's errors. It panics with nd's *Error if an array
// of b is 0-d or i is out of range.
func (b *Batch) SetRow(i int, src *Batch) error {
	if err := checkAssign(b, src); err != nil {
		return err
	}
	return assign(b, src, nil, i)
}

// zeroRows holds one read-only 0-d zero array per dtype, the source that
// SetRow broadcasts over the row of a key the assigned Batch lacks.
var zeroRows = func() map[nd.DType]*nd.Array {
	m := make(map[nd.DType]*nd.Array)
	for _, dt := range []nd.DType{nd.Bool, nd.Int8, nd.Int16, nd.Int32, nd.Int64, nd.Uint8, nd.Uint16, nd.Uint32, nd.Uint64, nd.Float32, nd.Float64, nd.Object} {
		m[dt] = nd.Zeros(dt)
	}
	return m
}()

// assign writes src into dst at idx, or into row `row` along axis 0 when
// idx is nil.
func assign(dst *Batch, src any, idx []nd.Index, row int) error {
	for i := range dst.ents {
		e := &dst.ents[i]
		sv := dst.sourceValue(src, i, e.key)
		switch x := leafArray(e.val).(type) {
		case *nd.Array:
			if x.DType() != nd.Object {
				sv = leafArray(sv) // an Object array stores the leaf itself
			}
			var err error
			switch {
			case idx != nil:
				if _, ok := sv.(missing); ok {
					sv = zeroOf(x.DType())
				}
				err = x.SetIndex(sv, idx...)
			default:
				var a *nd.Array
				switch v := sv.(type) {
				case missing:
					a, sv = zeroRows[x.DType()], zeroOf(x.DType())
				case *nd.Array:
					a = v
				default:
					if x.DType() == nd.Object {
						a = asArray(v)
					} else if a, err = nd.New(v); err != nil {
						break
					}
				}
				if err == nil {
					err = x.SetRow(row, a)
				}
			}
			if err != nil {
				return errAt(ErrType, e.key, "cannot assign "+describe(sv), err)
			}
		case *Batch:
			if len(x.ents) == 0 {
				continue
			}
			if _, ok := sv.(missing); ok {
				sv = &Batch{}
			}
			if err := assign(x, sv, idx, row); err != nil {
				return within(e.key, err)
			}
		}
	}
	return nil
}

// Empty resets b in place (Tianshou's empty_): every array is set to zero
// (false for Bool, nil for Object), over the whole array without idx or at
// b[idx...] with it; nested Batches recurse; nil and reserved keys stay; a
// string or other scalar becomes nil, as in Tianshou; and the values of an
// ArrayLeaf are set to zero through its array. It returns an error
// wrapping ErrType, naming the key, if b holds another custom leaf, which
// cannot be reset; b is unchanged then. A bad index panics as in Index.
func (b *Batch) Empty(idx ...nd.Index) error {
	if err := checkEmpty(b, true); err != nil {
		return err
	}
	b.empty(idx)
	return nil
}

// Empty returns a reset deep copy of b (Tianshou's Batch.empty); see
// Batch.Empty. It returns an error for every custom leaf, an ArrayLeaf
// too: the copy would share the leaf (Clone keeps leaves), so resetting it
// would change b.
func Empty(b *Batch, idx ...nd.Index) (*Batch, error) {
	if err := checkEmpty(b, false); err != nil {
		return nil, err
	}
	c := b.Clone()
	c.empty(idx)
	return c, nil
}

// checkEmpty returns the error of resetting b: a custom leaf, unless
// arrayLeaves allows ArrayLeaf values (reset through their arrays).
func checkEmpty(b *Batch, arrayLeaves bool) error {
	for i := range b.ents {
		e := &b.ents[i]
		switch x := e.val.(type) {
		case *Batch:
			if err := checkEmpty(x, arrayLeaves); err != nil {
				return within(e.key, err)
			}
		case Leaf:
			if !arrayLeaves || !isArray(leafArray(x)) {
				return errAt(ErrType, e.key, "cannot reset "+describe(x), nil)
			}
		}
	}
	return nil
}

func (b *Batch) empty(idx []nd.Index) {
	for i := range b.ents {
		e := &b.ents[i]
		switch x := leafArray(e.val).(type) {
		case nil:
		case *nd.Array:
			if len(idx) == 0 {
				x.Zero()
			} else if err := x.SetIndex(zeroOf(x.DType()), idx...); err != nil {
				panic(err) // a zero of the array's own dtype always fits
			}
		case *Batch:
			x.empty(idx)
		default:
			e.val = nil
		}
	}
}
