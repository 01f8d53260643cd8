// Package doccheck keeps the module's comments lasting: its test walks every
// non-test Go file of the module (outside docs/, testdata/ and hidden
// directories) and fails on each comment line that holds a measured timing
// or cites a seed file.
//
// # Overview
//
// The package has no code; run its test with
//
//	go test ./internal/doccheck/
//
// It runs with the rest of the module's tests and as its own step in
// .ci/run, and reports every offending file:line.
//
// A timing is a number followed by a time unit: nanoseconds, microseconds
// (µs, μs or us), milliseconds or seconds, abbreviated or spelled out, with
// or without a space, alone or as a rate per operation (ns/op). A seed file
// citation is "seed" followed by a three-digit file number, or a seed file
// name (three digits, an underscore and a hexadecimal hash). Text between
// double quotes on one line is not read: it shows a program's output, such
// as the String form of a duration.
//
// # Decisions
//
// Figures go stale as the code and the machines change, and a comment is not
// re-measured when they do. Measurements live in BENCHMARKS.md and
// docs/design.md next to the command that repeats them; a comment keeps the
// reason for a decision in words. The seeds are not part of the repository,
// so a comment names the behaviour and where it comes from (Tianshou,
// Machin) instead.
//
// The check parses each file with go/parser rather than matching lines with
// grep, so that string literals in code are not read as comments and a
// figure split across two comment lines is still found. It is a test rather
// than a script so that go test ./... enforces it on every machine.
package doccheck
