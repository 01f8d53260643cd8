//go:build !unix

package collector_test

import "time"

// cpuTime is not measured on this platform; the cpu-ns/step metric reads 0.
func cpuTime() time.Duration { return 0 }
