package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	// A regular file, a pipe and a buffer are not terminals; a character
	// device such as /dev/null is taken for one.
	for name, tc := range map[string]struct {
		w    any
		want bool
	}{"file": {f, false}, "pipe": {w, false}, "buffer": {&bytes.Buffer{}, false}} {
		if got := isTerminal(tc.w.(interface{ Write([]byte) (int, error) })); got != tc.want {
			t.Errorf("%s: isTerminal = %v, want %v", name, got, tc.want)
		}
	}
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer null.Close()
		if !isTerminal(null) {
			t.Errorf("%s is a character device, isTerminal = false", os.DevNull)
		}
	}
}
