package a3c

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/algo/a2c"
)

// ErrConfig is wrapped by the errors of Validate and Run for an invalid
// configuration.
var ErrConfig = errors.New("a3c: invalid configuration")

// Config holds A3C's settings.
type Config struct {
	// A2C gives the networks, the loss (value coefficient, entropy bonus),
	// γ, λ and return scaling of every worker, and the Adam settings and
	// gradient-norm clipping of the shared optimizer. Its learning-rate
	// decay is not supported (lr_decay_steps must be 0).
	A2C a2c.Config `json:"a2c"`
	// Workers is the number of workers N, at least 1. Default 4.
	Workers int `json:"workers"`
	// NSteps is the number of env steps a worker collects for one
	// gradient (the paper's t_max). Default 20.
	NSteps int `json:"n_steps"`
	// MaxStale drops a gradient computed on weights more than MaxStale
	// versions old. Default 0: every gradient is applied, as in the
	// paper.
	MaxStale uint64 `json:"max_stale"`
}

// DefaultConfig returns a2c.DefaultConfig's networks, loss and optimizer
// with 4 workers of 20 steps each.
func DefaultConfig() Config {
	return Config{A2C: a2c.DefaultConfig(), Workers: 4, NSteps: 20}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Config) Validate() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("%w: %s = %v, want %s", ErrConfig, field, v, want)
	}
	switch {
	case c.Workers < 1:
		return bad("workers", c.Workers, "≥ 1")
	case c.NSteps < 1:
		return bad("n_steps", c.NSteps, "≥ 1")
	case c.A2C.LRDecaySteps != 0:
		return bad("a2c.lr_decay_steps", c.A2C.LRDecaySteps, "0 (the shared optimizer keeps its learning rate)")
	}
	if err := c.A2C.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
