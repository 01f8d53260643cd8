package ndtest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nd/ndtest"
)

func TestParseIndex(t *testing.T) {
	a, err := nd.Arange(nd.Int64, 0, 30, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a, err = a.Reshape(5, 6); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text  string
		equiv []nd.Index // what the text means, per numpy's a[text]
		print string     // the canonical form printed by Index.String
	}{
		{"0", []nd.Index{nd.I(0)}, "0"},
		{"-1", []nd.Index{nd.I(-1)}, "-1"},
		{"1:3", []nd.Index{nd.Range(1, 3)}, "1:3"},
		{"::-1", []nd.Index{nd.Step(-1)}, "::-1"},
		{":, 1", []nd.Index{nd.All(), nd.I(1)}, ":, 1"},
		{"[0, 2, 4]", []nd.Index{nd.Ints(0, 2, 4)}, "[0, 2, 4]"},
		{"..., 0", []nd.Index{nd.Ellipsis(), nd.I(0)}, "..., 0"},
		{"None", []nd.Index{nd.NewAxis()}, "None"},
		{" 1 : 4 : 2 ,-2: ", []nd.Index{nd.RangeStep(1, 4, 2), nd.From(-2)}, "1:4:2, -2:"},
		// nd has no constructor for a slice with a step and one bound: the
		// missing bound is printed as the extreme int, which selects the same.
		{"1::2", []nd.Index{nd.RangeStep(1, 99, 2)}, "1:9223372036854775807:2"},
		{":2:-1", []nd.Index{nd.RangeStep(5, 2, -1)}, "9223372036854775807:2:-1"},
		{"4::-2", []nd.Index{nd.RangeStep(4, -99, -2)}, "4:-9223372036854775808:-2"},
		{"[True, False, True, False, True]", []nd.Index{nd.Mask(true, false, true, false, true)}, "[True, False, True, False, True]"},
		{"[[0, 1], [4, 3]], 2", []nd.Index{nd.IntArray(nd.MustNew([][]int{{0, 1}, {4, 3}})), nd.I(2)}, "[[0, 1], [4, 3]], 2"},
		{"[], :", []nd.Index{nd.Ints(), nd.All()}, "[], :"},
		{":3,", []nd.Index{nd.To(3)}, ":3"},
	}
	for _, c := range cases {
		idx, err := ndtest.ParseIndex(c.text)
		if err != nil {
			t.Errorf("ParseIndex(%q): %v", c.text, err)
			continue
		}
		var parts []string
		for _, x := range idx {
			parts = append(parts, x.String())
		}
		if got := strings.Join(parts, ", "); got != c.print {
			t.Errorf("ParseIndex(%q) prints as %q, want %q", c.text, got, c.print)
		}
		if got, want := a.Index(idx...), a.Index(c.equiv...); !nd.Equal(got, want) {
			t.Errorf("a[%s] = %v, want %v", c.text, got, want)
		}
	}
	for _, bad := range []string{"", "1:2:3:4", "[1, 2", "x", "1 2", "::0", "[[1], 2]", "- 1", "99999999999999999999", "[1,,2]", "...,,"} {
		if _, err := ndtest.ParseIndex(bad); !errors.Is(err, nd.ErrValue) {
			t.Errorf("ParseIndex(%q): err %v, want ErrValue", bad, err)
		}
	}
}
