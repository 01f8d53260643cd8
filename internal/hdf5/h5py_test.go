//go:build hdf5 && cgo

package hdf5

import (
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var (
	h5pyRequired = flag.Bool("h5py.required", false, "fail, instead of skipping, the tests that need Python with h5py when it is missing")
	h5pyPython   = flag.String("h5py.python", "", "Python interpreter with h5py (default: the first of python3 on PATH and /usr/bin/python3 that imports h5py)")
)

// checker is the h5py checker shared with CI, relative to this package.
var checker = filepath.Join("..", "..", ".ci", "h5check.py")

// python returns a Python interpreter that imports h5py, or skips the test
// (fails it under -h5py.required).
func python(t *testing.T) string {
	t.Helper()
	candidates := []string{"python3", "/usr/bin/python3"}
	if *h5pyPython != "" {
		candidates = []string{*h5pyPython}
	}
	for _, c := range candidates {
		if exec.Command(c, "-c", "import h5py").Run() == nil {
			return c
		}
	}
	if *h5pyRequired {
		t.Fatalf("no Python with h5py among %q (-h5py.required is set)", candidates)
	}
	t.Skipf("no Python with h5py among %q; install python3-h5py or pass -h5py.python", candidates)
	return ""
}

// runChecker runs the checker with mode "check" or "write" on file and the
// JSON encoding of spec, and returns its output and error.
func runChecker(t *testing.T, py, mode, file string, spec map[string]any) (string, error) {
	t.Helper()
	b, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	specPath := file + ".json"
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, checker, mode, file, specPath).CombinedOutput()
	return string(out), err
}

// dtypeNames are the checker's dtype names of the element types.
var dtypeNames = [...]string{
	elemBool: "bool", elemInt8: "int8", elemInt16: "int16", elemInt32: "int32", elemInt64: "int64",
	elemUint8: "uint8", elemUint16: "uint16", elemUint32: "uint32", elemUint64: "uint64",
	elemFloat32: "float32", elemFloat64: "float64", elemString: "str",
}

// jsonFloat spells a float as the checker reads it: special values and
// negative zero as strings Python's float() parses.
func jsonFloat(x float64) any {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0 && math.Signbit(x):
		return "-0.0"
	}
	return x
}

// values is the checker's "dtype", "shape" and "data" of a slice.
func values(data any, shape []int) map[string]any {
	e, _, ok := elemOf(data)
	if !ok {
		panic("values: unsupported type")
	}
	if shape == nil {
		shape = []int{}
	}
	v := reflect.ValueOf(data)
	list := make([]any, v.Len())
	for i := range list {
		x := v.Index(i)
		switch x.Kind() {
		case reflect.Float32, reflect.Float64:
			list[i] = jsonFloat(x.Float())
		default:
			list[i] = x.Interface()
		}
	}
	return map[string]any{"dtype": dtypeNames[e], "shape": shape, "data": list}
}

func datasetSpec(data any, shape []int, attrs map[string]any) map[string]any {
	n := values(data, shape)
	n["kind"] = "dataset"
	n["attrs"] = attrs
	return n
}

// attrSpecs describes attrCases as the checker sees them.
func attrSpecs() map[string]any {
	m := map[string]any{}
	for _, c := range attrCases {
		data, shape, err := attrData(c.v)
		if err != nil {
			panic(err)
		}
		m[c.name] = values(data, shape)
	}
	return m
}

