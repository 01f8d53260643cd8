//go:build !(linux && (amd64 || arm64))

package mujoco

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrNoLibrary is wrapped by the error of every constructor when libmujoco
// cannot be loaded: on this platform the package does not load it.
var ErrNoLibrary = errors.New("mujoco: libmujoco 2.2.2 not available")

type library struct {
	loadXML, makeData, deleteData, deleteModel uintptr
	step, forward, resetData, rnePost, name2id uintptr
}

func loadLibrary() (*library, error) {
	return nil, fmt.Errorf("%w: the loader supports Linux on amd64 and arm64 (Debian's libmujoco-dev)", ErrNoLibrary)
}

func (l *library) compile([]byte) (uintptr, error)          { panic("unreachable") }
func (l *library) call(fn uintptr, args ...uintptr) uintptr { panic("unreachable") }
func (l *library) callMD(fn uintptr, md []uintptr)          { panic("unreachable") }
func cPointer(addr uintptr) unsafe.Pointer                  { return *(*unsafe.Pointer)(unsafe.Pointer(&addr)) }
func cString(s string) []byte                               { return append([]byte(s), 0) }
func warningText() string                                   { return "" }
