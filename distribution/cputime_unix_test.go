//go:build unix

package distribution_test

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time of this process: on a
// shared machine it counts the benchmark's own work, where wall-clock time
// also counts the waits for a CPU.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
