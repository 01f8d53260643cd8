package main

import "testing"

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
