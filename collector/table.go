package collector

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// table is storage for n rows of one value: an *nd.Array of shape [n, …],
// or a *batch.Batch whose leaves are such arrays. It caches the views of its
// prefixes, so that handing k rows to a policy or a buffer allocates only
// the first time.
type table struct {
	full any
	pre  []any // pre[k] = full[:k], made on first use
	n    int
}

func newTable(full any, n int) *table {
	return &table{full: full, pre: make([]any, n+1), n: n}
}

// prefix returns a view of the first k rows.
func (t *table) prefix(k int) any {
	if t.pre[k] == nil {
		switch v := t.full.(type) {
		case *nd.Array:
			t.pre[k] = v.Index(nd.To(k))
		case *batch.Batch:
			t.pre[k] = v.Index(nd.To(k))
		}
	}
	return t.pre[k]
}

// tableLike returns zeroed storage for n rows shaped like the rows of v,
// an *nd.Array with a leading row axis or a *batch.Batch of such arrays.
func tableLike(v any, n int) (*table, error) {
	switch x := v.(type) {
	case *nd.Array:
		if x.Ndim() == 0 {
			return nil, fmt.Errorf("a 0-d array has no rows")
		}
		if x.DType() == nd.Object {
			return nil, fmt.Errorf("an object array cannot be kept per env")
		}
		shape := x.Shape()
		shape[0] = n
		return newTable(nd.Zeros(x.DType(), shape...), n), nil
	case *batch.Batch:
		if err := checkLeaves(x); err != nil {
			return nil, err
		}
		b, err := batch.ZerosLike(x, n)
		if err != nil {
			return nil, err
		}
		return newTable(b, n), nil
	}
	return nil, fmt.Errorf("%T is not an *nd.Array or a *batch.Batch", v)
}

// checkLeaves reports an error unless every value in b is a non-object
// array with a row axis, a nested Batch, nil or a reserved key: the values
// whose rows moveRows can copy.
func checkLeaves(b *batch.Batch) error {
	for key, v := range b.Items() {
		switch x := v.(type) {
		case nil:
		case *nd.Array:
			if x.Ndim() == 0 || x.DType() == nd.Object {
				return fmt.Errorf("key %s holds a %v array of shape %v, not rows of numbers", key, x.DType(), x.Shape())
			}
		case *batch.Batch:
			if err := checkLeaves(x); err != nil {
				return fmt.Errorf("key %s: %w", key, err)
			}
		default:
			return fmt.Errorf("key %s holds a %T, not an array", key, v)
		}
	}
	return nil
}

// moveRows copies k rows of src into dst: row sr[j] of src into row dr[j]
// of dst for j < k, a nil index slice meaning 0, 1, …, k−1. dst and src are
// both *nd.Array or both *batch.Batch of the same structure (src's keys
// must all be in dst). Rows of the same dtype and shape in contiguous
// arrays are copied without allocating; other arrays are copied through
// row views under nd's "same_kind" casting rule.
func moveRows(dst any, dr []int, src any, sr []int, k int) error {
	switch d := dst.(type) {
	case *nd.Array:
		s, ok := src.(*nd.Array)
		if !ok {
			return fmt.Errorf("%T where an *nd.Array is kept", src)
		}
		return moveArrayRows(d, dr, s, sr, k)
	case *batch.Batch:
		s, ok := src.(*batch.Batch)
		if !ok {
			return fmt.Errorf("%T where a *batch.Batch is kept", src)
		}
		for key, v := range s.Items() {
			if v == nil {
				continue
			}
			if b, ok := v.(*batch.Batch); ok && b.NumKeys() == 0 {
				continue
			}
			to, ok := d.Get(key)
			if !ok {
				return fmt.Errorf("key %s is new", key)
			}
			if err := moveRows(to, dr, v, sr, k); err != nil {
				return fmt.Errorf("key %s: %w", key, err)
			}
		}
		return nil
	}
	return fmt.Errorf("cannot keep rows of a %T", dst)
}

