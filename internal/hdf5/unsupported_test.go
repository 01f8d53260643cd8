//go:build !(hdf5 && cgo)

package hdf5

import "testing"

// TestUnsupported checks that without the hdf5 build tag (or without cgo)
// every entry point reports ErrUnsupported, and Close stays harmless.
func TestUnsupported(t *testing.T) {
	if _, err := Create("x.h5"); err != ErrUnsupported {
		t.Errorf("Create: %v, want ErrUnsupported", err)
	}
	for _, path := range []string{"missing.h5", "unsupported_test.go"} {
		if _, err := Open(path); err != ErrUnsupported {
			t.Errorf("Open(%s): %v, want ErrUnsupported", path, err)
		}
	}
	var f File
	if err := f.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	g := f.Root()
	var d Dataset
	calls := map[string]error{
		"CreateGroup":  func() error { _, err := g.CreateGroup("a"); return err }(),
		"OpenGroup":    func() error { _, err := g.OpenGroup("a"); return err }(),
		"OpenDataset":  func() error { _, err := g.OpenDataset("a"); return err }(),
		"Members":      func() error { _, err := g.Members(); return err }(),
		"WriteDataset": func() error { _, err := g.WriteDataset("a", []int64{1}, nil); return err }(),
		"ReadDataset":  func() error { _, _, err := g.ReadDataset("a"); return err }(),
		"SetAttr":      d.SetAttr("a", int64(1)),
		"Attr":         func() error { _, err := d.Attr("a"); return err }(),
		"AttrNames":    func() error { _, err := g.AttrNames(); return err }(),
	}
	for name, err := range calls {
		if err != ErrUnsupported {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
	if got, want := ErrUnsupported.Error(), "hdf5: built without the hdf5 build tag (or without cgo)"; got != want {
		t.Errorf("ErrUnsupported = %q, want %q", got, want)
	}
}
