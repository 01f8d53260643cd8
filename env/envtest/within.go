package envtest

import (
	"testing"
	"time"
)

// Within runs f and fails the test if f has not returned after d, so that
// a test of an env that hangs stops by itself. f goes on running in its
// goroutine after such a failure.
func Within(t testing.TB, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}
