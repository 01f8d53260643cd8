package logger

import (
	"errors"
	"slices"
)

// Logger receives scalar statistics. Log records values (name → value)
// under a scope such as "train", "test" or "update", at step, the number of
// environment steps taken so far. Close releases what the logger holds.
//
// CSV, JSONL, TensorBoard and Multi implement Logger.
type Logger interface {
	Log(scope string, step int64, values map[string]float64) error
	Close() error
}

// Error is the type of the values this package panics with.
type Error struct{ string }

func (e Error) Error() string { return e.string }

// ErrClosed is the panic value of Log on a logger that was closed.
var ErrClosed = Error{"logger: Log after Close"}

// Multi is a Logger that forwards each call to every logger in it, in order.
type Multi []Logger

// Log calls Log on every logger, also after one of them fails, and returns
// their errors joined with errors.Join (nil if none failed).
func (m Multi) Log(scope string, step int64, values map[string]float64) error {
	var errs []error
	for _, l := range m {
		if err := l.Log(scope, step, values); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Close calls Close on every logger and returns their errors joined with
// errors.Join (nil if none failed).
func (m Multi) Close() error {
	var errs []error
	for _, l := range m {
		if err := l.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// sortedKeys returns the keys of values in increasing byte order, in dst's
// storage.
func sortedKeys(dst []string, values map[string]float64) []string {
	dst = dst[:0]
	for k := range values {
		dst = append(dst, k)
	}
	slices.Sort(dst)
	return dst
}
