// Package cputime reads the CPU time the process has used, and reports it
// per operation from benchmarks.
//
// # Overview
//
// [Process] returns the user plus system CPU time of the whole process so
// far (getrusage with RUSAGE_SELF on Unix), and whether the platform
// measures it at all.
//
// Benchmarks report the CPU time per operation as the metric "cpu-ns/op"
// next to the wall-clock ns/op: [Start] before the timed loop and
// [Meter.Report] after it, or [Measure], which runs the loop around a body
// function itself (one untimed warm-up call, allocations reported).
//
// # Invariants
//
//   - Process is monotonic within a process: a later call never returns
//     less than an earlier one.
//   - The metric counts every goroutine of the process, the garbage
//     collector included: a benchmark that runs work on several cores
//     reports the sum over them.
//   - Where Process cannot measure (a non-Unix platform, or getrusage
//     failing), Report reports nothing rather than a misleading 0.
//
// # Decisions
//
// The machines the project is built and measured on are shared: waiting
// for a core inflates wall-clock time but not CPU time, so the benchmarks
// report both, and the documented figures in the packages' decisions are
// mostly CPU times. Run benchmarks with -cpu 1 when comparing cpu-ns/op,
// so that nothing but the benchmark and the garbage collector runs.
//
// The package imports testing, because its helpers take a *testing.B; the
// command-line tool, which reads Process for its benchmark tables, links
// about 60 KB of the testing package for that. One package for one
// measurement was judged worth more than the 60 KB.
package cputime
