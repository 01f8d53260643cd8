//go:build unix

package sumtree

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used. On a
// shared machine it measures the benchmark's own work, which wall-clock
// ns/op does not when other processes take the CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
