package nd

import (
	"math"
	"reflect"
	"slices"
)

// Equal reports whether a and b have the same dtype, the same shape and the
// same elements. A NaN equals a NaN at the same position; Object elements
// are compared with reflect.DeepEqual, except that two *Array elements are
// compared with Equal and two float NaNs are equal.
func Equal(a, b *Array) bool {
	if a.dt != b.dt || !slices.Equal(a.shape, b.shape) {
		return false
	}
	switch {
	case a.dt == Float32:
		return equalRuns(a, b, func(x, y float32) bool { return x == y || x != x && y != y })
	case a.dt == Float64:
		return equalRuns(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
	case a.dt == Object:
		return equalRuns(a, b, equalObjects)
	case a.dt.Size() == 1:
		return equalRuns(a, b, func(x, y uint8) bool { return x == y })
	case a.dt.Size() == 2:
		return equalRuns(a, b, func(x, y uint16) bool { return x == y })
	case a.dt.Size() == 4:
		return equalRuns(a, b, func(x, y uint32) bool { return x == y })
	}
	return equalRuns(a, b, func(x, y uint64) bool { return x == y })
}

func equalObjects(x, y any) bool {
	if ax, ok := x.(*Array); ok {
		if ay, ok := y.(*Array); ok {
			return ax == ay || ax != nil && ay != nil && Equal(ax, ay)
		}
	}
	return reflect.DeepEqual(x, y) || isNaNValue(x) && isNaNValue(y)
}

func isNaNValue(v any) bool {
	switch f := v.(type) {
	case float64:
		return math.IsNaN(f)
	case float32:
		return f != f
	}
	return false
}

func equalRuns[T any](a, b *Array, eq func(x, y T) bool) bool {
	x, y := elems[T](a), elems[T](b)
	same := true
	walk(a.shape, 2, [3][]int{a.strides, b.strides}, [3]int{a.off, b.off}, func(o [3]int, n int, st [3]int) {
		i, j := o[0], o[1]
		for k := 0; k < n && same; k++ {
			same = eq(x[i], y[j])
			i += st[0]
			j += st[1]
		}
	})
	return same
}

// IsNull returns a new Bool array of a's shape that is true where an element
// is missing: NaN in float arrays; nil or a float NaN in Object arrays.
// Bool and integer arrays have no missing values.
func IsNull(a *Array) *Array {
	out := newArray(Bool, a.shape)
	o := elems[bool](out)
	i := 0
	mark := func(null func(off int) bool) {
		walk(a.shape, 1, [3][]int{a.strides}, [3]int{a.off}, func(off [3]int, n int, st [3]int) {
			for k, p := 0, off[0]; k < n; k, p = k+1, p+st[0] {
				o[i] = null(p)
				i++
			}
		})
	}
	switch a.dt {
	case Float32:
		x := elems[float32](a)
		mark(func(p int) bool { return x[p] != x[p] })
	case Float64:
		x := elems[float64](a)
		mark(func(p int) bool { return x[p] != x[p] })
	case Object:
		x := elems[any](a)
		mark(func(p int) bool { return x[p] == nil || isNaNValue(x[p]) })
	}
	return out
}

// HasNull reports whether any element of a is missing in IsNull's sense.
// It does not allocate.
func (a *Array) HasNull() bool {
	found := false
	scan := func(null func(off int) bool) {
		walk(a.shape, 1, [3][]int{a.strides}, [3]int{a.off}, func(off [3]int, n int, st [3]int) {
			for k, p := 0, off[0]; k < n && !found; k, p = k+1, p+st[0] {
				found = null(p)
			}
		})
	}
	switch a.dt {
	case Float32:
		x := elems[float32](a)
		scan(func(p int) bool { return x[p] != x[p] })
	case Float64:
		x := elems[float64](a)
		scan(func(p int) bool { return x[p] != x[p] })
	case Object:
		x := elems[any](a)
		scan(func(p int) bool { return x[p] == nil || isNaNValue(x[p]) })
	}
	return found
}
