package algo

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestNestedStateError loads a state whose part holds another state with a
// part of the wrong name: the error names both parts and says "bad saved
// state" once.
func TestNestedStateError(t *testing.T) {
	var inner, outer bytes.Buffer
	nop := func(io.Writer) error { return nil }
	if err := SaveParts(&inner, Part{Name: "net", Save: nop}); err != nil {
		t.Fatal(err)
	}
	if err := SaveParts(&outer, Part{Name: "algorithm", Save: func(w io.Writer) error { _, err := w.Write(inner.Bytes()); return err }}); err != nil {
		t.Fatal(err)
	}
	err := LoadParts(&outer, Part{Name: "algorithm", Load: func(r io.Reader) error {
		return LoadParts(r, Part{Name: "q", Load: func(io.Reader) error { return nil }})
	}})
	want := `algo: bad saved state: algorithm: load: q: found part "net" instead`
	if err == nil || err.Error() != want || !errors.Is(err, ErrState) {
		t.Errorf("error %v, want %q wrapping ErrState", err, want)
	}
	if strings.Count(err.Error(), "bad saved state") != 1 {
		t.Errorf("the prefix repeats: %v", err)
	}
}
