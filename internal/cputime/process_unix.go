//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user plus system) that the process has used
// since it started, summed over its threads, and true; or 0 and false if
// getrusage fails.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
