package nd_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gorl/gorl/nd"
)

// arange returns np.arange(size).reshape(shape) as int64.
func arange(t testing.TB, shape ...int) *nd.Array {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	a, err := nd.Arange(nd.Int64, 0, float64(n), 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Reshape(shape...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustPanic(t *testing.T, kind error, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want %v", kind)
		}
		e, ok := r.(*nd.Error)
		if !ok {
			t.Fatalf("panic value %T (%v), want *nd.Error", r, r)
		}
		if !errors.Is(e, kind) {
			t.Fatalf("panic %v, want kind %v", e, kind)
		}
	}()
	f()
}

func checkArray(t *testing.T, got *nd.Array, dt nd.DType, shape []int, values any) {
	t.Helper()
	if got.DType() != dt {
		t.Fatalf("dtype %v, want %v", got.DType(), dt)
	}
	if !reflect.DeepEqual(got.Shape(), shape) {
		t.Fatalf("shape %v, want %v", got.Shape(), shape)
	}
	var flat any
	switch dt {
	case nd.Int64:
		flat = nd.ToSlice[int64](got)
	case nd.Float64:
		flat = nd.ToSlice[float64](got)
	case nd.Float32:
		flat = nd.ToSlice[float32](got)
	case nd.Bool:
		flat = nd.ToSlice[bool](got)
	case nd.Object:
		flat = nd.ToSlice[any](got)
	case nd.Int32:
		flat = nd.ToSlice[int32](got)
	case nd.Uint8:
		flat = nd.ToSlice[uint8](got)
	case nd.Int16:
		flat = nd.ToSlice[int16](got)
	case nd.Int8:
		flat = nd.ToSlice[int8](got)
	case nd.Uint64:
		flat = nd.ToSlice[uint64](got)
	default:
		t.Fatalf("checkArray: add dtype %v", dt)
	}
	if !reflect.DeepEqual(flat, values) {
		t.Fatalf("values %v, want %v", flat, values)
	}
}
