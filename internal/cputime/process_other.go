//go:build !unix

package cputime

import "time"

// Process returns 0 and false: the process's CPU time is not measured on
// this platform.
func Process() (time.Duration, bool) { return 0, false }
