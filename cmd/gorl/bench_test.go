package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestBenchNotLearned checks that a learning run below its target makes gorl
// bench fail after running every named run, and that other errors stop it
// at once.
func TestBenchNotLearned(t *testing.T) {
	var ran []string
	run := func(name string, err error) BenchRun {
		return BenchRun{Doc: "test run", Run: func(_ context.Context, _ BenchOptions, w io.Writer) error {
			ran = append(ran, name)
			fmt.Fprintln(w, name, "table")
			return err
		}}
	}
	RegisterBench("test-unmet", run("test-unmet", fmt.Errorf("%w: 2 of 5 seeds", errNotLearned)))
	RegisterBench("test-met", run("test-met", nil))
	RegisterBench("test-broken", run("test-broken", errors.New("env failed")))
	defer func() {
		for _, n := range []string{"test-unmet", "test-met", "test-broken"} {
			delete(benchRuns, n)
		}
	}()

	var out bytes.Buffer
	err := cmdBench(context.Background(), []string{"test-unmet", "test-met"}, &out, io.Discard)
	if !errors.Is(err, errNotLearned) || strings.Join(ran, ",") != "test-unmet,test-met" {
		t.Errorf("error %v after runs %v; want errNotLearned after both runs", err, ran)
	}
	if !strings.Contains(out.String(), "test-met table") {
		t.Errorf("output %q lacks the second run's table", out.String())
	}

	ran = nil
	err = cmdBench(context.Background(), []string{"test-broken", "test-met"}, io.Discard, io.Discard)
	if err == nil || errors.Is(err, errNotLearned) || strings.Join(ran, ",") != "test-broken" {
		t.Errorf("error %v after runs %v; want the env error after the first run", err, ran)
	}
}
