package batch_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/batch/batchtest"
	"github.com/gorl/gorl/nd"
)

// TestNewConversions checks the automatic conversions of seed 001 §3.2:
// numbers → 0-d arrays, lists → arrays, mixed lists → object arrays, maps →
// Batches, strings and nil kept.
func TestNewConversions(t *testing.T) {
	type reward float32
	b, err := batch.New(
		"scalar_int", 5,
		"scalar_float", 3.14,
		"list_nums", []int{1, 2, 3},
		"list_mixed", []any{1, "hello", nil},
		"dict_val", map[string]any{"y": 2, "x": 1},
		"c", "hello",
		"none", nil,
		"named", reward(0.5),
		"flag", true,
		"u8", []uint8{1, 2},
		"nested_list", [][]float64{{1, 2}, {3, 4}},
	)
	if err != nil {
		t.Fatal(err)
	}
	// Expected values: seed 001 §3.2 printout (int64 for Python ints,
	// float64 for floats, object for the mixed list).
	wantArray(t, b, "scalar_int", arr(t, int64(5)))
	wantArray(t, b, "scalar_float", arr(t, 3.14))
	wantArray(t, b, "list_nums", arr(t, []int64{1, 2, 3}))
	mixed := mustArray(t, b, "list_mixed")
	if mixed.DType() != nd.Object || mixed.At(0) != 1 || mixed.At(1) != "hello" || mixed.At(2) != nil {
		t.Errorf("list_mixed = %v, want object [1 'hello' None] keeping Go types", mixed)
	}
	sub, err := b.Batch("dict_val")
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(sub); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("map keys = %v, want sorted [x y]", got)
	}
	wantArray(t, b, "dict_val.x", arr(t, int64(1)))
	if v, _ := b.Get("c"); v != "hello" {
		t.Errorf("c = %#v, want the string hello", v)
	}
	if v, ok := b.Get("none"); !ok || v != nil {
		t.Errorf("none = %v, %v; want nil, true", v, ok)
	}
	wantArray(t, b, "named", arr(t, float32(0.5)))
	wantArray(t, b, "flag", arr(t, true))
	wantArray(t, b, "u8", arr(t, []uint8{1, 2}))
	wantArray(t, b, "nested_list", arr(t, [][]float64{{1, 2}, {3, 4}}))
	if got := keysOf(b); got[0] != "scalar_int" || got[len(got)-1] != "nested_list" {
		t.Errorf("keys = %v, want insertion order", got)
	}
}

func TestNewRagged(t *testing.T) {
	// numpy with dtype=object: np.array([[1], [2, 3]], dtype=object) is a
	// 1-d object array of two lists (here: arrays).
	b := batch.MustNew("r", [][]int{{1}, {2, 3}})
	r := mustArray(t, b, "r")
	if r.DType() != nd.Object || r.Ndim() != 1 || r.Len() != 2 {
		t.Fatalf("ragged = %v, want a 1-d object array of 2", r)
	}
	if !nd.Equal(r.At(1).(*nd.Array), arr(t, []int64{2, 3})) {
		t.Errorf("ragged[1] = %v, want array([2, 3])", r.At(1))
	}
}

func TestNewRaggedLater(t *testing.T) {
	// Tianshou's Batch refuses elements that share the first axis and
	// differ later: numpy cannot make a 1-d object array of shapes (3, 2)
	// and (3, 3) ("could not broadcast input array from shape (3,2) into
	// shape (3,)"). Lists ragged in their first inner axis, and mixed
	// lists, stay Object arrays (TestNewRagged, TestNewConversions).
	a32, a33 := nd.Zeros(nd.Float64, 3, 2), nd.Zeros(nd.Float64, 3, 3)
	tests := []struct {
		name string
		v    any
		want string // in the message
	}{
		{"nested slices", [][][]int{{{1, 2}, {3, 4}, {5, 6}}, {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}, "element 0 has shape [3 2], element 1 [3 3]"},
		{"arrays", []*nd.Array{a32, a33}, "element 0 has shape [3 2], element 1 [3 3]"},
		{"any of arrays", []any{a32, a32, a33}, "element 0 has shape [3 2], element 2 [3 3]"},
		{"depths differ", []any{[]int{1, 2, 3}, [][]int{{1}, {2}, {3}}}, "element 0 has shape [3], element 1 [3 1]"},
		{"inner", []any{[]any{[][]int{{1, 2}, {3, 4}}, [][]int{{1, 2, 3}, {4, 5, 6}}}, []int{1}}, "key k: element 0: ragged data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := batch.New("k", tt.v)
			if !errors.Is(err, batch.ErrStructure) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, %v; want an ErrStructure error with %q", b, err, tt.want)
			}
		})
	}
}

