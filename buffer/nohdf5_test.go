//go:build !(hdf5 && cgo)

package buffer_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/gorl/gorl/buffer"
)

// Without the hdf5 build tag, HDF5 export and import (the buffer's own
// layout and D4RL's) report ErrNoHDF5.
func TestHDF5Unsupported(t *testing.T) {
	buf, _ := seedBuffers(t)
	path := filepath.Join(t.TempDir(), "buf.h5")
	if err := buf.SaveHDF5(path); !errors.Is(err, buffer.ErrNoHDF5) {
		t.Errorf("SaveHDF5: %v, want ErrNoHDF5", err)
	}
	if _, err := buffer.LoadHDF5(path); !errors.Is(err, buffer.ErrNoHDF5) {
		t.Errorf("LoadHDF5: %v, want ErrNoHDF5", err)
	}
	if err := buffer.SaveD4RL(path, buf); !errors.Is(err, buffer.ErrNoHDF5) {
		t.Errorf("SaveD4RL: %v, want ErrNoHDF5", err)
	}
	if _, err := buffer.LoadD4RL(path); !errors.Is(err, buffer.ErrNoHDF5) {
		t.Errorf("LoadD4RL: %v, want ErrNoHDF5", err)
	}
}