// TestH5pyReadsGoFile writes every supported type, shape and attribute with
// Go and has h5py check that it reads exactly the same values and dtypes
// (bool as numpy bool, strings as UTF-8 str). It then alters one expected
// value to show the check can fail.
func TestH5pyReadsGoFile(t *testing.T) {
	py := python(t)
	path := tempPath(t, "go.h5")
	f := mustCreate(t, path)
	rootMembers := map[string]any{}
	for _, c := range roundTrips {
		if _, err := f.Root().WriteDataset(c.name, c.data, c.shape); err != nil {
			t.Fatal(err)
		}
		rootMembers[c.name] = datasetSpec(c.data, c.shape, map[string]any{})
	}
	setAll := func(o interface{ SetAttr(string, any) error }) {
		for _, c := range attrCases {
			if err := o.SetAttr(c.name, c.v); err != nil {
				t.Fatal(err)
			}
		}
	}
	setAll(f.Root())
	g, err := f.Root().CreateGroup("buffer")
	if err != nil {
		t.Fatal(err)
	}
	setAll(g)
	inner, err := g.CreateGroup("obs")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := inner.WriteDataset("rgb", []uint8{1, 2, 3, 4, 5, 6}, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	setAll(ds)
	mustClose(t, f)

	rootMembers["buffer"] = map[string]any{
		"kind":  "group",
		"attrs": attrSpecs(),
		"members": map[string]any{"obs": map[string]any{
			"kind": "group", "attrs": map[string]any{},
			"members": map[string]any{"rgb": datasetSpec([]uint8{1, 2, 3, 4, 5, 6}, []int{1, 2, 3}, attrSpecs())},
		}},
	}
	spec := map[string]any{"kind": "group", "attrs": attrSpecs(), "members": rootMembers}
	if out, err := runChecker(t, py, "check", path, spec); err != nil {
		t.Fatalf("h5py check failed: %v\n%s", err, out)
	}

	// The check must be able to fail: change one expected element.
	rootMembers["int8"] = datasetSpec([]int8{math.MinInt8, -1, 0, 2, math.MaxInt8}, []int{5}, map[string]any{})
	out, err := runChecker(t, py, "check", path, spec)
	if err == nil || !strings.Contains(out, "/int8: element 3") {
		t.Errorf("altered spec passed the check: %v\n%s", err, out)
	}
}

// h5pyCases are datasets h5py writes and what ReadDataset must return for
// them: the values are the spec's data converted by the type mapping
// documented on ReadDataset, or the error it must report.
var h5pyCases = []struct {
	name    string
	spec    map[string]any
	want    any
	shape   []int
	wantErr string
}{
	{"bool", map[string]any{"dtype": "bool", "shape": []int{3}, "data": []any{true, false, true}},
		[]bool{true, false, true}, []int{3}, ""},
	{"i4_big_endian", map[string]any{"dtype": ">i4", "shape": []int{2}, "data": []any{1, -2}},
		[]int32{1, -2}, []int{2}, ""},
	{"f8_big_endian", map[string]any{"dtype": ">f8", "shape": []int{}, "data": []any{-1.5}},
		[]float64{-1.5}, []int{}, ""},
	{"u2", map[string]any{"dtype": "<u2", "shape": []int{2, 1}, "data": []any{0, 65535}},
		[]uint16{0, 65535}, []int{2, 1}, ""},
	{"i8_gzip", map[string]any{"dtype": "int64", "shape": []int{1000}, "data": seq(1000), "compression": "gzip"},
		ramp[int64](1000), []int{1000}, ""},
	{"str_utf8", map[string]any{"dtype": "str", "shape": []int{2}, "data": []any{"héllo", ""}},
		[]string{"héllo", ""}, []int{2}, ""},
	{"str_ascii", map[string]any{"dtype": "str-ascii", "shape": []int{}, "data": []any{"obs"}},
		[]string{"obs"}, []int{}, ""},
	{"fixed_bytes", map[string]any{"dtype": "S4", "shape": []int{3}, "data": []any{"ab", "abcd", ""}},
		[]string{"ab", "abcd", ""}, []int{3}, ""},
	{"empty_f4", map[string]any{"dtype": "float32", "shape": []int{0, 2}, "data": []any{}},
		[]float32{}, []int{0, 2}, ""},
	{"unwritten_small", map[string]any{"dtype": "int32", "shape": []int{4}, "data": []any{}, "unwritten": true},
		[]int32{0, 0, 0, 0}, []int{4}, ""}, // HDF5's default fill value
	{"unwritten_huge", map[string]any{"dtype": "float64", "shape": []int{1 << 30}, "data": []any{}, "unwritten": true},
		nil, nil, "elements of 8 bytes exceed the 16777216 bytes the file can justify"},
	{"external", map[string]any{"dtype": "int64", "shape": []int{2}, "data": []any{1, 2}, "external": true},
		nil, nil, "datasets stored in external files are not supported"},
	{"float16", map[string]any{"dtype": "float16", "shape": []int{1}, "data": []any{1}},
		nil, nil, "unsupported datatype: HDF5 class float of 2 bytes"},
	{"compound", map[string]any{"dtype": [][]string{{"a", "<i4"}, {"b", "<f8"}}, "shape": []int{1}, "data": []any{[]any{1, 2.5}}},
		nil, nil, "unsupported datatype: HDF5 class compound"},
}

// seq returns the JSON data of ramp[int64](n).
func seq(n int) []any {
	s := make([]any, n)
	for i, x := range ramp[int64](n) {
		s[i] = x
	}
	return s
}

// TestGoReadsH5pyFile has h5py write datasets and attributes of the dtypes
// numpy users store, including some Go never writes (big-endian, fixed-length
// and ASCII strings, gzip-compressed chunks), and reads them back with Go.
func TestGoReadsH5pyFile(t *testing.T) {
	py := python(t)
	members := map[string]any{}
	for _, c := range h5pyCases {
		n := map[string]any{"kind": "dataset"}
		for k, v := range c.spec {
			n[k] = v
		}
		members[c.name] = n
	}
	attrs := map[string]any{
		"i32":      map[string]any{"dtype": "int32", "shape": []int{}, "data": []any{-7}},
		"u64":      map[string]any{"dtype": "uint64", "shape": []int{}, "data": []any{uint64(math.MaxUint64)}},
		"f32":      map[string]any{"dtype": "float32", "shape": []int{}, "data": []any{0.5}},
		"py_str":   map[string]any{"dtype": "str", "shape": []int{}, "data": []any{"Batch"}},
		"py_bool":  map[string]any{"dtype": "bool", "shape": []int{}, "data": []any{true}},
		"str_list": map[string]any{"dtype": "str", "shape": []int{2}, "data": []any{"obs", "act"}},
		"u8_list":  map[string]any{"dtype": "uint8", "shape": []int{3}, "data": []any{1, 2, 255}},
		"fixed":    map[string]any{"dtype": "S5", "shape": []int{}, "data": []any{"abc"}},
		"matrix":   map[string]any{"dtype": "int64", "shape": []int{2, 2}, "data": []any{1, 2, 3, 4}},
	}
	members["grp"] = map[string]any{"kind": "group", "members": map[string]any{
		"x": map[string]any{"kind": "dataset", "dtype": "float64", "shape": []int{1}, "data": []any{2}, "attrs": attrs},
	}}
	members["link"] = map[string]any{"kind": "softlink", "target": "/grp"}
	spec := map[string]any{"kind": "group", "attrs": attrs, "members": members}
	path := tempPath(t, "py.h5")
	if out, err := runChecker(t, py, "write", path, spec); err != nil {
		t.Fatalf("h5py write failed: %v\n%s", err, out)
	}

	f := mustOpen(t, path)
	defer mustClose(t, f)
	root := f.Root()
	for _, c := range h5pyCases {
		data, shape, err := root.ReadDataset(c.name)
		if c.wantErr != "" {
			isType := strings.HasPrefix(c.wantErr, "unsupported datatype")
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || errors.Is(err, ErrDatatype) != isType ||
				!strings.Contains(err.Error(), "/"+c.name) {
				t.Errorf("%s: err = %v, want %q naming the dataset", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !sameValues(data, c.want) || !slices.Equal(shape, c.shape) {
			t.Errorf("%s: read %v %v, want %v %v", c.name, data, shape, c.want, c.shape)
		}
	}

	ms, err := root.Members()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]Kind{}
	for _, m := range ms {
		kinds[m.Name] = m.Kind
	}
	if kinds["grp"] != KindGroup || kinds["link"] != KindLink || kinds["bool"] != KindDataset || len(kinds) != len(members) {
		t.Errorf("Members = %v", ms)
	}
	if _, err := root.OpenGroup("link"); err == nil || !strings.Contains(err.Error(), "link, not a group") {
		t.Errorf("OpenGroup(soft link) = %v, want a refusal", err)
	}

	grp, err := root.OpenGroup("grp")
	if err != nil {
		t.Fatal(err)
	}
	x, err := grp.OpenDataset("x")
	if err != nil {
		t.Fatal(err)
	}
	// Expected values: the spec's attributes widened as Attr documents.
	wantAttrs := map[string]any{
		"i32": int64(-7), "f32": 0.5, "py_str": "Batch", "py_bool": true,
		"str_list": []string{"obs", "act"}, "u8_list": []int64{1, 2, 255}, "fixed": "abc",
	}
	for _, obj := range []*object{&root.object, &x.object} {
		for name, want := range wantAttrs {
			got, err := obj.Attr(name)
			if err != nil || !sameAttr(want, got) {
				t.Errorf("%s@%s = %#v, %v; want %#v", obj.Path(), name, got, err, want)
			}
		}
		if _, err := obj.Attr("u64"); err == nil || !strings.Contains(err.Error(), "does not fit an int64") {
			t.Errorf("%s@u64: err = %v", obj.Path(), err)
		}
		if _, err := obj.Attr("matrix"); err == nil || !strings.Contains(err.Error(), "only 0-d and 1-d") {
			t.Errorf("%s@matrix: err = %v", obj.Path(), err)
		}
		if _, err := obj.Attr("absent"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s@absent: err = %v", obj.Path(), err)
		}
		names, err := obj.AttrNames()
		if err != nil || len(names) != len(attrs) || !slices.IsSorted(names) {
			t.Errorf("%s AttrNames = %v, %v", obj.Path(), names, err)
		}
	}
}
