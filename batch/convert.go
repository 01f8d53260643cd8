package batch

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gorl/gorl/nd"
)

// New returns a Batch built from alternating key, value arguments, in that
// order: batch.New("a", 4, "b", []int{5, 5}, "c", "hello"). Values are
// converted as Tianshou's Batch converts them:
//
//   - a Go number or bool becomes a 0-d array (int → int64, float64 →
//     float64, sized types keep their dtype; named types count as their
//     underlying type);
//   - a slice or Go array becomes an array through nd.New (a copy): numbers
//     promote to one dtype, a mix with strings, nil or other values gives
//     an Object array keeping each element's Go value, and a nested slice
//     ragged in its first inner axis gives a 1-d Object array of its
//     elements (each inner slice made an array), as numpy does with
//     dtype=object; one whose elements share that axis but differ in a
//     later one (shapes (3, 2) and (3, 3)) is an error wrapping
//     ErrStructure, as in Tianshou;
//   - a non-empty slice whose elements are all maps or *Batch values is
//     stacked into one Batch (FromRows);
//   - a map with string keys becomes a nested Batch (FromMap: keys in
//     sorted order); a map with other keys is an error;
//   - an *nd.Array, *Batch or custom Leaf is stored as it is (a reference;
//     see NewCopy), an empty *Batch reserving the key;
//   - nil, and a nil *nd.Array or *Batch, is stored as nil (None);
//   - a string stays a string, and any other Go value (a struct, a
//     pointer, a complex number) is kept as it is, as a scalar.
//
// New returns an error wrapping ErrValue for an odd number of arguments,
// ErrKey for a key that is not a string, is empty, holds Sep or repeats,
// and the conversion's error (naming the key) for a value that cannot be
// converted.
func New(kv ...any) (*Batch, error) { return fromPairs(kv, false) }

// NewCopy is New with Tianshou's copy=True: arrays and Batches given as
// values are deep-copied (Clone), so the Batch shares no memory with the
// caller. Custom leaves are still referenced (they are treated as
// immutable).
func NewCopy(kv ...any) (*Batch, error) { return fromPairs(kv, true) }

// MustNew is like New but panics on error; for tests and initialization.
func MustNew(kv ...any) *Batch {
	b, err := New(kv...)
	if err != nil {
		panic(err)
	}
	return b
}

func fromPairs(kv []any, cp bool) (*Batch, error) {
	if len(kv)%2 != 0 {
		return nil, &Error{Kind: ErrValue, Msg: fmt.Sprintf("New needs key, value pairs: %d arguments", len(kv))}
	}
	b := newBatch(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		key, ok := kv[i].(string)
		if !ok {
			return nil, &Error{Kind: ErrKey, Msg: "key " + describe(kv[i]) + " is not a string"}
		}
		if err := checkKey(key); err != nil {
			return nil, err
		}
		if b.find(key) >= 0 {
			return nil, &Error{Kind: ErrKey, Path: key, Msg: "repeated key"}
		}
		v, err := convert(kv[i+1], cp)
		if err != nil {
			return nil, within(key, err)
		}
		b.ents = append(b.ents, entry{key, v})
	}
	return b, nil
}

// FromMap returns a Batch holding m's entries converted as New converts
// values (nested maps become nested Batches). Go maps have no order, so the
// keys are taken in sorted (byte-wise) order; build from key, value pairs
// with New to choose the order. It returns New's errors.
func FromMap(m map[string]any) (*Batch, error) {
	return stringMapBatch(m, false)
}

// FromRows stacks a list of rows into one Batch, Tianshou's
// Batch([{...}, {...}]): each row is a *Batch or a map with string keys
// (converted by FromMap), and the rows are joined with Stack(0, …), so
// missing keys are padded. It returns an error wrapping ErrType for a row of
// another type, FromMap's errors and Stack's errors.
func FromRows(rows ...any) (*Batch, error) {
	return rowsBatch(reflect.ValueOf(rows), false)
}