func TestNewReferencesAndCopies(t *testing.T) {
	// Seed 001 §8 "Be mindful of copies": by default the Batch references
	// the array; with copy=True it does not.
	a := arr(t, []int64{1, 2, 3})
	b := batch.MustNew("a", a)
	if err := mustArray(t, b, "a").SetIndex(999, nd.I(0)); err != nil {
		t.Fatal(err)
	}
	if a.At(0) != int64(999) {
		t.Errorf("original = %v, want [999 2 3] (referenced)", a)
	}
	a2 := arr(t, []int64{1, 2, 3})
	inner := batch.MustNew("x", a2)
	c, err := batch.NewCopy("a", a2, "inner", inner)
	if err != nil {
		t.Fatal(err)
	}
	mustArray(t, c, "a").SetIndex(999, nd.I(0))
	mustArray(t, c, "inner.x").SetIndex(999, nd.I(1))
	if !nd.Equal(a2, arr(t, []int64{1, 2, 3})) {
		t.Errorf("original = %v, want [1 2 3] preserved", a2)
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		kv   []any
		kind error
		key  string
	}{
		{"odd", []any{"a"}, batch.ErrValue, ""},
		{"non-string key", []any{1, 2}, batch.ErrKey, ""},
		{"empty key", []any{"", 2}, batch.ErrKey, ""},
		{"separator", []any{"a.b", 2}, batch.ErrKey, ""},
		{"repeat", []any{"a", 1, "a", 2}, batch.ErrKey, "a"},
		// Seed 001 §7: "keys should all be string".
		{"int map keys", []any{"m", map[int]string{1: "value"}}, batch.ErrKey, "m"},
		{"bad nested key", []any{"m", map[string]any{"x.y": 1}}, batch.ErrKey, "m"},
		{"bad row", []any{"rows", []any{map[string]any{"a": 1}, 3}}, nil, ""},
		{"stack error", []any{"rows", []map[string]any{{"a": []int{1}}, {"a": []int{1, 2}}}}, batch.ErrStructure, "rows.a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := batch.New(tt.kv...)
			if tt.kind == nil {
				// A list that is not all maps is an object array, not an error.
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if a := mustArray(t, b, "rows"); a.DType() != nd.Object {
					t.Errorf("rows = %v, want an object array", a)
				}
				return
			}
			wantErr(t, err, tt.kind, tt.key)
		})
	}
}

