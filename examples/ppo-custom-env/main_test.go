package main

import (
	"strings"
	"testing"

	"github.com/gorl/gorl/env/envtest"
)

func TestCorridorConforms(t *testing.T) {
	envtest.Check(t, newCorridor(4))
}

// TestSmoke trains for one short epoch.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an agent")
	}
	var out strings.Builder
	if err := run(&out, settings{epochs: 1, stepPerEpoch: 400}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "epoch 1: test return") || !strings.Contains(out.String(), "best test return") {
		t.Errorf("output %q", out.String())
	}
}
