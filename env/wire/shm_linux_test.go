package wire

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// syscallRusage is the CPU time this process has used.
type syscallRusage struct{ cpu time.Duration }

func (r *syscallRusage) read(t *testing.T) {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	r.cpu = time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestShmIdle checks that a worker waiting on the shared region sleeps
// once its spin is over: it uses no CPU time while idle.
func TestShmIdle(t *testing.T) {
	_, w := shmPair(t, DefaultSpin)
	done := make(chan error, 1)
	go func() {
		_, _, err := w.recv(time.Now().Add(300 * time.Millisecond))
		done <- err
	}()
	var before, after syscallRusage
	time.Sleep(50 * time.Millisecond)
	before.read(t)
	if err := <-done; !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("idle wait: %v", err)
	}
	after.read(t)
	// The process's CPU time over 250 ms of waiting; a spinning wait would
	// take all of it.
	if d := after.cpu - before.cpu; d > 50*time.Millisecond {
		t.Fatalf("%v of CPU time while idle for 250ms", d)
	}
}
