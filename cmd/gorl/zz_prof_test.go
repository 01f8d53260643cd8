package main

import (
	"context"
	"io"
	"os"
	"testing"
)

func TestZZProfDQN(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	r := benchRuns["dqn-cartpole"]
	if err := r.Run(context.Background(), BenchOptions{Seeds: 3, FirstSeed: 0, Log: io.Discard}, os.Stdout); err != nil {
		t.Fatal(err)
	}
}
