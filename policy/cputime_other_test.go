//go:build !unix

package policy_test

import "time"

// cpuTime is not measured on this platform; the cpu-ns/op metric reads 0.
func cpuTime() time.Duration { return 0 }
