package buffer_test

import (
	"testing"
	"time"
)

// reportCPU reports the CPU time per iteration since start as cpu-ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
