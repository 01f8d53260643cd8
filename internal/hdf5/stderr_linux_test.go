//go:build hdf5 && cgo && linux

package hdf5

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSilentErrors checks that failing HDF5 calls print nothing on the
// process's standard error (file descriptor 2, where HDF5's automatic error
// handler writes) and that their messages reach the returned errors instead.
func TestSilentErrors(t *testing.T) {
	dir := t.TempDir()
	capture, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer capture.Close()
	saved, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup3(int(capture.Fd()), 2, 0); err != nil {
		t.Fatal(err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			syscall.Dup3(saved, 2, 0)
			syscall.Close(saved)
		}
	}
	defer restore()

	// Each of these fails inside HDF5 and fills its error stack.
	var errs []error
	_, err = Create(filepath.Join(dir, "missing", "x.h5"))
	errs = append(errs, err)
	f, err := Create(filepath.Join(dir, "f.h5"))
	if err != nil {
		restore()
		t.Fatal(err)
	}
	_, err = f.Root().CreateGroup("g")
	errs = append(errs, err)
	_, err = f.Root().CreateGroup("g") // exists
	errs = append(errs, err)
	_, err = f.Root().WriteDataset("g", []int8{1}, []int{1}) // name taken by a group
	errs = append(errs, err)
	errs = append(errs, f.Close())
	restore()

	out, err := os.ReadFile(capture.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 0 {
		t.Errorf("HDF5 printed on stderr:\n%s", out)
	}
	want := []bool{true, false, true, true, false} // which calls must fail
	for i, err := range errs {
		if (err != nil) != want[i] {
			t.Errorf("call %d: err = %v, want failure %v", i, err, want[i])
		}
		if err != nil {
			t.Log(err)
		}
	}
}
