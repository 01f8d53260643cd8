package ndtest_test

import (
	"strings"
	"testing"

	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nd/ndtest"
)

func joinIndex(idx []nd.Index) string {
	s := make([]string, len(idx))
	for i, x := range idx {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}

// FuzzParseIndex checks that ParseIndex never panics and that printing a
// parsed index gives text that parses to the same index.
func FuzzParseIndex(f *testing.F) {
	for _, s := range []string{"0", "-1", "1:3", "::-1", ":, 1", "[0, 2, 4]", "..., 0", "None",
		"[True, False]", "[[0, 1], [1, 0]]", "1:2:3", "::", " 3 , : ", "[]", "0,", "[[True], [False]]", "9999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		idx, err := ndtest.ParseIndex(s)
		if err != nil {
			return
		}
		text := joinIndex(idx)
		again, err := ndtest.ParseIndex(text)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, text, err)
		}
		if got := joinIndex(again); got != text {
			t.Fatalf("%q printed as %q, reparsed and printed as %q", s, text, got)
		}
	})
}
