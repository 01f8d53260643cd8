//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// lockRun takes the lock of the run directory dir: an exclusive flock on
// dir/gorl.lock, which also holds the process id for the message another
// run gets. The operating system drops a flock when its process ends, so
// the lock of a crashed run is no lock: a later run takes it as if it were
// free. release removes the file and drops the lock.
func lockRun(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockFile)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			pid := readPID(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, busyError(dir, pid)
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The run that held the lock may have removed the file between our
		// open and our flock: then the lock is on a file nobody else sees,
		// and the one to take is the file there now.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			return func() {
				os.Remove(path)
				f.Close()
			}, nil
		}
		f.Close()
		if err1 != nil {
			return nil, err1
		}
		if err2 != nil && !errors.Is(err2, os.ErrNotExist) {
			return nil, err2
		}
	}
}
