package env_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

func testDict(t testing.TB) *env.Dict {
	t.Helper()
	inner := must(env.NewTuple(must(env.NewDiscrete(2, 0)), must(env.NewMultiBinary(2))))
	return must(env.NewDict(
		env.DictEntry{Key: "pos", Space: must(env.NewBox(-1.0, 1.0, []int{2}, nd.Float32))},
		env.DictEntry{Key: "id", Space: must(env.NewDiscrete(3, 0))},
		env.DictEntry{Key: "extra", Space: inner},
	))
}

func TestDictString(t *testing.T) {
	// Gymnasium's Dict.__repr__ and Tuple.__repr__ of the same spaces.
	want := "Dict('pos': Box(-1.0, 1.0, (2,), float32), 'id': Discrete(3), 'extra': Tuple(Discrete(2), MultiBinary(2)))"
	if got := testDict(t).String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestDictContains(t *testing.T) {
	d := testDict(t)
	good := func() *batch.Batch {
		return batch.MustNew(
			"id", nd.MustNew(int64(2)),
			"pos", nd.MustNew([]float32{0, 1}),
			"extra", batch.MustNew("0", nd.MustNew(int64(1)), "1", nd.MustNew([]int8{0, 1})),
		)
	}
	if !d.Contains(good()) {
		t.Fatal("a valid value (keys in another order) is not contained")
	}
	cases := map[string]func(b *batch.Batch){
		"a key missing":        func(b *batch.Batch) { b.Delete("id") },
		"an extra key":         func(b *batch.Batch) { b.Set("more", nd.MustNew(int64(0))) },
		"a value out of range": func(b *batch.Batch) { b.Set("id", nd.MustNew(int64(3))) },
		"a nested value wrong": func(b *batch.Batch) { b.Set("extra.1", nd.MustNew([]int8{0, 2})) },
		"a nested key missing": func(b *batch.Batch) { b.Delete("extra.0") },
		"a Batch for an array": func(b *batch.Batch) { b.Set("pos", batch.MustNew("x", 1)) },
	}
	for name, spoil := range cases {
		b := good()
		spoil(b)
		if d.Contains(b) {
			t.Errorf("%s: contained", name)
		}
	}
	if d.Contains(nd.MustNew([]float32{0, 1})) {
		t.Error("an array is contained in a Dict")
	}
}

func TestDictSample(t *testing.T) {
	d := testDict(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 50; i++ {
		x := d.Sample(rng)
		if !d.Contains(x) {
			t.Fatalf("sample %v not contained", x)
		}
	}
	// SampleTo into a batch of 4 rows.
	dst := batch.ZerosStacked(d.Sample(rng).(*batch.Batch), 4)
	d.SampleTo(dst, rng)
	for i := 0; i < 4; i++ {
		if row := dst.Index(nd.I(i)); !d.Contains(row) {
			t.Errorf("row %d of SampleTo: %v not contained", i, row)
		}
	}
	if n := testing.AllocsPerRun(50, func() { d.SampleTo(dst, rng) }); n != 0 {
		t.Errorf("Dict.SampleTo: %v allocations, want 0", n)
	}
	expectShapePanic := func(name string, dst any) {
		defer func() {
			if err, ok := recover().(error); !ok || !errors.Is(err, nd.ErrShape) {
				t.Errorf("%s: panic %v, want nd.ErrShape", name, err)
			}
		}()
		d.SampleTo(dst, rng)
	}
	expectShapePanic("an array", nd.Zeros(nd.Float32, 2))
	expectShapePanic("a Batch without the keys", batch.MustNew("pos", nd.Zeros(nd.Float32, 2)))
}

func TestDictEqualAndErrors(t *testing.T) {
	a := must(env.NewDict(env.DictEntry{Key: "a", Space: must(env.NewDiscrete(2, 0))}, env.DictEntry{Key: "b", Space: must(env.NewMultiBinary(2))}))
	b := must(env.NewDict(env.DictEntry{Key: "b", Space: must(env.NewMultiBinary(2))}, env.DictEntry{Key: "a", Space: must(env.NewDiscrete(2, 0))}))
	c := must(env.NewDict(env.DictEntry{Key: "a", Space: must(env.NewDiscrete(3, 0))}, env.DictEntry{Key: "b", Space: must(env.NewMultiBinary(2))}))
	if !a.Equal(b) || a.Equal(c) || a.Equal(must(env.NewTuple(must(env.NewDiscrete(2, 0))))) {
		t.Error("Dict.Equal: want equal regardless of key order, unequal for other sub-spaces")
	}
	t1 := must(env.NewTuple(must(env.NewDiscrete(2, 0)), must(env.NewMultiBinary(2))))
	t2 := must(env.NewTuple(must(env.NewMultiBinary(2)), must(env.NewDiscrete(2, 0))))
	if !t1.Equal(t1) || t1.Equal(t2) {
		t.Error("Tuple.Equal: order matters")
	}
	d := must(env.NewDiscrete(2, 0))
	for name, entries := range map[string][]env.DictEntry{
		"empty key":    {{Key: "", Space: d}},
		"key with sep": {{Key: "a.b", Space: d}},
		"repeated key": {{Key: "a", Space: d}, {Key: "a", Space: d}},
		"nil space":    {{Key: "a"}},
	} {
		if _, err := env.NewDict(entries...); !errors.Is(err, env.ErrSpace) {
			t.Errorf("%s: %v, want ErrSpace", name, err)
		}
	}
	if _, err := env.NewTuple(d, nil); !errors.Is(err, env.ErrSpace) {
		t.Errorf("Tuple with a nil space: %v", err)
	}
	if got := testDict(t).Keys(); len(got) != 3 || got[0] != "pos" || got[2] != "extra" {
		t.Errorf("Keys = %v", got)
	}
	if s, ok := testDict(t).Space("id"); !ok || s.String() != "Discrete(3)" {
		t.Errorf("Space(id) = %v, %v", s, ok)
	}
}
