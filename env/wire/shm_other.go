//go:build !(linux && amd64)

package wire

import "os"

// sharedSupported reports whether workers may use a shared region: only
// on Linux on x86-64 (see the Decisions of the package doc).
const sharedSupported = false

func newRegion() (*os.File, []byte, error) { return nil, nil, errNoShared }
func mapRegion(int) ([]byte, error)        { return nil, errNoShared }
func unmapRegion([]byte)                   {}
func setNonblock(int)                      {}
