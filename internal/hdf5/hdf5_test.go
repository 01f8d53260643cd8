//go:build hdf5 && cgo

package hdf5

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// roundTrips lists every supported element type in the shapes that matter:
// 0-d scalars, empty arrays, 1-d and n-d arrays, extreme values. The expected
// value of each case is its input: a round trip must give it back bit for bit.
var roundTrips = []struct {
	name  string
	data  any
	shape []int
}{
	{"bool", []bool{true, false, false, true, true, false}, []int{2, 3}},
	{"bool0d", []bool{true}, []int{}},
	{"int8", []int8{math.MinInt8, -1, 0, 1, math.MaxInt8}, []int{5}},
	{"int16", []int16{math.MinInt16, 0, math.MaxInt16}, []int{3}},
	{"int32", []int32{math.MinInt32, 0, math.MaxInt32, 7}, []int{2, 2}},
	{"int64", []int64{math.MinInt64, 0, math.MaxInt64}, []int{3, 1}},
	{"uint8", []uint8{0, 1, math.MaxUint8}, []int{3}},
	{"uint16", []uint16{0, math.MaxUint16}, []int{2}},
	{"uint32", []uint32{0, math.MaxUint32}, []int{1, 2}},
	{"uint64", []uint64{0, math.MaxUint64}, []int{2}},
	{"float32", []float32{0, float32(math.Copysign(0, -1)), 1.5, math.MaxFloat32, math.SmallestNonzeroFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}, []int{2, 2, 2}},
	{"float64", []float64{0, math.Copysign(0, -1), -2.25, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN()}, []int{8}},
	{"string", []string{"", "obs", "héllo wörld", "日本語", strings.Repeat("x", 1000)}, []int{5}},
	{"string0d", []string{"done"}, []int{}},
	{"int64_0d", []int64{-42}, []int{}},
	{"float64_0d", []float64{3.5}, nil},
	{"uint8_0d", []uint8{200}, []int{}},
	{"empty_float32", []float32{}, []int{0}},
	{"empty_int64_2d", []int64{}, []int{2, 0, 3}},
	{"empty_bool", []bool{}, []int{0}},
	{"empty_string", []string{}, []int{0, 4}},
	{"big_float32", ramp[float32](1 << 16), []int{256, 256}},
}

func ramp[T float32 | int64](n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(i) - T(n/2)
	}
	return s
}

// sameValues reports whether a and b are slices of the same type and
// elements, comparing floats by their bits (NaN equals NaN, -0 differs from 0).
func sameValues(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() || va.Len() != vb.Len() {
		return false
	}
	for i := 0; i < va.Len(); i++ {
		x, y := va.Index(i), vb.Index(i)
		switch x.Kind() {
		case reflect.Float32:
			if math.Float32bits(float32(x.Float())) != math.Float32bits(float32(y.Float())) {
				return false
			}
		case reflect.Float64:
			if math.Float64bits(x.Float()) != math.Float64bits(y.Float()) {
				return false
			}
		default:
			if x.Interface() != y.Interface() {
				return false
			}
		}
	}
	return true
}

// wantShape is the shape ReadDataset reports for a written shape.
func wantShape(shape []int) []int {
	if shape == nil {
		return []int{}
	}
	return shape
}

func tempPath(t testing.TB, name string) string {
	return filepath.Join(t.TempDir(), name)
}

