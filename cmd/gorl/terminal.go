package main

import (
	"io"
	"os"
)

// isTerminal reports whether w is a file that is a character device (a
// terminal), where a progress line may redraw itself with '\r'.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
