package main

import "testing"

// TestChildWorkers checks each child's share of the cores: cores divided
// by runs, rounded down, never below one.
func TestChildWorkers(t *testing.T) {
	for _, c := range []struct{ cpus, jobs, want int }{
		{2, 2, 1},  // the 2-core machine kind with the default --jobs
		{16, 2, 8}, // two runs on 16 cores
		{16, 15, 1},
		{16, 5, 3},
		{2, 8, 1}, // more runs than cores
		{4, 0, 4}, // no count: one run
	} {
		if got := childWorkers(c.cpus, c.jobs); got != c.want {
			t.Errorf("childWorkers(%d, %d) = %d, want %d", c.cpus, c.jobs, got, c.want)
		}
	}
}