func TestFromMapAndRows(t *testing.T) {
	// Seed 001 §2: a nested dict becomes a nested Batch.
	b, err := batch.FromMap(map[string]any{
		"action": []float64{1, 2, 3},
		"reward": 3.66,
		"obs":    map[string]any{"camera": nd.Zeros(nd.Float64, 3, 3), "sensory": []float64{1, 1, 1, 1, 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := mustArray(t, b, "obs.camera").Shape(); !slices.Equal(got, []int{3, 3}) {
		t.Errorf("obs.camera shape = %v, want [3 3]", got)
	}
	// Seed 000: Batch([{'a': 0.0, 'b': "hello"}, {'a': 1.0, 'b': "world"}])
	// gives a: array([0., 1.]), b: array(['hello', 'world'], dtype=object).
	r, err := batch.FromRows(map[string]any{"a": 0.0, "b": "hello"}, map[string]any{"a": 1.0, "b": "world"})
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, r, "a", arr(t, []float64{0, 1}))
	wantArray(t, r, "b", arr(t, []any{"hello", "world"}))
	// Rows may mix maps and Batches.
	r2, err := batch.FromRows(batch.MustNew("a", 1), map[string]any{"a": 3})
	if err != nil {
		t.Fatal(err)
	}
	wantArray(t, r2, "a", arr(t, []int64{1, 3}))
	_, err = batch.FromRows(batch.MustNew("a", 1), 5)
	wantErr(t, err, batch.ErrType, "")
}

func TestAccess(t *testing.T) {
	b := batch.MustNew("a", 4, "b", []int{5, 5}, "obs", batch.MustNew("camera", []uint8{1, 2}))
	if _, ok := b.Get("obs.camera"); !ok {
		t.Error("Get(obs.camera) missing")
	}
	for _, p := range []string{"x", "obs.x", "a.b", "obs.camera.z", "", "obs."} {
		if _, ok := b.Get(p); ok {
			t.Errorf("Get(%q) found a value", p)
		}
	}
	_, err := b.Array("obs")
	wantErr(t, err, batch.ErrType, "obs")
	_, err = b.Array("nope")
	wantErr(t, err, batch.ErrKey, "nope")
	_, err = b.Batch("a")
	wantErr(t, err, batch.ErrType, "a")
	// Seed 000: data.b = np.array([3, 4, 5]) replaces the value.
	if err := b.Set("b", []int{3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "b", arr(t, []int64{3, 4, 5}))
	// Set creates missing Batches on the path and fills reserved keys.
	if err := b.Set("policy.hidden.h", 1.5); err != nil {
		t.Fatal(err)
	}
	wantArray(t, b, "policy.hidden.h", arr(t, 1.5))
	err = b.Set("a.x", 1)
	wantErr(t, err, batch.ErrType, "a")
	wantErr(t, b.Set("obs..x", 1), batch.ErrKey, "")
	wantErr(t, b.Set("", 1), batch.ErrKey, "")
	// Update behaves as dict.update (seed 000).
	if err := b.Update("c", 1, "d", 2, "e", 3); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(b); !slices.Equal(got, []string{"a", "b", "obs", "policy", "c", "d", "e"}) {
		t.Errorf("keys after Update = %v", got)
	}
	wantErr(t, b.Update("c"), batch.ErrValue, "")
	wantErr(t, b.Update(3, 1), batch.ErrKey, "")
	other := batch.MustNew("c", 7, "z", 8)
	b.UpdateFrom(other)
	wantArray(t, b, "c", arr(t, int64(7)))
	wantArray(t, b, "z", arr(t, int64(8)))
	if !b.Delete("obs.camera") || b.Has("obs.camera") || !b.Has("obs") {
		t.Error("Delete(obs.camera) did not remove only the nested key")
	}
	if b.Delete("obs.camera") || b.Delete("a.x") || b.Delete("nope") {
		t.Error("Delete of a missing path reported true")
	}
	if !b.Delete("a") || keysOf(b)[0] != "b" {
		t.Errorf("keys after Delete(a) = %v", keysOf(b))
	}
	var items []string
	for k, v := range b.Items() {
		if k == "c" {
			items = append(items, k+"="+v.(*nd.Array).Str())
		}
	}
	if !slices.Equal(items, []string{"c=7"}) {
		t.Errorf("Items = %v", items)
	}
	n := 0
	for range b.Values() {
		n++
	}
	if n != b.NumKeys() {
		t.Errorf("Values yielded %d, NumKeys %d", n, b.NumKeys())
	}
}

func TestValuesGeneric(t *testing.T) {
	b := batch.MustNew("obs", nd.Zeros(nd.Float32, 2, 3), "o", []any{"x", 1})
	v, err := batch.Values[float32](b, "obs")
	if err != nil {
		t.Fatal(err)
	}
	v[4] = 7 // writes through
	if mustArray(t, b, "obs").At(1, 1) != float32(7) {
		t.Error("Values slice does not alias the array")
	}
	if o, err := batch.Values[any](b, "o"); err != nil || o[0] != "x" {
		t.Errorf("Values[any] = %v, %v", o, err)
	}
	_, err = batch.Values[float64](b, "obs")
	wantErr(t, err, batch.ErrType, "obs")
	b.Set("view", mustArray(t, b, "obs").Index(nd.All(), nd.I(1)))
	_, err = batch.Values[float32](b, "view")
	wantErr(t, err, batch.ErrType, "view")
	_, err = batch.Values[float32](b, "nope")
	wantErr(t, err, batch.ErrKey, "nope")
}

// TestLen checks Len against seeds 000 and 001 (§6.2, §6.3, §7).
func TestLen(t *testing.T) {
	cat := mustCategorical(t, [][]float64{{0.3, 0.7}, {0.4, 0.6}, {0.5, 0.5}})
	tests := []struct {
		name string
		b    *batch.Batch
		want int
		key  string // the key an error names, or "" for no error
	}{
		{"same length", batch.MustNew("a", []int{1, 2, 3}, "b", []int{4, 5, 6}), 3, ""},
		{"minimum", batch.MustNew("a", []int{1, 2}, "b", []int{1, 2, 3, 4}), 2, ""},
		{"reserved ignored", batch.MustNew("a", []int{1, 2, 3}, "b", batch.MustNew()), 3, ""},
		{"nil ignored", batch.MustNew("a", []int{1, 2, 3}, "b", nil), 3, ""},
		{"no keys", batch.MustNew(), 0, ""},
		{"reserved only", batch.MustNew("a", batch.MustNew(), "b", batch.MustNew()), 0, ""},
		{"zero length", batch.MustNew("a", []float64{}, "b", []float64{}), 0, ""},
		{"nested", batch.MustNew("a", []int{1, 2, 3}, "o", batch.MustNew("x", nd.Zeros(nd.Uint8, 2, 5))), 2, ""},
		{"nested without arrays", batch.MustNew("a", []int{1, 2, 3}, "o", batch.MustNew("x", nil)), 3, ""},
		{"custom leaf", batch.MustNew("dist", cat, "values", []int{1, 2, 3, 4}), 3, ""},
		{"scalar", batch.MustNew("a", 5, "b", 10), 0, "a"},
		{"nested scalar", batch.MustNew("a", []int{1}, "o", batch.MustNew("x", 5)), 0, "o.x"},
		{"string", batch.MustNew("a", []int{1}, "s", "hello"), 0, "s"},
		{"scalar leaf", batch.MustNew("d", mustCategorical(t, []float64{0.3, 0.7})), 0, "d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := tt.b.Len()
			if tt.key != "" {
				wantErr(t, err, batch.ErrLen, tt.key)
				return
			}
			if err != nil || n != tt.want {
				t.Errorf("Len = %d, %v; want %d", n, err, tt.want)
			}
		})
	}
}

// TestShape checks Shape against seeds 000 and 001.
func TestShape(t *testing.T) {
	tests := []struct {
		name string
		b    *batch.Batch
		want []int
	}{
		// Seed 000: Batch(a=[5., 4.], b=np.zeros((2, 3, 4))).shape == [2].
		{"min over axes", batch.MustNew("a", []float64{5, 4}, "b", nd.Zeros(nd.Float64, 2, 3, 4)), []int{2}},
		// Seed 001 §3.4: shape [2, 2].
		{"same shape", batch.MustNew("a", [][]float64{{0, 2}, {1, 3}}, "b", [][]float64{{5, -5}, {1, -2}}), []int{2, 2}},
		{"per-axis minimum", batch.MustNew("a", nd.Zeros(nd.Int8, 3, 5), "b", nd.Zeros(nd.Int8, 4, 2, 7)), []int{3, 2}},
		// Seed 001 §6.2: a scalar batch has shape [].
		{"scalars", batch.MustNew("a", 5, "b", 10), []int{}},
		{"reserved", batch.MustNew("a", []int{1, 2}, "r", batch.MustNew()), []int{}},
		{"string", batch.MustNew("a", []int{1, 2}, "s", "x"), []int{}},
		{"empty", batch.MustNew(), []int{}},
		{"single", batch.MustNew("a", nd.Zeros(nd.Bool, 2, 3)), []int{2, 3}},
		{"nested", batch.MustNew("o", batch.MustNew("x", nd.Zeros(nd.Bool, 4, 3)), "a", nd.Zeros(nd.Bool, 5, 2)), []int{4, 2}},
		{"leaf", batch.MustNew("d", mustCategorical(t, [][]float64{{1, 0}, {0, 1}}), "a", nd.Zeros(nd.Bool, 5, 2)), []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.Shape(); !slices.Equal(got, tt.want) || got == nil {
				t.Errorf("Shape = %#v, want %v", got, tt.want)
			}
		})
	}
	// Seed 000: data[0].shape == [] and len(data[0]) is an error.
	d := batch.MustNew("a", []float64{5, 4}, "b", nd.Zeros(nd.Float64, 2, 3, 4))
	row := d.Index(nd.I(0))
	if s := row.Shape(); !slices.Equal(s, []int{}) {
		t.Errorf("data[0].shape = %v, want []", s)
	}
	_, err := row.Len()
	wantErr(t, err, batch.ErrLen, "a")
}

// TestIsEmpty checks the seed 000 is_empty table.
func TestIsEmpty(t *testing.T) {
	r := batch.MustNew("a", batch.MustNew(), "b", batch.MustNew("c", batch.MustNew()))
	tests := []struct {
		b                *batch.Batch
		direct, recursed bool
	}{
		{batch.MustNew(), true, true},
		{r, false, true},
		{batch.MustNew("d", 1), false, false},
		{batch.MustNew("a", float64(1)), false, false},
		{batch.MustNew("a", nil), false, false},
	}
	for i, tt := range tests {
		if got := tt.b.IsEmpty(false); got != tt.direct {
			t.Errorf("%d: IsEmpty(false) = %v", i, got)
		}
		if got := tt.b.IsEmpty(true); got != tt.recursed {
			t.Errorf("%d: IsEmpty(true) = %v", i, got)
		}
	}
	var zero batch.Batch
	if !zero.IsEmpty(false) || zero.NumKeys() != 0 {
		t.Error("zero Batch is not empty")
	}
}

func TestCloneAndEqual(t *testing.T) {
	cat := mustCategorical(t, [][]float64{{0.3, 0.7}})
	b := batch.MustNew("a", []float64{1, 2}, "o", batch.MustNew("x", []any{"s", nil}), "r", batch.MustNew(), "n", nil, "s", "str", "d", cat)
	c := b.Clone()
	if !batch.Equal(b, c) {
		t.Fatalf("clone differs:\n%v\n%v", b, c)
	}
	mustArray(t, c, "a").SetIndex(9.0, nd.I(0))
	if batch.Equal(b, c) {
		t.Error("modifying the clone changed the original (or Equal missed it)")
	}
	if mustArray(t, b, "a").At(0) != 1.0 {
		t.Error("clone shares memory")
	}
	// Order does not matter; values, dtypes and keys do.
	x := batch.MustNew("a", 1, "b", 2)
	y := batch.MustNew("b", 2, "a", 1)
	if !batch.Equal(x, y) {
		t.Error("Equal depends on key order")
	}
	for _, z := range []*batch.Batch{
		batch.MustNew("a", 1, "b", int32(2)),
		batch.MustNew("a", 1, "c", 2),
		batch.MustNew("a", 1),
		batch.MustNew("a", 1, "b", nil),
		batch.MustNew("a", 1, "b", "2"),
		batch.MustNew("a", 1, "b", batch.MustNew()),
	} {
		if batch.Equal(x, z) {
			t.Errorf("Equal(%v, %v) = true", x, z)
		}
	}
	// Custom leaves compare with their Equal method.
	d1 := batch.MustNew("d", mustCategorical(t, []float64{0.5, 0.5}))
	d2 := batch.MustNew("d", mustCategorical(t, []float64{0.5, 0.5}))
	d3 := batch.MustNew("d", mustCategorical(t, []float64{0.4, 0.6}))
	if !batch.Equal(d1, d2) || batch.Equal(d1, d3) {
		t.Error("custom leaves not compared by value")
	}
	// Without an Equal method, reflect.DeepEqual decides.
	n1 := batch.MustNew("d", &batchtest.Normal{Loc: arr(t, []float64{0}), Scale: arr(t, []float64{1})})
	if !batch.Equal(n1, n1.Clone()) {
		t.Error("a leaf without Equal differs from itself")
	}
}

func mustCategorical(t testing.TB, probs any) *batchtest.Categorical {
	t.Helper()
	c, err := batchtest.NewCategorical(arr(t, probs))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestErrorType(t *testing.T) {
	_, err := batch.MustNew("a", 5).Len()
	var be *batch.Error
	if !errors.As(err, &be) || be.Path != "a" || be.Kind != batch.ErrLen {
		t.Fatalf("error %#v", err)
	}
	if got, want := err.Error(), "batch: key a: array(5) has no length"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestConvertKinds checks the conversion of Go values of every kind.
func TestConvertKinds(t *testing.T) {
	type (
		myBool   bool
		myInt    int
		myInt8   int8
		myInt16  int16
		myInt32  int32
		myInt64  int64
		myUint   uint
		myUint8  uint8
		myUint16 uint16
		myUint32 uint32
		myUint64 uint64
		myF32    float32
		myF64    float64
		myString string
	)
	type point struct{ X int }
	p := &point{1}
	tests := []struct {
		name string
		v    any
		want any // an *nd.Array, or the stored Go value
	}{
		{"named bool", myBool(true), arr(t, true)},
		{"named int", myInt(-3), arr(t, int64(-3))},
		{"named int8", myInt8(-3), arr(t, int8(-3))},
		{"named int16", myInt16(-3), arr(t, int16(-3))},
		{"named int32", myInt32(-3), arr(t, int32(-3))},
		{"named int64", myInt64(-3), arr(t, int64(-3))},
		{"named uint", myUint(3), arr(t, uint64(3))},
		{"named uint8", myUint8(3), arr(t, uint8(3))},
		{"named uint16", myUint16(3), arr(t, uint16(3))},
		{"named uint32", myUint32(3), arr(t, uint32(3))},
		{"named uint64", myUint64(3), arr(t, uint64(3))},
		{"named float32", myF32(0.5), arr(t, float32(0.5))},
		{"named float64", myF64(0.5), arr(t, 0.5)},
		{"named string", myString("s"), "s"},
		{"sized ints", []int16{1, 2}, arr(t, []int16{1, 2})},
		{"go array", [2]float32{1, 2}, arr(t, []float32{1, 2})},
		{"strings", []string{"a", "b"}, objects(t, "a", "b")},
		{"struct", point{2}, point{2}},
		{"pointer", p, p},
		{"complex", complex(1, 2), complex(1, 2)},
		{"nil array", (*nd.Array)(nil), nil},
		{"nil batch", (*batch.Batch)(nil), nil},
		{"empty list", []int{}, nd.Zeros(nd.Int64, 0)},
		{"mixed ragged", []any{[]int{1}, "x", nil}, objects(t, arr(t, []int64{1}), "x", nil)},
		{"deep ragged", []any{[]any{[]int{1}, []int{1, 2}}, []int{3}}, objects(t, objects(t, arr(t, []int64{1}), arr(t, []int64{1, 2})), arr(t, []int64{3}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := batch.New("k", tt.v)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := b.Get("k")
			if w, ok := tt.want.(*nd.Array); ok {
				g, ok := got.(*nd.Array)
				if !ok || !nd.Equal(g, w) {
					t.Errorf("got %v (%T), want %v", got, got, w)
				}
				return
			}
			if got != tt.want {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
	// Maps of other value types, and lists of Batches.
	b, err := batch.New("m", map[string][]float32{"z": {1}, "a": {2, 3}}, "rows", []*batch.Batch{batch.MustNew("x", 1), batch.MustNew("x", 2)})
	if err != nil {
		t.Fatal(err)
	}
	if sub, _ := b.Batch("m"); keysOf(sub)[0] != "a" {
		t.Errorf("typed map keys %v", keysOf(sub))
	}
	wantArray(t, b, "m.a", arr(t, []float32{2, 3}))
	wantArray(t, b, "rows.x", arr(t, []int64{1, 2}))
	_, err = batch.New("m", map[string]map[int]int{"a": {1: 1}})
	wantErr(t, err, batch.ErrKey, "m.a")
	_, err = batch.FromMap(map[string]any{"": 1})
	wantErr(t, err, batch.ErrKey, "")
	_, err = batch.FromRows((*batch.Batch)(nil))
	wantErr(t, err, batch.ErrType, "")
	defer func() {
		if recover() == nil {
			t.Error("MustNew of a bad key did not panic")
		}
	}()
	batch.MustNew("a.b", 1)
}
