package trainer

import (
	"errors"
	"fmt"
	"math"
)

// ErrConfig is wrapped by the errors of New for an invalid Config or Setup.
var ErrConfig = errors.New("trainer: invalid configuration")

// ErrNonFinite is wrapped by the error that stops a run when an update
// returns a NaN or infinite statistic (a loss that diverged): training on
// would only save NaN policies.
var ErrNonFinite = errors.New("trainer: non-finite update")

// Config holds the numbers of a training run, Tianshou's trainer
// parameters. It is plain data with JSON tags, so a run can write it next to
// its logs. A zero field means "off" or the default its comment names.
type Config struct {
	// Epochs is the number of epochs to run at most (Tianshou's
	// max_epochs); training stops earlier when the stop criterion is met.
	// At least 1.
	Epochs int `json:"epochs"`
	// StepPerEpoch is the number of training env steps per epoch (at
	// least; collection comes in whole collects), or for the offline
	// trainer the number of gradient steps per epoch. At least 1.
	StepPerEpoch int `json:"step_per_epoch"`
	// StepPerCollect is the number of env steps each collection gathers
	// (with n envs, at least: whole vector steps). Exactly one of
	// StepPerCollect and EpisodePerCollect must be set for the off-policy
	// and on-policy trainers.
	StepPerCollect int `json:"step_per_collect"`
	// EpisodePerCollect is the number of episodes each collection gathers.
	EpisodePerCollect int `json:"episode_per_collect"`
	// UpdatePerStep is the number of gradient steps per collected env step
	// of the off-policy trainer: after each collection of s steps it makes
	// round(UpdatePerStep·s) updates. Default 1.
	UpdatePerStep float64 `json:"update_per_step"`
	// RepeatPerCollect is the number of passes the on-policy trainer makes
	// over each collection (Tianshou's repeat_per_collect). Default 1.
	RepeatPerCollect int `json:"repeat_per_collect"`
	// BatchSize is the number of transitions per gradient step (per
	// minibatch for the on-policy trainer, where 0 means the whole
	// collection). At least 1 for the off-policy and offline trainers.
	BatchSize int `json:"batch_size"`
	// PrefillSteps is the number of env steps the off-policy trainer
	// collects into the buffer before training starts, not counted as
	// training steps (Tianshou's tests collect batch_size × envs steps
	// first). Default 0.
	PrefillSteps int `json:"prefill_steps"`
	// PrefillRandom collects the prefill with random actions instead of
	// the policy. Default false.
	PrefillRandom bool `json:"prefill_random"`

	// TestEpisodes is the number of test episodes after each epoch (and
	// once before training). 0 runs no tests.
	TestEpisodes int `json:"test_episodes"`
	// TestInTrain runs the test episodes during an epoch as soon as the
	// mean return of the training episodes of a collection reaches the
	// stop criterion, and stops training if the test passes too (Tianshou's
	// test_in_train). Default false.
	TestInTrain bool `json:"test_in_train"`
	// TestExploration lets the policy explore during test episodes (with
	// its test-time noise, such as DQN's εTest). Default false.
	TestExploration bool `json:"test_exploration"`
	// RewardThreshold is the stop criterion: training stops when the mean
	// return of the test episodes reaches it. Nil means none (Setup.Stop
	// may give another criterion; gorl train fills in the env's registered
	// reward threshold).
	RewardThreshold *float64 `json:"reward_threshold"`
	// LogInterval is the number of env steps (gradient steps for the
	// offline trainer) between two logged records of training and update
	// statistics. Default 1000; test statistics are logged after every
	// test.
	LogInterval int `json:"log_interval"`

	// Overlap runs the off-policy trainer's collections beside its
	// updates: a collector goroutine steps the training envs with
	// Setup.Actor's policy, a copy of the trained one, while the learner
	// updates on what the earlier collections stored (see the package
	// documentation). It needs Setup.Actor. Default false: collect, then
	// update, in one goroutine.
	Overlap bool `json:"overlap,omitempty"`
	// OverlapSync is the number of updates after which the overlapped mode
	// copies the learner's parameters into the collecting policy, at the
	// next hand-over of a collection. Default 1: every hand-over that
	// follows an update.
	OverlapSync int `json:"overlap_sync,omitempty"`
}

// DefaultConfig returns the settings of Tianshou's CartPole DQN test: 20
// epochs of 10,000 steps, collections of 10 steps with 0.1 gradient steps per
// step, batches of 64, 640 prefill steps, 100 test episodes with
// test-in-train and test-time exploration. It has no stop threshold: set
// RewardThreshold (Tianshou's test stops at 195 on CartPole).
func DefaultConfig() Config {
	return Config{
		Epochs:          20,
		StepPerEpoch:    10_000,
		StepPerCollect:  10,
		UpdatePerStep:   0.1,
		BatchSize:       64,
		PrefillSteps:    640,
		TestEpisodes:    100,
		TestInTrain:     true,
		TestExploration: true,
		LogInterval:     1000,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil. Which fields a trainer needs is checked by New.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	switch {
	case c.Epochs < 1:
		return bad("epochs %d < 1", c.Epochs)
	case c.StepPerEpoch < 1:
		return bad("step_per_epoch %d < 1", c.StepPerEpoch)
	case c.StepPerCollect < 0 || c.EpisodePerCollect < 0:
		return bad("negative step_per_collect or episode_per_collect")
	case !(c.UpdatePerStep >= 0) || math.IsInf(c.UpdatePerStep, 0):
		return bad("update_per_step %v", c.UpdatePerStep)
	case c.RepeatPerCollect < 0 || c.BatchSize < 0 || c.PrefillSteps < 0 || c.TestEpisodes < 0 || c.LogInterval < 0 || c.OverlapSync < 0:
		return bad("negative count")
	case c.RewardThreshold != nil && math.IsNaN(*c.RewardThreshold):
		return bad("reward_threshold is NaN")
	}
	return nil
}

// withDefaults returns c with zero fields that have defaults filled in.
func (c Config) withDefaults() Config {
	if c.UpdatePerStep == 0 {
		c.UpdatePerStep = 1
	}
	if c.RepeatPerCollect == 0 {
		c.RepeatPerCollect = 1
	}
	if c.LogInterval == 0 {
		c.LogInterval = 1000
	}
	if c.OverlapSync == 0 {
		c.OverlapSync = 1
	}
	return c
}
