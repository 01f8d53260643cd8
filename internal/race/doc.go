// Package race reports whether the program was built with the race
// detector (go test -race), for tests whose allocation counts the
// detector changes.
//
// # Overview
//
// [Enabled] is a constant, true in a build with the race detector and false
// otherwise. Tests that lock a hot path at zero allocations with
// testing.AllocsPerRun skip that check when it is true: the detector's
// instrumentation allocates, and sync.Pool drops items on purpose under it.
//
// # Decisions
//
// A constant set by build tags (race.go and norace.go), as the standard
// library's internal/race does, rather than a run-time probe: the build
// knows, and a constant lets the compiler drop the skipped branch.
package race
