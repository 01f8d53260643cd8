package wire

import (
	"os"

	"golang.org/x/sys/unix"
)

// sharedSupported reports whether workers may use a shared region: the
// Python side writes it with plain stores, which only x86's total store
// order keeps in program order.
const sharedSupported = true

// newRegion creates an anonymous shared file of regionSize bytes and maps
// it; the file is passed to the worker, which maps it too.
func newRegion() (*os.File, []byte, error) {
	fd, err := unix.MemfdCreate("gorl-wire", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd), "gorl-wire")
	if err := f.Truncate(regionSize); err != nil {
		f.Close()
		return nil, nil, err
	}
	mem, err := mapRegion(fd)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, mem, nil
}

// mapRegion maps the shared region of fd.
func mapRegion(fd int) ([]byte, error) {
	return unix.Mmap(fd, 0, regionSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
}

func unmapRegion(mem []byte) { _ = unix.Munmap(mem) }

// setNonblock makes fd pollable, so that reads of the os.File made from
// it take deadlines.
func setNonblock(fd int) { _ = unix.SetNonblock(fd, true) }
