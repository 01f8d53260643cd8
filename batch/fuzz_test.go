package batch_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// naiveGet looks a key path up by splitting it and walking Items.
func naiveGet(b *batch.Batch, keyPath string) (any, bool) {
	parts := strings.Split(keyPath, batch.Sep)
	var cur any = b
	for _, p := range parts {
		sub, ok := cur.(*batch.Batch)
		if !ok {
			return nil, false
		}
		found := false
		for k, v := range sub.Items() {
			if k == p {
				cur, found = v, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return cur, true
}

// FuzzKeyPath checks Get, Set, Has and Delete on arbitrary key paths
// against a naive lookup.
func FuzzKeyPath(f *testing.F) {
	for _, p := range []string{"a", "o.x", "o.y.z", "a.b", "", ".", "o.", ".o", "o..x", "new.deep.key", "ü.ß"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		mk := func() *batch.Batch {
			return batch.MustNew("a", 1, "o", batch.MustNew("x", 2, "r", batch.MustNew()), "s", "str")
		}
		b := mk()
		got, ok := b.Get(p)
		want, wok := naiveGet(b, p)
		if ok != wok || ok && got != want {
			t.Fatalf("Get(%q) = %v, %v; naive %v, %v", p, got, ok, want, wok)
		}
		if b.Has(p) != ok {
			t.Fatalf("Has(%q) disagrees with Get", p)
		}
		valid := true
		for _, s := range strings.Split(p, batch.Sep) {
			valid = valid && s != ""
		}
		// The longest existing prefix that is not a Batch blocks Set.
		blocked := false
		parts := strings.Split(p, batch.Sep)
		for i := 1; i < len(parts) && valid; i++ {
			if v, ok := naiveGet(b, strings.Join(parts[:i], batch.Sep)); ok {
				if _, isBatch := v.(*batch.Batch); !isBatch {
					blocked = true
					break
				}
			}
		}
		err := b.Set(p, 7)
		switch {
		case !valid:
			if !errors.Is(err, batch.ErrKey) {
				t.Fatalf("Set(%q) = %v, want ErrKey", p, err)
			}
		case blocked:
			if !errors.Is(err, batch.ErrType) {
				t.Fatalf("Set(%q) = %v, want ErrType", p, err)
			}
		default:
			if err != nil {
				t.Fatalf("Set(%q): %v", p, err)
			}
			v, ok := naiveGet(b, p)
			if a, isArr := v.(*nd.Array); !ok || !isArr || a.Item() != int64(7) {
				t.Fatalf("after Set(%q), naive Get = %v, %v", p, v, ok)
			}
			if !b.Delete(p) || b.Has(p) {
				t.Fatalf("Delete(%q) after Set", p)
			}
			return
		}
		if !batch.Equal(b, mk()) {
			t.Fatalf("failed Set(%q) changed the batch: %v", p, b)
		}
		if b.Delete(p) != ok {
			t.Fatalf("Delete(%q) = %v, want %v", p, !ok, ok)
		}
	})
}

// fuzzBatch builds a Batch of n rows from bytes: arrays of several dtypes
// and shapes, a nested Batch, nil and a reserved key.
func fuzzBatch(t *testing.T, data []byte, n int) *batch.Batch {
	t.Helper()
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		c := data[0]
		data = data[1:]
		return c
	}
	f32 := make([]float32, n*3)
	for i := range f32 {
		f32[i] = float32(next())
	}
	i64 := make([]int64, n)
	for i := range i64 {
		i64[i] = int64(next()) - 128
	}
	bl := make([]bool, n*2)
	for i := range bl {
		bl[i] = next()%2 == 1
	}
	u8 := make([]uint8, n*2*2)
	for i := range u8 {
		u8[i] = next()
	}
	obj := make([]any, n)
	for i := range obj {
		if c := next(); c%3 != 0 {
			obj[i] = string(rune('a' + c%26))
		}
	}
	mk := func(v any, shape ...int) *nd.Array {
		var a *nd.Array
		var err error
		switch x := v.(type) {
		case []float32:
			a, err = nd.FromSlice(x, shape...)
		case []int64:
			a, err = nd.FromSlice(x, shape...)
		case []bool:
			a, err = nd.FromSlice(x, shape...)
		case []uint8:
			a, err = nd.FromSlice(x, shape...)
		case []any:
			a, err = nd.FromSlice(x, shape...)
		}
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	return batch.MustNew(
		"obs", mk(f32, n, 3),
		"act", mk(i64, n),
		"done", mk(bl, n, 2),
		"info", batch.MustNew("img", mk(u8, n, 2, 2), "o", mk(obj, n), "r", batch.MustNew()),
		"n", nil,
	)
}

// FuzzBatchTake checks Take, TakeTo and Index with Ints against a naive
// row-by-row copy.
func FuzzBatchTake(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(4), []byte{0, 3, 1, 1})
	f.Add([]byte{}, uint8(1), []byte{0})
	f.Add([]byte{9, 9}, uint8(3), []byte{255, 2})
	f.Add([]byte{7}, uint8(2), []byte{})
	f.Fuzz(func(t *testing.T, data []byte, nrows uint8, rowBytes []byte) {
		n := int(nrows%8) + 1
		src := fuzzBatch(t, data, n)
		rows := make([]int, len(rowBytes))
		inRange := true
		for i, c := range rowBytes {
			rows[i] = int(int8(c)) // negative rows count from the end
			inRange = inRange && rows[i] >= -n && rows[i] < n
		}
		if !inRange {
			defer func() {
				if recover() == nil {
					t.Fatalf("Take of rows %v out of range for %d rows: no panic", rows, n)
				}
			}()
			batch.Take(src, rows)
			return
		}
		got := batch.Take(src, rows)
		// Naive: row k of every array is src's row rows[k].
		for _, key := range []string{"obs", "act", "done", "info.img", "info.o"} {
			s, g := mustArray(t, src, key), mustArray(t, got, key)
			if g.Len() != len(rows) || g.DType() != s.DType() {
				t.Fatalf("%s: %v rows of %v, want %d of %v", key, g.Len(), g.DType(), len(rows), s.DType())
			}
			for k, r := range rows {
				if !nd.Equal(g.Index(nd.I(k)), s.Index(nd.I(r))) {
					t.Fatalf("%s row %d = %v, want row %d = %v", key, k, g.Index(nd.I(k)), r, s.Index(nd.I(r)))
				}
			}
		}
		if v, ok := got.Get("n"); !ok || v != nil {
			t.Fatal("nil lost")
		}
		if r, err := got.Batch("info.r"); err != nil || r.NumKeys() != 0 {
			t.Fatal("reserved key lost")
		}
		dst, err := batch.ZerosLike(src, len(rows))
		if err != nil {
			t.Fatal(err)
		}
		batch.TakeTo(dst, src, rows)
		if !batch.Equal(dst, got) {
			t.Fatalf("TakeTo differs from Take:\n%v\n%v", dst, got)
		}
		if len(rows) > 0 {
			if idx := src.Index(nd.Ints(rows...)); !batch.Equal(idx, got) {
				t.Fatalf("Index(Ints) differs from Take")
			}
			// Split's pieces (built from one tree) are got's ranges.
			size := int(nrows%3) + 1
			pieces, err := got.Split(size, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			for p := range pieces {
				if want := got.Index(nd.Range(i, i+size)); !batch.Equal(p, want) {
					t.Fatalf("Split piece at %d:\n%v\nwant\n%v", i, p, want)
				}
				i += size
			}
			if i < len(rows) {
				t.Fatalf("Split stopped at row %d of %d", i, len(rows))
			}
		}
	})
}
