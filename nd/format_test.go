package nd_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gorl/gorl/nd"
)

func TestString(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		a    *nd.Array
		want string
	}{
		// Printouts from the seeds (000/001 Batch tutorials).
		{"seed ints", nd.MustNew([]int{3, 4, 5}), "array([3, 4, 5])"},
		{"seed floats", nd.MustNew([]float64{0, 1}), "array([0., 1.])"},
		{"seed negative", nd.MustNew([]int{5, -5}), "array([ 5, -5])"},
		{"seed 0-d", nd.MustNew(5), "array(5)"},
		{"seed 0-d float", nd.MustNew(3.66), "array(3.66)"},
		{"seed object", nd.MustNew([]any{nil, "done"}), "array([None, 'done'], dtype=object)"},
		{"seed strings", nd.MustNew([]string{"hello", "world"}), "array(['hello', 'world'], dtype=object)"},
		{"seed 2-d", nd.MustNew([][]float64{{0, 2}, {1, 3}}), "array([[0., 2.],\n       [1., 3.]])"},
		{"seed 2-d padded", nd.MustNew([][]float64{{0, 12}, {1, 13}}), "array([[ 0., 12.],\n       [ 1., 13.]])"},
		{"seed 2-d negative", nd.MustNew([][]float64{{5, -5}, {1, -2}}), "array([[ 5., -5.],\n       [ 1., -2.]])"},
		{"seed ones", nd.MustNew([]float64{1, 1, 1, 1, 1}), "array([1., 1., 1., 1., 1.])"},
		{"seed 3-d", nd.MustNew([][][]float64{{{1, 1, 1}, {1, 1, 1}}, {{0, 0, 0}, {0, 0, 0}}}),
			"array([[[1., 1., 1.],\n        [1., 1., 1.]],\n\n       [[0., 0., 0.],\n        [0., 0., 0.]]])"},
		{"seed lidar zeros", nd.Zeros(nd.Float64, 10), "array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0.])"},
		{"seed None pair", nd.MustNew([]any{nil, nil}), "array([None, None], dtype=object)"},
		// numpy 2 documented/observed reprs.
		{"int32", nd.MustNew([]int32{1, 2}), "array([1, 2], dtype=int32)"},
		{"bool", nd.MustNew([]bool{true, false}), "array([ True, False])"},
		{"bool 0-d", nd.MustNew(true), "array(True)"},
		{"float32 padded right", nd.MustNew([]float32{1.5, 2}), "array([1.5, 2. ], dtype=float32)"},
		{"frac padding", nd.MustNew([]float64{0.1, 0.25}), "array([0.1 , 0.25])"},
		{"eight digits", nd.MustNew([]float64{1.0 / 3}), "array([0.33333333])"},
		{"scientific", nd.MustNew([]float64{1e-5, 1}), "array([1.e-05, 1.e+00])"},
		{"scientific large", nd.MustNew([]float64{1.5e10, 2}), "array([1.5e+10, 2.0e+00])"},
		{"nan", nd.MustNew([]float64{1, nan}), "array([ 1., nan])"},
		{"infs", nd.MustNew([]float64{inf, -inf}), "array([ inf, -inf])"},
		{"negative zero", nd.MustNew([]float64{math.Copysign(0, -1), 1}), "array([-0.,  1.])"},
		{"empty", nd.Zeros(nd.Float64, 0), "array([], dtype=float64)"},
		{"empty 2-d", nd.Zeros(nd.Int64, 0, 3), "array([], shape=(0, 3), dtype=int64)"},
		{"object 0-d", nd.MustNew("hello"), "array('hello', dtype=object)"},
		{"object mixed", nd.MustNew([]any{1, "hello", nil, 2.0, true}), "array([1, 'hello', None, 2.0, True], dtype=object)"},
		{"object quote", nd.MustNew([]any{"it's"}), `array(["it's"], dtype=object)`},
		{"3-d ints", arange(t, 2, 2, 2), "array([[[0, 1],\n        [2, 3]],\n\n       [[4, 5],\n        [6, 7]]])"},
		{"wrap", arange(t, 30), "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])"},
		{"summary", arange(t, 2000), "array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))"},
		{"summary 2-d", arange(t, 1000, 2), "array([[   0,    1],\n       [   2,    3],\n       [   4,    5],\n       ...,\n       [1994, 1995],\n       [1996, 1997],\n       [1998, 1999]], shape=(1000, 2))"},
		{"view", arange(t, 3, 3).Index(nd.Step(-2), nd.I(1)), "array([7, 1])"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.a.String(); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestStr(t *testing.T) {
	cases := []struct {
		a    *nd.Array
		want string
	}{
		// Printouts from the seeds.
		{nd.MustNew([]int{5, 5}), "[5 5]"},
		{nd.MustNew([]float64{0, 2}), "[0. 2.]"},
		{nd.MustNew([][]int{{1, 2}, {3, 4}}), "[[1 2]\n [3 4]]"},
		{nd.MustNew([]any{1, "hello", nil}), "[1 'hello' None]"},
		{nd.MustNew([]bool{false, false, true, false}), "[False False  True False]"},
		{nd.MustNew([]float64{8, 10}), "[ 8. 10.]"},
		{nd.MustNew([]int{999, 2, 3}), "[999   2   3]"},
		{nd.MustNew([]float64{1, 1, 1, 1, 1}), "[1. 1. 1. 1. 1.]"},
		{nd.MustNew(5), "5"},
		{nd.MustNew(1.0), "1.0"},
		{nd.MustNew("hello"), "hello"},
		{nd.MustNew([][]float64{{1, 2}, {3, 4}}), "[[1. 2.]\n [3. 4.]]"},
	}
	for _, c := range cases {
		if got := c.a.Str(); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
}

func objects(t *testing.T, v ...any) *nd.Array {
	t.Helper()
	a, err := nd.FromSlice(v)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestObjectRepr(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	cases := []struct {
		name string
		a    *nd.Array
		repr string // String
		str  string // Str
	}{
		// numpy 2 on the same Python values: np.array([{}, {'a': 1}]) and an
		// object array whose elements are set to lists (numpy's
		// _object_format writes a list element as list([...])).
		{"dicts", objects(t, map[string]any{}, map[string]any{"a": 1}),
			"array([{}, {'a': 1}], dtype=object)", "[{} {'a': 1}]"},
		{"list", objects(t, []any{1, "x"}, nil),
			"array([list([1, 'x']), None], dtype=object)", "[list([1, 'x']) None]"},
		{"nested", objects(t, map[string]any{"b": []any{1.5, true, nil}, "a": "it's"}),
			`array([{'a': "it's", 'b': [1.5, True, None]}], dtype=object)`, `[{'a': "it's", 'b': [1.5, True, None]}]`},
		{"typed containers", objects(t, map[int]string{10: "a", 2: "b"}, []float32{0.5}, [2]bool{true, false}),
			"array([{2: 'b', 10: 'a'}, list([0.5]), list([True, False])], dtype=object)",
			"[{2: 'b', 10: 'a'} list([0.5]) list([True, False])]"},
		{"array in dict", objects(t, map[string]any{"x": nd.MustNew([]int{1, 2})}),
			"array([{'x': array([1, 2])}], dtype=object)", "[{'x': array([1, 2])}]"},
		{"mixed keys", objects(t, map[any]int{"b": 1, 2: 2, "a": 3}),
			"array([{2: 2, 'a': 3, 'b': 1}], dtype=object)", "[{2: 2, 'a': 3, 'b': 1}]"},
		{"0-d dict", nd.MustNew(map[string]any{"env_id": 3}),
			"array({'env_id': 3}, dtype=object)", "{'env_id': 3}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.a.String(); got != c.repr {
				t.Errorf("String:\ngot  %s\nwant %s", got, c.repr)
			}
			if got := c.a.Str(); got != c.str {
				t.Errorf("Str:\ngot  %s\nwant %s", got, c.str)
			}
		})
	}
	// A list holding itself prints with a bounded depth instead of
	// recursing forever.
	s := objects(t, cyclic).String()
	if !strings.Contains(s, "...") || len(s) > 1000 {
		t.Errorf("cyclic list printed as %q", s)
	}
}

// TestRepr checks Repr against what Python 3's repr prints for the
// corresponding values (typed into an interpreter: repr("it's"),
// repr(1e-05), repr(float(2**60)), repr([1, 'x', None]), …; dicts with
// their keys in sorted order, which Repr prints them in).
func TestRepr(t *testing.T) {
	self := []any{1, nil}
	self[1] = self // a list holding itself
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "None"},
		{true, "True"},
		{false, "False"},
		{"text", "'text'"},
		{"it's", `"it's"`},
		{`it's "x"`, `'it\'s "x"'`},
		{"a\\b\n\t\r\x01\x7f", `'a\\b\n\t\r\x01\x7f'`},
		{"é", "'é'"},
		{1.0, "1.0"},
		{1e-5, "1e-05"},
		{0.0001, "0.0001"},
		{float64(1 << 60), "1.152921504606847e+18"},
		{1e16, "1e+16"},
		{123456789012345.0, "123456789012345.0"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
		{float32(0.1), "0.1"},
		{7, "7"},
		{[]any{1, "x", nil}, "[1, 'x', None]"},
		{[2]bool{true, false}, "[True, False]"},
		{map[string]int{"b": 2, "a": 1}, "{'a': 1, 'b': 2}"},
		{map[int]any{10: []int{}, -1: "x"}, "{-1: 'x', 10: []}"},
		{nd.MustNew([]int{1, 2}), "array([1, 2])"},
		{(*nd.Array)(nil), "None"},
	} {
		if got := nd.Repr(c.v); got != c.want {
			t.Errorf("Repr(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
	if got := nd.Repr(self); !strings.HasPrefix(got, "[1, [1, [1, ") || !strings.Contains(got, "...") {
		t.Errorf("Repr of a list holding itself = %.60s…; want nested lists ending in ...", got)
	}
}
