package main

import (
	"strings"
	"testing"
)

// configAs returns the typed configuration of ac, failing the test if ac
// configures another type.
func configAs[C any](t testing.TB, ac algoConfig) *C {
	t.Helper()
	b, ok := ac.(*bound[C])
	if !ok {
		t.Fatalf("the configuration is a %T, not a *bound[%T]", ac, *new(C))
	}
	return b.c
}

// noPanic fails the test if output holds a Go panic or a goroutine trace.
func noPanic(t testing.TB, output string) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine "} {
		if strings.Contains(output, bad) {
			t.Errorf("the output holds %q:\n%s", bad, output)
		}
	}
}
