//go:build unix

package nd_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used.
// The benchmarks report it per operation beside the wall time, because the
// machines they run on are shared: waiting for a core inflates ns/op but
// not cpu-ns/op (run them with -cpu 1, so that the garbage collector's work
// counts too but nothing runs in parallel).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