func moveArrayRows(d *nd.Array, dr []int, s *nd.Array, sr []int, k int) error {
	if d.Ndim() != s.Ndim() || d.Ndim() == 0 {
		return fmt.Errorf("rows of shape %v where rows of shape %v are kept", s.Shape(), d.Shape())
	}
	for i := 1; i < d.Ndim(); i++ {
		if d.Dim(i) != s.Dim(i) {
			return fmt.Errorf("rows of shape %v where rows of shape %v are kept", s.Shape()[1:], d.Shape()[1:])
		}
	}
	if k > s.Dim(0) {
		return fmt.Errorf("%d rows where %d are needed", s.Dim(0), k)
	}
	rowLen := 1
	for i := 1; i < d.Ndim(); i++ {
		rowLen *= d.Dim(i)
	}
	if d.DType() == s.DType() && d.IsContiguous() && s.IsContiguous() {
		switch d.DType() {
		case nd.Bool:
			copyRows(nd.Data[bool](d), dr, nd.Data[bool](s), sr, k, rowLen)
		case nd.Int8:
			copyRows(nd.Data[int8](d), dr, nd.Data[int8](s), sr, k, rowLen)
		case nd.Int16:
			copyRows(nd.Data[int16](d), dr, nd.Data[int16](s), sr, k, rowLen)
		case nd.Int32:
			copyRows(nd.Data[int32](d), dr, nd.Data[int32](s), sr, k, rowLen)
		case nd.Int64:
			copyRows(nd.Data[int64](d), dr, nd.Data[int64](s), sr, k, rowLen)
		case nd.Uint8:
			copyRows(nd.Data[uint8](d), dr, nd.Data[uint8](s), sr, k, rowLen)
		case nd.Uint16:
			copyRows(nd.Data[uint16](d), dr, nd.Data[uint16](s), sr, k, rowLen)
		case nd.Uint32:
			copyRows(nd.Data[uint32](d), dr, nd.Data[uint32](s), sr, k, rowLen)
		case nd.Uint64:
			copyRows(nd.Data[uint64](d), dr, nd.Data[uint64](s), sr, k, rowLen)
		case nd.Float32:
			copyRows(nd.Data[float32](d), dr, nd.Data[float32](s), sr, k, rowLen)
		case nd.Float64:
			copyRows(nd.Data[float64](d), dr, nd.Data[float64](s), sr, k, rowLen)
		case nd.Object:
			copyRows(nd.Data[any](d), dr, nd.Data[any](s), sr, k, rowLen)
		}
		return nil
	}
	for j := 0; j < k; j++ {
		if err := d.SetRow(at(dr, j), s.Index(nd.I(at(sr, j)))); err != nil {
			return err
		}
	}
	return nil
}

// at returns rows[j], or j for nil rows.
func at(rows []int, j int) int {
	if rows == nil {
		return j
	}
	return rows[j]
}

func copyRows[T any](d []T, dr []int, s []T, sr []int, k, rowLen int) {
	if dr == nil && sr == nil {
		copy(d[:k*rowLen], s[:k*rowLen])
		return
	}
	for j := 0; j < k; j++ {
		di, si := at(dr, j)*rowLen, at(sr, j)*rowLen
		copy(d[di:di+rowLen], s[si:si+rowLen])
	}
}

// zeroRows sets the given rows of v (an *nd.Array or a *batch.Batch of
// arrays, as kept in a table) to zero.
func zeroRows(v any, rows []int) {
	switch x := v.(type) {
	case *nd.Array:
		rowLen := x.Size() / x.Dim(0)
		switch x.DType() {
		case nd.Bool:
			clearRows(nd.Data[bool](x), rows, rowLen)
		case nd.Int8:
			clearRows(nd.Data[int8](x), rows, rowLen)
		case nd.Int16:
			clearRows(nd.Data[int16](x), rows, rowLen)
		case nd.Int32:
			clearRows(nd.Data[int32](x), rows, rowLen)
		case nd.Int64:
			clearRows(nd.Data[int64](x), rows, rowLen)
		case nd.Uint8:
			clearRows(nd.Data[uint8](x), rows, rowLen)
		case nd.Uint16:
			clearRows(nd.Data[uint16](x), rows, rowLen)
		case nd.Uint32:
			clearRows(nd.Data[uint32](x), rows, rowLen)
		case nd.Uint64:
			clearRows(nd.Data[uint64](x), rows, rowLen)
		case nd.Float32:
			clearRows(nd.Data[float32](x), rows, rowLen)
		case nd.Float64:
			clearRows(nd.Data[float64](x), rows, rowLen)
		case nd.Object:
			clearRows(nd.Data[any](x), rows, rowLen)
		}
	case *batch.Batch:
		for v := range x.Values() {
			if v != nil {
				zeroRows(v, rows)
			}
		}
	}
}

func clearRows[T any](d []T, rows []int, rowLen int) {
	for _, r := range rows {
		clear(d[r*rowLen : (r+1)*rowLen])
	}
}
