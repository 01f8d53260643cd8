package cputime_test

import (
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

var sink uint64

// TestZeroMeter checks that the zero Meter reports nothing (it has no
// benchmark to report to) instead of panicking.
func TestZeroMeter(t *testing.T) {
	var m cputime.Meter
	m.Report()
}