// convert applies New's conversion rules to one value; the caller names
// the key in errors (within).
func convert(v any, cp bool) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case *nd.Array:
		if x == nil {
			return nil, nil
		}
		if cp {
			return x.Copy(), nil
		}
		return x, nil
	case *Batch:
		if x == nil {
			return nil, nil
		}
		if cp {
			return x.Clone(), nil
		}
		return x, nil
	case Leaf:
		return x, nil
	case string:
		return x, nil
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return nd.New(x)
	case map[string]any:
		return stringMapBatch(x, cp)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return nd.New(rv.Bool())
	case reflect.Int, reflect.Int64:
		return nd.New(rv.Int())
	case reflect.Int8:
		return nd.New(int8(rv.Int()))
	case reflect.Int16:
		return nd.New(int16(rv.Int()))
	case reflect.Int32:
		return nd.New(int32(rv.Int()))
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return nd.New(rv.Uint())
	case reflect.Uint8:
		return nd.New(uint8(rv.Uint()))
	case reflect.Uint16:
		return nd.New(uint16(rv.Uint()))
	case reflect.Uint32:
		return nd.New(uint32(rv.Uint()))
	case reflect.Float32:
		return nd.New(float32(rv.Float()))
	case reflect.Float64:
		return nd.New(rv.Float())
	case reflect.String:
		return rv.String(), nil
	case reflect.Map:
		return mapBatch(rv, cp)
	case reflect.Slice, reflect.Array:
		if isRowList(rv) {
			return rowsBatch(rv, cp)
		}
		a, err := nd.New(v)
		if errors.Is(err, nd.ErrShape) {
			return raggedArray(rv)
		}
		if err != nil {
			return nil, &Error{Kind: ErrType, Msg: "cannot convert " + describe(v) + " to an array", Err: err}
		}
		return a, nil
	}
	return v, nil
}

// mapBatch converts a map with string keys into a Batch, keys sorted.
func mapBatch(rv reflect.Value, cp bool) (*Batch, error) {
	if rv.Type().Key().Kind() != reflect.String {
		return nil, &Error{Kind: ErrKey, Msg: "keys should all be strings, but the map has keys of type " + rv.Type().Key().String()}
	}
	b := newBatch(rv.Len())
	for it := rv.MapRange(); it.Next(); {
		b.ents = append(b.ents, entry{it.Key().String(), it.Value().Interface()})
	}
	return b, b.convertSorted(cp)
}

// stringMapBatch is mapBatch for the common map[string]any, without
// reflection.
func stringMapBatch(m map[string]any, cp bool) (*Batch, error) {
	b := newBatch(len(m))
	for k, v := range m {
		b.ents = append(b.ents, entry{k, v})
	}
	return b, b.convertSorted(cp)
}

// convertSorted sorts the entries of a Batch being built from a map by key
// and converts their values.
func (b *Batch) convertSorted(cp bool) error {
	slices.SortFunc(b.ents, func(x, y entry) int { return strings.Compare(x.key, y.key) })
	for i := range b.ents {
		e := &b.ents[i]
		if err := checkKey(e.key); err != nil {
			return err
		}
		v, err := convert(e.val, cp)
		if err != nil {
			return within(e.key, err)
		}
		e.val = v
	}
	return nil
}

// elem returns the i-th element of a sequence with interfaces unwrapped.
func elem(rv reflect.Value, i int) reflect.Value {
	e := rv.Index(i)
	for e.Kind() == reflect.Interface && !e.IsNil() {
		e = e.Elem()
	}
	return e
}

// isRowList reports whether rv is a non-empty sequence of maps and non-nil
// *Batch values.
func isRowList(rv reflect.Value) bool {
	if rv.Len() == 0 {
		return false
	}
	for i := 0; i < rv.Len(); i++ {
		if !isRow(elem(rv, i)) {
			return false
		}
	}
	return true
}

var batchType = reflect.TypeOf((*Batch)(nil))

func isRow(e reflect.Value) bool {
	switch {
	case e.Kind() == reflect.Map:
		return true
	case e.IsValid() && e.Type() == batchType:
		return !e.IsNil()
	}
	return false
}

// rowsBatch stacks a sequence of maps and Batches along a new axis 0.
func rowsBatch(rv reflect.Value, cp bool) (*Batch, error) {
	rows := make([]*Batch, rv.Len())
	for i := range rows {
		e := elem(rv, i)
		switch {
		case e.Kind() == reflect.Map:
			b, err := mapBatch(e, cp)
			if err != nil {
				return nil, err
			}
			rows[i] = b
		case e.IsValid() && e.Type() == batchType && !e.IsNil():
			rows[i] = e.Interface().(*Batch)
		default:
			return nil, &Error{Kind: ErrType, Msg: fmt.Sprintf("row %d is %s, not a map or a *Batch", i, describeValue(e))}
		}
	}
	return Stack(0, rows...)
}

