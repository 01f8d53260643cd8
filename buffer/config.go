package buffer

import (
	"fmt"
	"math"
)

// Config configures a replay buffer, with Tianshou's ReplayBuffer options.
// A zero field means the default its comment names.
type Config struct {
	// Size is the capacity in transitions; for Vector, PrioritizedVector
	// and HERVector it is the total over all sub-buffers, split evenly
	// (rounded up). It must be positive; DefaultConfig sets 100,000.
	Size int `json:"size"`
	// StackNum is the number of consecutive frames stacked into obs and
	// obs_next when sampling (Tianshou's stack_num): sampled observations
	// get shape [n, StackNum, …], padded with the episode's first frame.
	// 0 means 1, no stacking; at most 4096.
	StackNum int `json:"stack_num"`
	// IgnoreObsNext drops obs_next when storing and derives it when
	// sampling from the obs of the next step of the same episode (the step
	// itself at an episode's end or at the newest step), halving the
	// memory of observations. Default false.
	IgnoreObsNext bool `json:"ignore_obs_next"`
	// SaveOnlyLastObs stores only the newest frame of observations that
	// arrive stacked (shape [frames, …] per transition, as a frame-stacking
	// env wrapper makes them); StackNum rebuilds the stack when sampling.
	// Default false.
	SaveOnlyLastObs bool `json:"save_only_last_obs"`
	// SampleAvail makes sampling with StackNum > 1 draw only indices whose
	// whole stack lies within one episode (no padded frame). Default false.
	SampleAvail bool `json:"sample_avail"`
}

// DefaultConfig returns a buffer of 100,000 transitions without frame
// stacking that stores obs_next.
func DefaultConfig() Config { return Config{Size: 100_000, StackNum: 1} }

// maxSize bounds a buffer's capacity: indices and positions are ints, and
// a capacity near the int range is always a mistake.
const maxSize = 1 << 40

// Validate reports an invalid configuration as an error wrapping ErrValue.
func (c Config) Validate() error {
	if c.Size <= 0 || c.Size > maxSize {
		return errorf(ErrValue, "", fmt.Sprintf("Config.Size must be in [1, 2^40], got %d", c.Size))
	}
	if c.StackNum < 0 || c.StackNum > maxStack {
		return errorf(ErrValue, "", fmt.Sprintf("Config.StackNum must be in [0, %d], got %d", maxStack, c.StackNum))
	}
	return nil
}

// maxStack bounds StackNum: frame stacks (Atari's 4, recurrent sequences
// of tens of steps) are short, and a bound keeps a sampled batch's size
// proportional to the sample.
const maxStack = 4096

// stack returns the effective stack_num (≥ 1).
func (c Config) stack() int { return max(1, c.StackNum) }

// PriorityConfig configures prioritized experience replay (Schaul et al.,
// "Prioritized Experience Replay", ICLR 2016): transition i is sampled
// with probability pᵢ^α / Σₖ pₖ^α and weighted by wᵢ = (N·P(i))^(−β) /
// maxₖ wₖ.
type PriorityConfig struct {
	// Alpha is the prioritization exponent α > 0; 0 means 0.6 (the
	// paper's proportional variant).
	Alpha float64 `json:"alpha"`
	// Beta is the importance-sampling exponent β ≥ 0, annealed by the
	// caller with SetBeta; 0 turns the correction off (every weight is 1).
	Beta float64 `json:"beta"`
	// WeightNorm divides the weights of each sampled batch by their
	// maximum (Tianshou's weight_norm). Default false.
	WeightNorm bool `json:"weight_norm"`
}

// DefaultPriorityConfig returns α = 0.6, β = 0.4 (the paper's values for
// proportional prioritization).
func DefaultPriorityConfig() PriorityConfig { return PriorityConfig{Alpha: 0.6, Beta: 0.4} }

// Validate reports an invalid configuration as an error wrapping ErrValue.
func (c PriorityConfig) Validate() error {
	if c.Alpha < 0 || math.IsNaN(c.Alpha) || math.IsInf(c.Alpha, 0) {
		return errorf(ErrValue, "", fmt.Sprintf("PriorityConfig.Alpha must be finite and > 0, got %g", c.Alpha))
	}
	return checkBeta(c.Beta)
}

func checkBeta(beta float64) error {
	if beta < 0 || math.IsNaN(beta) || math.IsInf(beta, 0) {
		return errorf(ErrValue, "", fmt.Sprintf("β must be finite and ≥ 0, got %g", beta))
	}
	return nil
}

func (c PriorityConfig) alpha() float64 {
	if c.Alpha == 0 {
		return 0.6
	}
	return c.Alpha
}
