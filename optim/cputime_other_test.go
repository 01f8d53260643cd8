//go:build !unix

package optim_test

import "time"

// cpuTime is not available here: cpu-ns/op reads 0.
func cpuTime() time.Duration { return 0 }
