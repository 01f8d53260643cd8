package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// errInterrupted is the cause of the command's context when a SIGINT or
// SIGTERM stops it. A command that reports the interruption itself returns
// it; main then exits with exitInterrupted and prints nothing more.
var errInterrupted = errors.New("interrupted")

// exitInterrupted is the exit status of an interrupted command, the
// shell's 128 + SIGINT.
const exitInterrupted = 130

// interruptible returns a context canceled, with cause errInterrupted, by
// the first SIGINT or SIGTERM. A second signal ends the process at once
// with status exitInterrupted, after a message to stderr: a command that
// does not stop (an env whose Step never returns) can always be ended from
// the keyboard. stop releases the signals.
func interruptible(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "\ngorl: %s: stopping (interrupt again to exit at once)\n", signalName(sig))
			cancel(errInterrupted)
		case <-done:
			return
		}
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "gorl: %s again: exiting at once; a run keeps the checkpoint of its last finished epoch\n", signalName(sig))
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "interrupt"
	case syscall.SIGTERM:
		return "terminated"
	}
	return sig.String()
}
