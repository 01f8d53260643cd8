//go:build !unix

package pgtest

import "time"

// cpuTime reads 0 where the process's CPU time is not available.
func cpuTime() time.Duration { return 0 }