func describeValue(e reflect.Value) string {
	if !e.IsValid() {
		return "nil"
	}
	return describe(e.Interface())
}

// raggedArray converts a ragged sequence into a 1-d Object array of its
// elements: inner sequences become arrays (themselves ragged-converted if
// needed), other elements keep their Go value. A sequence whose elements
// are all sequences of one length is refused: its raggedness lies below
// the first inner axis (shapes (3, 2) and (3, 3)), where numpy's
// dtype=object cannot make a 1-d array of it and Tianshou refuses it.
func raggedArray(rv reflect.Value) (*nd.Array, error) {
	if err := checkRaggedFirst(rv); err != nil {
		return nil, err
	}
	out := make([]any, rv.Len())
	for i := range out {
		e := elem(rv, i)
		if !e.IsValid() {
			continue
		}
		if k := e.Kind(); k != reflect.Slice && k != reflect.Array {
			out[i] = e.Interface()
			continue
		}
		a, err := nd.New(e.Interface())
		if errors.Is(err, nd.ErrShape) {
			a, err = raggedArray(e)
			if be, ok := err.(*Error); ok && be.Kind == ErrStructure {
				be.Msg = fmt.Sprintf("element %d: %s", i, be.Msg)
				return nil, be
			}
		}
		if err != nil {
			return nil, &Error{Kind: ErrType, Msg: fmt.Sprintf("cannot convert element %d to an array", i), Err: err}
		}
		out[i] = a
	}
	return nd.FromSlice(out)
}

// seqLen returns the length of a sequence element (a slice, a Go array or
// an *nd.Array with an axis) and whether e is one.
func seqLen(e reflect.Value) (int, bool) {
	switch e.Kind() {
	case reflect.Slice, reflect.Array:
		return e.Len(), true
	}
	if a, ok := e.Interface().(*nd.Array); ok && a != nil && a.Ndim() > 0 {
		return a.Dim(0), true
	}
	return 0, false
}

// checkRaggedFirst returns an error if rv has two or more elements, all
// sequences of the same length: such a sequence is ragged only in a later
// axis.
func checkRaggedFirst(rv reflect.Value) error {
	n := rv.Len()
	if n < 2 {
		return nil
	}
	first := -1
	for i := 0; i < n; i++ {
		e := elem(rv, i)
		if !e.IsValid() {
			return nil
		}
		l, ok := seqLen(e)
		if !ok || (first >= 0 && l != first) {
			return nil
		}
		first = l
	}
	where := "in a later axis"
	if s0, ok := shapeOf(elem(rv, 0)); ok {
		for i := 1; i < n; i++ {
			if si, ok := shapeOf(elem(rv, i)); ok && !slices.Equal(si, s0) {
				where = fmt.Sprintf("later: element 0 has shape %v, element %d %v", s0, i, si)
				break
			}
		}
	}
	return &Error{Kind: ErrStructure, Msg: fmt.Sprintf(
		"ragged data: the %d elements share their first axis (length %d) but differ %s; "+
			"a sequence may be ragged only in its first inner axis (a 1-d Object array)", n, first, where)}
}

// shapeOf returns the shape of a sequence element that converts to one
// array.
func shapeOf(e reflect.Value) ([]int, bool) {
	if a, ok := e.Interface().(*nd.Array); ok && a != nil {
		return a.Shape(), true
	}
	a, err := nd.New(e.Interface())
	if err != nil {
		return nil, false
	}
	return a.Shape(), true
}

// describe names a value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case *nd.Array:
		if x == nil {
			return "nil"
		}
		return fmt.Sprintf("a %v array of shape %v", x.DType(), x.Shape())
	case *Batch:
		if x == nil {
			return "nil"
		}
		if len(x.ents) == 0 {
			return "a reserved key (an empty Batch)"
		}
		return "a Batch"
	case string:
		return "the string " + nd.Repr(x)
	case Leaf:
		return fmt.Sprintf("a custom leaf of type %T", x)
	}
	return fmt.Sprintf("%v (%T)", v, v)
}
