//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
)

// lockRun takes the lock of the run directory dir where flock is missing:
// it creates dir/gorl.lock exclusively, holding the process id. A lock left
// by a run that crashed is taken over when the system tells that its
// process is gone (os.FindProcess fails for it, as on Windows); elsewhere
// the message asks to remove the file by hand. release removes it.
func lockRun(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockFile)
	for try := 0; try < 3; try++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		old, oerr := os.Open(path)
		if oerr != nil {
			continue // removed meanwhile
		}
		pid := readPID(old)
		old.Close()
		if _, ferr := os.FindProcess(pid); ferr != nil && pid > 0 && try == 0 {
			os.Remove(path) // its process is gone
			continue
		}
		return nil, errors.Join(busyError(dir, pid),
			errors.New("if no gorl runs there, the lock is left from a crash: remove "+path))
	}
	return nil, busyError(dir, 0)
}
