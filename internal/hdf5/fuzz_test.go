//go:build hdf5 && cgo

package hdf5

import "testing"

// FuzzOpen opens arbitrary bytes as an HDF5 file and reads everything in it.
// It must never panic, and Close must succeed (every identifier opened on an
// error path was closed). Seeds: a valid file without strings, truncated
// copies and a text file. HDF5 1.10 itself can crash on damaged global heaps
// (variable-length strings) and on damaged pre-1.8-format metadata, which
// has no checksums; a crash inside the C library is such a case, not a bug
// of this package (see the package documentation). Each input costs
// milliseconds, so cap minimization when fuzzing:
//
//	go test -tags hdf5 -run '^$' -fuzz FuzzOpen -fuzzminimizetime 10x ./internal/hdf5/
func FuzzOpen(f *testing.F) {
	valid := numericFile(f)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add(valid[:96])
	f.Add([]byte("not an HDF5 file\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tryFile(t, t.TempDir(), "fuzz.h5", b)
	})
}
