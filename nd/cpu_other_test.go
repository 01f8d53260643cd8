//go:build !unix

package nd_test

import "time"

// processCPU is not measured on this system; cpu-ns/op is not reported.
func processCPU() time.Duration { return 0 }
