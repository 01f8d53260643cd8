//go:build unix

package optim_test

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time of the process, so that a
// benchmark on a busy machine can report its own work (cpu-ns/op) next to
// the wall-clock ns/op that other processes inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
