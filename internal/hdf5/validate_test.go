package hdf5

import (
	"errors"
	"io/fs"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// These tests cover the pure-Go checks and conversions, in every build.

func TestCheckName(t *testing.T) {
	cases := []struct {
		name   string
		create bool
		ok     bool
	}{
		{"obs", true, true},
		{"obs_next", false, true},
		{"日本", true, true},
		{"..", true, true}, // HDF5 gives ".." no meaning
		{"", false, false},
		{".", false, false},
		{"a/b", false, false},
		{"/", false, false},
		{"a\x00", false, false},
		{"\xff", true, false},
		{"\xff", false, true}, // names read from a file need not be UTF-8
	}
	for _, c := range cases {
		if err := checkName(c.name, c.create); (err == nil) != c.ok {
			t.Errorf("checkName(%q, %v) = %v, want ok=%v", c.name, c.create, err, c.ok)
		}
	}
	attrCases := []struct {
		name   string
		create bool
		ok     bool
	}{
		{"__data_type__", true, true},
		{"a/b", true, true}, // attribute names may hold '/'
		{"", true, false},
		{"a\x00b", false, false},
		{"\xfe", true, false},
		{"\xfe", false, true},
	}
	for _, c := range attrCases {
		if err := checkAttrName(c.name, c.create); (err == nil) != c.ok {
			t.Errorf("checkAttrName(%q, %v) = %v, want ok=%v", c.name, c.create, err, c.ok)
		}
	}
}

func TestCheckData(t *testing.T) {
	cases := []struct {
		data  any
		shape []int
		want  string // "" for no error, else a substring of the message
	}{
		{[]float32{1, 2, 3, 4, 5, 6}, []int{2, 3}, ""},
		{[]float32{1}, nil, ""},
		{[]float32{1}, []int{}, ""},
		{[]int64{}, []int{0}, ""},
		{[]int64{}, []int{5, 0}, ""},
		{[]string{"a", "β"}, []int{2}, ""},
		{[]bool{true}, []int{1, 1, 1}, ""},
		{[]float32{1, 2}, nil, "holds 1 elements but the data has 2"},
		{[]float32{}, nil, "holds 1 elements but the data has 0"},
		{[]float32{1}, []int{-1}, "negative dimension"},
		{[]float32{}, []int{math.MaxInt / 2, 3}, "more elements than an int can count"},
		{[]float32{}, []int{0, math.MaxInt, math.MaxInt}, ""}, // zero elements; no overflow
		{[]float32{1}, slices.Repeat([]int{1}, 32), ""},
		{[]float32{1}, slices.Repeat([]int{1}, 33), "more than 32 dimensions"},
		{[]int{1}, []int{1}, "unsupported datatype: Go type []int"},
		{[]complex64{1}, []int{1}, "unsupported datatype: Go type []complex64"},
		{nil, nil, "unsupported datatype: Go type <nil>"},
		{[]string{"a\x00"}, []int{1}, "NUL byte"},
		{[]string{"ok", "\xc3"}, []int{2}, "string 1"},
	}
	for _, c := range cases {
		err := checkData(c.data, c.shape)
		if c.want == "" {
			if err != nil {
				t.Errorf("checkData(%T, %v) = %v", c.data, c.shape, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("checkData(%T, %v) = %v, want %q", c.data, c.shape, err, c.want)
		}
		if strings.HasPrefix(c.want, "unsupported datatype") && !errors.Is(err, ErrDatatype) {
			t.Errorf("checkData(%T): %v does not wrap ErrDatatype", c.data, err)
		}
	}
}

func TestAttrConversions(t *testing.T) {
	// attrData: scalars become one-element slices with a 0-d shape.
	in := []struct {
		v     any
		data  any
		shape []int
	}{
		{int64(3), []int64{3}, []int{}},
		{2.5, []float64{2.5}, []int{}},
		{"s", []string{"s"}, []int{}},
		{true, []bool{true}, []int{}},
		{[]int64{1, 2}, []int64{1, 2}, []int{2}},
		{[]float64{}, []float64{}, []int{0}},
		{[]string{"a"}, []string{"a"}, []int{1}},
		{[]bool{false}, []bool{false}, []int{1}},
	}
	for _, c := range in {
		data, shape, err := attrData(c.v)
		if err != nil || !reflect.DeepEqual(data, c.data) || !slices.Equal(shape, c.shape) {
			t.Errorf("attrData(%#v) = %#v, %v, %v", c.v, data, shape, err)
		}
	}
	for _, v := range []any{1, int32(1), float32(1), []int{1}, [][]int64{}, nil, struct{}{}} {
		if _, _, err := attrData(v); !errors.Is(err, ErrDatatype) {
			t.Errorf("attrData(%T) = %v, want ErrDatatype", v, err)
		}
	}

	// attrValue: widening to int64 and float64; 0-d to scalars. Expected
	// values are the inputs converted by hand.
	out := []struct {
		data  any
		shape []int
		want  any
	}{
		{[]int8{-8}, []int{}, int64(-8)},
		{[]int16{-16, 16}, []int{2}, []int64{-16, 16}},
		{[]int32{math.MinInt32}, []int{}, int64(math.MinInt32)},
		{[]uint8{255}, []int{1}, []int64{255}},
		{[]uint16{65535}, []int{}, int64(65535)},
		{[]uint32{math.MaxUint32}, []int{}, int64(math.MaxUint32)},
		{[]uint64{math.MaxInt64}, []int{}, int64(math.MaxInt64)},
		{[]float32{0.25}, []int{}, 0.25},
		{[]float32{1, 2}, []int{2}, []float64{1, 2}},
		{[]float64{-1}, []int{}, -1.0},
		{[]string{"x"}, []int{}, "x"},
		{[]string{}, []int{0}, []string{}},
		{[]bool{true}, []int{}, true},
		{[]int64{7}, []int{1}, []int64{7}},
	}
	for _, c := range out {
		got, err := attrValue(c.data, c.shape)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("attrValue(%#v, %v) = %#v, %v; want %#v", c.data, c.shape, got, err, c.want)
		}
	}
	if _, err := attrValue([]uint64{math.MaxInt64 + 1}, []int{}); err == nil {
		t.Error("attrValue accepted a uint64 above MaxInt64")
	}
	if _, err := attrValue([]int64{1, 2, 3, 4}, []int{2, 2}); err == nil {
		t.Error("attrValue accepted a 2-d attribute")
	}
}

func TestErrorsAndKinds(t *testing.T) {
	e := &Error{Op: "read dataset", File: "buf.h5", Object: "/obs", Err: errNotFound}
	// Expected text composed by hand from the format in Error.Error.
	if got, want := e.Error(), "hdf5: read dataset /obs in buf.h5: no such object"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, fs.ErrNotExist) {
		t.Error("a missing object does not match fs.ErrNotExist")
	}
	fe := &Error{Op: "open", File: "buf.h5", Err: fs.ErrPermission}
	if got, want := fe.Error(), "hdf5: open buf.h5: permission denied"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	names := map[Kind]string{KindGroup: "group", KindDataset: "dataset", KindDatatype: "named datatype",
		KindLink: "soft or external link", 0: "Kind(0)", 9: "Kind(9)"}
	for k, want := range names {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), k.String(), want)
		}
	}
	for _, data := range []any{[]bool{}, []int8{}, []int16{}, []int32{}, []int64{}, []uint8{}, []uint16{},
		[]uint32{}, []uint64{}, []float32{}, []float64{}, []string{}} {
		if _, _, ok := elemOf(data); !ok {
			t.Errorf("elemOf(%T) not supported", data)
		}
	}
}
