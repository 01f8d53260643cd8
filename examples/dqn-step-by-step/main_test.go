package main

import (
	"context"
	"strings"
	"testing"
)

// TestSmoke runs a few hundred steps with two tests.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an agent")
	}
	var out strings.Builder
	if err := run(context.Background(), &out, settings{totalSteps: 200, testEvery: 100}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "test return"); got < 2 {
		t.Errorf("%d tests in %q, want at least 2", got, out.String())
	}
}
