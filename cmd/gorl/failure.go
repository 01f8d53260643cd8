package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gorl/gorl/env/vector"
)

// errorLogFile is the file of a run directory that keeps the stacks of
// the run's failures (an env's panic), appended run after run.
const errorLogFile = "error.log"

// internalError is a panic in a command turned into an error by runSafe:
// a bug of gorl (or of code it calls), never a user's mistake.
type internalError struct {
	value any
	stack []byte
	// log is the file the stack was written to, "" if it could not be.
	log string
}

func (e *internalError) Error() string {
	where := "its stack could not be written to a file"
	if e.log != "" {
		where = "its stack is in " + e.log
	}
	return fmt.Sprintf("internal error: %s (a bug; %s, run with --verbose to print it)", oneLine(fmt.Sprint(e.value)), where)
}

// oneLine returns the first line of s.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// runSafe is run with a last line of defence: a panic in a command is
// recovered and returned as an *internalError, its stack written to a
// file in the temporary directory (and to stderr with --verbose), so that
// no Go panic or goroutine dump reaches the user.
func runSafe(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		ie := &internalError{value: v, stack: debug.Stack()}
		if f, ferr := os.CreateTemp("", "gorl-panic-*.log"); ferr == nil {
			fmt.Fprintf(f, "gorl %s\npanic: %v\n\n%s", strings.Join(args, " "), v, ie.stack)
			if f.Close() == nil {
				ie.log = f.Name()
			}
		}
		if verboseArg(args) {
			stderr.Write(ie.stack)
		}
		err = ie
	}()
	return run(ctx, args, stdout, stderr)
}

// verboseArg reports whether the command line asks for --verbose (before
// any "--").
func verboseArg(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-verbose", "--verbose", "-verbose=true", "--verbose=true":
			return true
		}
	}
	return false
}

// withEnvStack completes the error of a run that failed with an env's
// panic (a *vector.PanicError anywhere in err's chain): it appends the
// panic's stack to error.log in the run directory dir, prints it to stderr
// if verbose, and returns err with the place of the stack added. Other
// errors are returned unchanged.
func withEnvStack(dir string, err error, verbose bool, stderr io.Writer) error {
	var pe *vector.PanicError
	if !errors.As(err, &pe) {
		return err
	}
	if verbose {
		fmt.Fprintf(stderr, "stack of env %d's panic:\n%s", pe.Env, pe.Stack)
	}
	path := filepath.Join(dir, errorLogFile)
	f, ferr := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if ferr == nil {
		fmt.Fprintf(f, "%s: %v\n\n%s\n", time.Now().Format(time.RFC3339), err, pe.Stack)
		ferr = f.Close()
	}
	if ferr != nil {
		if !verbose {
			fmt.Fprintf(stderr, "stack of env %d's panic:\n%s", pe.Env, pe.Stack)
		}
		return fmt.Errorf("%w (the env's stack, printed above, could not be written: %v)", err, ferr)
	}
	return fmt.Errorf("%w (the env's stack is in %s)", err, path)
}