func mustCreate(t testing.TB, path string) *File {
	t.Helper()
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustOpen(t testing.TB, path string) *File {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustClose(t testing.TB, f *File) {
	t.Helper()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	path := tempPath(t, "rt.h5")
	f := mustCreate(t, path)
	for _, c := range roundTrips {
		if _, err := f.Root().WriteDataset(c.name, c.data, c.shape); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	mustClose(t, f)

	f = mustOpen(t, path)
	defer mustClose(t, f)
	for _, c := range roundTrips {
		data, shape, err := f.Root().ReadDataset(c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !sameValues(data, c.data) {
			t.Errorf("%s: read %v (%T), wrote %v (%T)", c.name, data, data, c.data, c.data)
		}
		if !slices.Equal(shape, wantShape(c.shape)) || shape == nil {
			t.Errorf("%s: shape %#v, want %v", c.name, shape, wantShape(c.shape))
		}
	}
}

func TestNestedGroupsAndMembers(t *testing.T) {
	path := tempPath(t, "groups.h5")
	f := mustCreate(t, path)
	root := f.Root()
	// Created out of order: Members lists names in byte order ("C" < "a" < "ä").
	for _, name := range []string{"b", "ä", "a", "C"} {
		if _, err := root.CreateGroup(name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := root.WriteDataset("d", []int64{1}, []int{1}); err != nil {
		t.Fatal(err)
	}
	a, err := root.OpenGroup("a")
	if err != nil {
		t.Fatal(err)
	}
	deep, err := a.CreateGroup("deep")
	if err != nil {
		t.Fatal(err)
	}
	deeper, err := deep.CreateGroup("deeper")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := deeper.Path(), "/a/deep/deeper"; got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
	ds, err := deeper.WriteDataset("x", []float32{1, 2}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ds.Path(), "/a/deep/deeper/x"; got != want {
		t.Errorf("dataset Path = %q, want %q", got, want)
	}
	mustClose(t, f)

	f = mustOpen(t, path)
	defer mustClose(t, f)
	ms, err := f.Root().Members()
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{{"C", KindGroup}, {"a", KindGroup}, {"b", KindGroup}, {"d", KindDataset}, {"ä", KindGroup}}
	if !slices.Equal(ms, want) {
		t.Errorf("Members = %v, want %v", ms, want)
	}
	g := f.Root()
	for _, name := range []string{"a", "deep", "deeper"} {
		if g, err = g.OpenGroup(name); err != nil {
			t.Fatal(err)
		}
	}
	data, _, err := g.ReadDataset("x")
	if err != nil || !sameValues(data, []float32{1, 2}) {
		t.Errorf("ReadDataset = %v, %v", data, err)
	}
	empty, err := f.Root().OpenGroup("b")
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := empty.Members(); err != nil || ms == nil || len(ms) != 0 {
		t.Errorf("empty group Members = %#v, %v; want empty non-nil", ms, err)
	}
}

// attrCases are attribute values of every supported type; the expected value
// read back is the value written.
var attrCases = []struct {
	name string
	v    any
}{
	{"int", int64(math.MinInt64)},
	{"float", -0.125},
	{"nan", math.NaN()},
	{"string", "ReplayBuffer ✓"},
	{"empty_string", ""},
	{"bool_true", true},
	{"bool_false", false},
	{"ints", []int64{1, 2, math.MaxInt64}},
	{"floats", []float64{1.5, math.Inf(-1)}},
	{"strings", []string{"obs", "act", ""}},
	{"bools", []bool{true, false}},
	{"no_ints", []int64{}},
	{"no_strings", []string{}},
}

func sameAttr(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case []int64, []float64, []string, []bool:
		return reflect.TypeOf(a) == reflect.TypeOf(b) && sameValues(a, b)
	}
	return a == b
}

func TestAttributes(t *testing.T) {
	path := tempPath(t, "attrs.h5")
	f := mustCreate(t, path)
	g, err := f.Root().CreateGroup("meta")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := g.WriteDataset("obs", []float64{1}, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	type attrSetter interface {
		SetAttr(string, any) error
	}
	for _, obj := range []attrSetter{f.Root(), g, ds} {
		for _, c := range attrCases {
			if err := obj.SetAttr(c.name, c.v); err != nil {
				t.Fatalf("SetAttr(%s): %v", c.name, err)
			}
		}
	}
	// Replacing changes the value and the type.
	if err := ds.SetAttr("int", "now a string"); err != nil {
		t.Fatal(err)
	}
	mustClose(t, f)

	f = mustOpen(t, path)
	defer mustClose(t, f)
	g, err = f.Root().OpenGroup("meta")
	if err != nil {
		t.Fatal(err)
	}
	ds, err = g.OpenDataset("obs")
	if err != nil {
		t.Fatal(err)
	}
	type attrGetter interface {
		Attr(string) (any, error)
		AttrNames() ([]string, error)
	}
	var wantNames []string
	for _, c := range attrCases {
		wantNames = append(wantNames, c.name)
	}
	slices.Sort(wantNames)
	for _, obj := range []attrGetter{f.Root(), g, ds} {
		names, err := obj.AttrNames()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names, wantNames) {
			t.Errorf("AttrNames = %q, want %q", names, wantNames)
		}
		for _, c := range attrCases {
			want := c.v
			if obj == attrGetter(ds) && c.name == "int" {
				want = "now a string"
			}
			got, err := obj.Attr(c.name)
			if err != nil {
				t.Errorf("Attr(%s): %v", c.name, err)
				continue
			}
			if !sameAttr(want, got) {
				t.Errorf("Attr(%s) = %#v, want %#v", c.name, got, want)
			}
		}
	}
	if _, err := ds.Attr("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing attribute: err = %v, want fs.ErrNotExist", err)
	}
	if names, err := f.Root().AttrNames(); err != nil || len(names) == 0 {
		t.Errorf("root AttrNames = %v, %v", names, err)
	}
}

func TestEmptyAttrNames(t *testing.T) {
	f := mustCreate(t, tempPath(t, "noattr.h5"))
	defer mustClose(t, f)
	names, err := f.Root().AttrNames()
	if err != nil || names == nil || len(names) != 0 {
		t.Errorf("AttrNames = %#v, %v; want empty non-nil", names, err)
	}
}

func TestWriteErrors(t *testing.T) {
	f := mustCreate(t, tempPath(t, "errs.h5"))
	defer mustClose(t, f)
	root := f.Root()
	if _, err := root.WriteDataset("x", []int64{1, 2}, []int{2}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		data  any
		shape []int
		want  string // substring of the error; origin: the messages of checkName and checkData
		is    error
	}{
		{"x", []int64{1}, []int{1}, "already exists", nil},
		{"ints", []int{1}, []int{1}, "Go type []int", ErrDatatype},
		{"objs", []any{1}, []int{1}, "Go type []interface {}", ErrDatatype},
		{"mismatch", []float32{1, 2, 3}, []int{2, 2}, "holds 4 elements but the data has 3", nil},
		{"scalar2", []float32{1, 2}, nil, "holds 1 elements but the data has 2", nil},
		{"neg", []float32{}, []int{-1}, "negative dimension", nil},
		{"overflow", []float32{}, []int{math.MaxInt, 3}, "more elements than an int can count", nil},
		{"rank", []float32{1}, slices.Repeat([]int{1}, 33), "more than 32 dimensions", nil},
		{"nul", []string{"a\x00b"}, []int{1}, "NUL byte", nil},
		{"utf8", []string{"\xff"}, []int{1}, "not valid UTF-8", nil},
		{"", []int64{1}, []int{1}, "invalid member name", nil},
		{".", []int64{1}, []int{1}, "invalid member name", nil},
		{"a/b", []int64{1}, []int{1}, "contains '/'", nil},
		{"\xfe", []int64{1}, []int{1}, "not valid UTF-8", nil},
	}
	for _, c := range cases {
		_, err := root.WriteDataset(c.name, c.data, c.shape)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("WriteDataset(%q, %T, %v): err = %v, want %q", c.name, c.data, c.shape, err, c.want)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("WriteDataset(%q): err = %v, want errors.Is %v", c.name, err, c.is)
		}
		var e *Error
		if !errors.As(err, &e) || e.Op != "write dataset" || e.File != f.Path() {
			t.Errorf("WriteDataset(%q): err = %#v, want *Error for write dataset", c.name, err)
		}
	}
	// Failed writes leave nothing behind.
	ms, err := root.Members()
	if err != nil || !slices.Equal(ms, []Member{{"x", KindDataset}}) {
		t.Errorf("Members after failed writes = %v, %v", ms, err)
	}
	if _, err := root.CreateGroup("x"); err == nil {
		t.Error("CreateGroup over a dataset succeeded")
	}
	for _, v := range []any{1, int32(1), float32(1), []int{1}, nil, [][]int64{{1}}} {
		if err := root.SetAttr("a", v); !errors.Is(err, ErrDatatype) {
			t.Errorf("SetAttr(%T): err = %v, want ErrDatatype", v, err)
		}
	}
	for _, name := range []string{"", "a\x00"} {
		if err := root.SetAttr(name, int64(1)); err == nil {
			t.Errorf("SetAttr(%q) succeeded", name)
		}
	}
	if err := root.SetAttr("s", "a\x00b"); err == nil {
		t.Error("SetAttr with a NUL byte succeeded")
	}
}

func TestReadErrors(t *testing.T) {
	path := tempPath(t, "read.h5")
	f := mustCreate(t, path)
	if _, err := f.Root().CreateGroup("g"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Root().WriteDataset("d", []int8{1}, []int{1}); err != nil {
		t.Fatal(err)
	}
	mustClose(t, f)
	f = mustOpen(t, path)
	defer mustClose(t, f)
	root := f.Root()

	if _, _, err := root.ReadDataset("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDataset(missing): %v, want fs.ErrNotExist", err)
	}
	if _, err := root.OpenGroup("nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenGroup(missing): %v, want fs.ErrNotExist", err)
	}
	if _, _, err := root.ReadDataset("g"); err == nil || !strings.Contains(err.Error(), "is a group, not a dataset") {
		t.Errorf("ReadDataset(group): %v", err)
	}
	if _, err := root.OpenGroup("d"); err == nil || !strings.Contains(err.Error(), "is a dataset, not a group") {
		t.Errorf("OpenGroup(dataset): %v", err)
	}
	if _, err := root.OpenDataset("g"); err == nil {
		t.Error("OpenDataset(group) succeeded")
	}
	// The file is read-only.
	if _, err := root.WriteDataset("new", []int8{1}, []int{1}); err == nil {
		t.Error("WriteDataset on a read-only file succeeded")
	}
	if err := root.SetAttr("a", int64(1)); err == nil {
		t.Error("SetAttr on a read-only file succeeded")
	}
	if _, err := root.CreateGroup("new"); err == nil {
		t.Error("CreateGroup on a read-only file succeeded")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing.h5")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want fs.ErrNotExist", err)
	}
	text := filepath.Join(dir, "text.h5")
	if err := os.WriteFile(text, []byte("not hdf5 at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(text); err == nil || !strings.Contains(err.Error(), "not an HDF5 file") {
		t.Errorf("Open(text) = %v, want not an HDF5 file", err)
	}
	if _, err := Create(filepath.Join(dir, "no", "such", "dir.h5")); err == nil {
		t.Error("Create in a missing directory succeeded")
	} else if !strings.Contains(err.Error(), "unable to") {
		t.Errorf("Create in a missing directory: %v; want HDF5's message", err)
	}
	if _, err := Create(""); err == nil {
		t.Error(`Create("") succeeded`)
	}
}

func TestClosed(t *testing.T) {
	f := mustCreate(t, tempPath(t, "closed.h5"))
	g, err := f.Root().CreateGroup("g")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := g.WriteDataset("d", []bool{true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, f)
	mustClose(t, f) // idempotent
	checks := map[string]error{
		"CreateGroup":  func() error { _, err := g.CreateGroup("x"); return err }(),
		"OpenGroup":    func() error { _, err := f.Root().OpenGroup("g"); return err }(),
		"Members":      func() error { _, err := g.Members(); return err }(),
		"WriteDataset": func() error { _, err := g.WriteDataset("y", []bool{true}, nil); return err }(),
		"ReadDataset":  func() error { _, _, err := g.ReadDataset("d"); return err }(),
		"SetAttr":      ds.SetAttr("a", int64(1)),
		"Attr":         func() error { _, err := ds.Attr("a"); return err }(),
		"AttrNames":    func() error { _, err := ds.AttrNames(); return err }(),
		"zero Group":   func() error { _, err := new(Group).Members(); return err }(),
	}
	for name, err := range checks {
		if !errors.Is(err, fs.ErrClosed) {
			t.Errorf("%s after Close: %v, want fs.ErrClosed", name, err)
		}
	}
	if err := new(File).Close(); err != nil {
		t.Errorf("zero File Close = %v", err)
	}
}

// TestErrorMessage locks the form of errors: operation, object, file, cause.
func TestErrorMessage(t *testing.T) {
	path := tempPath(t, "msg.h5")
	f := mustCreate(t, path)
	defer mustClose(t, f)
	_, _, err := f.Root().ReadDataset("obs")
	// Expected text composed by hand from Error.Error and notFound.Error.
	want := "hdf5: read dataset /obs in " + path + ": no such object"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// TestConcurrent uses one file from many goroutines, and many files at once;
// run it with -race.
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	shared := mustCreate(t, filepath.Join(dir, "shared.h5"))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			g, err := shared.Root().CreateGroup(fmt.Sprint("w", w))
			if err != nil {
				errs <- err
				return
			}
			own, err := Create(filepath.Join(dir, fmt.Sprint("own", w, ".h5")))
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 20; i++ {
				data := []int64{int64(w), int64(i)}
				for _, target := range []*Group{g, own.Root()} {
					name := fmt.Sprint("d", i)
					if _, err := target.WriteDataset(name, data, []int{2}); err != nil {
						errs <- err
						return
					}
					got, _, err := target.ReadDataset(name)
					if err != nil || !sameValues(got, data) {
						errs <- fmt.Errorf("worker %d read %v, %v", w, got, err)
						return
					}
				}
			}
			if err := own.Close(); err != nil {
				errs <- err
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ms, err := shared.Root().Members()
	if err != nil || len(ms) != 8 {
		t.Errorf("Members = %v, %v", ms, err)
	}
	mustClose(t, shared)
}

// walk reads everything in g, recursively: members, datasets, attributes of
// groups and datasets. It returns the first error.
func walk(g *Group) error {
	if err := readAttrs(&g.object); err != nil {
		return err
	}
	ms, err := g.Members()
	if err != nil {
		return err
	}
	for _, m := range ms {
		switch m.Kind {
		case KindGroup:
			c, err := g.OpenGroup(m.Name)
			if err != nil {
				return err
			}
			if err := walk(c); err != nil {
				return err
			}
		case KindDataset:
			if _, _, err := g.ReadDataset(m.Name); err != nil {
				return err
			}
			d, err := g.OpenDataset(m.Name)
			if err != nil {
				return err
			}
			if err := readAttrs(&d.object); err != nil {
				return err
			}
		}
	}
	return nil
}

func readAttrs(o *object) error {
	names, err := o.AttrNames()
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, err := o.Attr(n); err != nil {
			return err
		}
	}
	return nil
}

// numericFile writes a file with nested groups, datasets of several types
// and attributes, and returns its bytes. It holds no strings: HDF5 1.10 can
// crash or hang on a damaged global heap, where variable-length strings live
// (see "Damaged files" in the package documentation).
func numericFile(t testing.TB) []byte {
	path := tempPath(t, "sample.h5")
	f := mustCreate(t, path)
	root := f.Root()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(root.SetAttr("maxsize", int64(20)))
	must(root.SetAttr("ratio", []float64{0.5, 2}))
	obs, err := root.CreateGroup("obs")
	must(err)
	_, err = obs.WriteDataset("pos", ramp[float32](64), []int{16, 4})
	must(err)
	d, err := root.WriteDataset("act", ramp[int64](20), []int{20})
	must(err)
	must(d.SetAttr("flags", []bool{true, false}))
	_, err = root.WriteDataset("done", []bool{false, true, false}, []int{3})
	must(err)
	_, err = root.WriteDataset("u", []uint16{1, 2}, []int{2})
	must(err)
	mustClose(t, f)
	b, err := os.ReadFile(path)
	must(err)
	return b
}

// tryFile writes b to dir/name, opens it and reads everything in it. It
// returns the first error; Close must succeed whatever happened before.
func tryFile(t testing.TB, dir, name string, b []byte) error {
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		return err
	}
	werr := walk(f.Root())
	if err := f.Close(); err != nil {
		t.Errorf("%s: Close: %v", name, err)
	}
	return werr
}

// TestCorruptFiles feeds truncated and damaged copies of a valid file to
// Open and walk: each must end in an error or a successful read, never in a
// crash, and Open must refuse every truncated copy.
func TestCorruptFiles(t *testing.T) {
	valid := numericFile(t)
	dir := t.TempDir()
	if err := tryFile(t, dir, "valid.h5", valid); err != nil {
		t.Fatalf("valid file: %v", err)
	}
	for _, n := range []int{0, 1, 8, 96, len(valid) / 4, len(valid) / 2, len(valid) - 100, len(valid) - 1} {
		path := filepath.Join(dir, fmt.Sprint("trunc", n, ".h5"))
		if err := os.WriteFile(path, valid[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if f, err := Open(path); err == nil {
			f.Close()
			t.Errorf("truncated to %d of %d bytes: Open succeeded", n, len(valid))
		} else {
			t.Logf("truncated to %d: %v", n, err)
		}
	}
	// Damage every byte in turn (every 7th under -short). Checksummed
	// metadata catches damage to the structure; damage to raw data reads back
	// as other values, except in bools, which must hold FALSE or TRUE.
	step := 1
	if testing.Short() {
		step = 7
	}
	refused, tried := 0, 0
	for off := 0; off < len(valid); off += step {
		b := slices.Clone(valid)
		b[off] ^= 0x5a
		if tryFile(t, dir, "flip.h5", b) != nil {
			refused++
		}
		tried++
	}
	t.Logf("%d of %d damaged copies were refused", refused, tried)
}
