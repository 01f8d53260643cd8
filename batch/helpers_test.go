package batch_test

import (
	"errors"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// arr builds an array from a Go value or fails the test.
func arr(t testing.TB, v any) *nd.Array {
	t.Helper()
	a, err := nd.New(v)
	if err != nil {
		t.Fatalf("nd.New(%v): %v", v, err)
	}
	return a
}

// mustArray returns the array at a key path or fails the test.
func mustArray(t testing.TB, b *batch.Batch, key string) *nd.Array {
	t.Helper()
	a, err := b.Array(key)
	if err != nil {
		t.Fatalf("Array(%q): %v\nbatch: %v", key, err, b)
	}
	return a
}

// wantArray checks that the array at key equals want (dtype, shape, values).
func wantArray(t testing.TB, b *batch.Batch, key string, want *nd.Array) {
	t.Helper()
	got := mustArray(t, b, key)
	if !nd.Equal(got, want) {
		t.Errorf("%s = %v (%v), want %v (%v)", key, got, got.DType(), want, want.DType())
	}
}

// wantErr checks that err wraps kind and, if key is not empty, that it
// names the key.
func wantErr(t testing.TB, err error, kind error, key string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", kind)
	}
	if !errors.Is(err, kind) {
		t.Errorf("error %v does not wrap %v", err, kind)
	}
	var be *batch.Error
	if key != "" && (!errors.As(err, &be) || be.Path != key) {
		t.Errorf("error %v does not name key %q", err, key)
	}
}

// wantPanic runs f and checks that it panics with a *batch.Error wrapping
// kind (and naming key, if not empty), or with an *nd.Error when kind is an
// nd sentinel.
func wantPanic(t testing.TB, kind error, key string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want %v", kind)
		}
		err, ok := r.(error)
		if !ok {
			t.Fatalf("panic value %v is not an error", r)
		}
		wantErr(t, err, kind, key)
	}()
	f()
}

func keysOf(b *batch.Batch) []string {
	var ks []string
	for k := range b.Keys() {
		ks = append(ks, k)
	}
	return ks
}

// arange returns the int64 array [lo, lo+1, …, hi-1].
func arange(t testing.TB, lo, hi int) *nd.Array {
	t.Helper()
	a, err := nd.Arange(nd.Int64, float64(lo), float64(hi), 1)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// objects returns a 1-d Object array holding vals as they are.
func objects(t testing.TB, vals ...any) *nd.Array {
	t.Helper()
	a, err := nd.FromSlice(vals)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
