package apex

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/dqn"
)

// ErrConfig marks an invalid configuration.
var ErrConfig = errors.New("apex: invalid configuration")

// Config holds Ape-X DQN's settings.
type Config struct {
	// DQN configures the learner's network, loss, target network, γ and
	// n-step length (its ε settings are ignored: each actor has its own).
	DQN dqn.Config `json:"dqn"`
	// Actors is the number of actors N, at least 1. Default 4.
	Actors int `json:"actors"`
	// Eps and EpsAlpha give actor i its ε, Eps^(1 + EpsAlpha·i/(N−1)) (Eps
	// for one actor). Default 0.4 and 7, the paper's.
	Eps      float64 `json:"eps"`
	EpsAlpha float64 `json:"eps_alpha"`
	// BufferSize is the capacity of each actor's shard. Default 20,000.
	BufferSize int `json:"buffer_size"`
	// PriorityAlpha and PriorityBeta are prioritized replay's α and β.
	// Default 0.6 and 0.4.
	PriorityAlpha float64 `json:"priority_alpha"`
	PriorityBeta  float64 `json:"priority_beta"`
	// BatchSize is the learner's minibatch. Default 64.
	BatchSize int `json:"batch_size"`
	// LearningStarts is the number of transitions across the shards before
	// the first update. Default 1,000.
	LearningStarts int `json:"learning_starts"`
	// FlushEvery is how many transitions an actor gathers before it
	// computes their priorities and adds them to its shard. Default 50.
	FlushEvery int `json:"flush_every"`
	// PublishEvery is the number of updates between two publications of
	// the learner's weights. Default 25.
	PublishEvery int `json:"publish_every"`
	// SyncEvery is the number of env steps between an actor's checks for
	// newer weights. Default 100.
	SyncEvery int `json:"sync_every"`
	// StepsPerUpdate, when positive, holds the actors back once all of them
	// together are more than LearningStarts + Actors·(FlushEvery + NStep) +
	// StepsPerUpdate·updates env steps ahead of the learner: on a machine with fewer cores than actors
	// and learner, free-running actors would take the learner's time.
	// Default 0: actors run freely, as in the paper.
	StepsPerUpdate float64 `json:"steps_per_update"`
}

// DefaultConfig returns the paper's actor settings (ε 0.4, α 7, priority
// exponents 0.6 and 0.4) with 4 actors and dqn.DefaultConfig's learner.
func DefaultConfig() Config {
	return Config{
		DQN:            dqn.DefaultConfig(),
		Actors:         4,
		Eps:            0.4,
		EpsAlpha:       7,
		BufferSize:     20_000,
		PriorityAlpha:  0.6,
		PriorityBeta:   0.4,
		BatchSize:      64,
		LearningStarts: 1000,
		FlushEvery:     50,
		PublishEvery:   25,
		SyncEvery:      100,
	}
}

// Validate names the first invalid field.
func (c Config) Validate() error {
	switch {
	case c.Actors < 1:
		return badField("actors", c.Actors, "≥ 1")
	case !(c.Eps >= 0 && c.Eps <= 1):
		return badField("eps", c.Eps, "in [0, 1]")
	case !(c.EpsAlpha >= 0) || math.IsInf(c.EpsAlpha, 0):
		return badField("eps_alpha", c.EpsAlpha, "finite and ≥ 0")
	}
	st := loopSettings{
		actors: c.Actors, bufferSize: c.BufferSize, batchSize: c.BatchSize,
		learningStarts: c.LearningStarts, flushEvery: c.FlushEvery, publishEvery: c.PublishEvery,
		syncEvery: c.SyncEvery, priorityAlpha: c.PriorityAlpha, priorityBeta: c.PriorityBeta, stepsPerUpdate: c.StepsPerUpdate,
	}
	if err := st.validate(); err != nil {
		return err
	}
	if err := c.DQN.Validate(); err != nil {
		return fmt.Errorf("%w: dqn: %w", ErrConfig, err)
	}
	return nil
}

func badField(field string, v any, want string) error {
	return fmt.Errorf("%w: %s = %v, want %s", ErrConfig, field, v, want)
}

// validate names the first invalid field of the settings Config and
// DDPGConfig share.
func (c loopSettings) validate() error {
	switch {
	case c.actors < 1:
		return badField("actors", c.actors, "≥ 1")
	case c.bufferSize < 1:
		return badField("buffer_size", c.bufferSize, "≥ 1")
	case !(c.priorityAlpha > 0) || math.IsInf(c.priorityAlpha, 0):
		return badField("priority_alpha", c.priorityAlpha, "finite and > 0")
	case !(c.priorityBeta >= 0) || math.IsInf(c.priorityBeta, 0):
		return badField("priority_beta", c.priorityBeta, "finite and ≥ 0")
	case c.batchSize < 1:
		return badField("batch_size", c.batchSize, "≥ 1")
	case c.learningStarts < c.batchSize:
		return badField("learning_starts", c.learningStarts, fmt.Sprintf("≥ batch_size (%d)", c.batchSize))
	case c.flushEvery < 1:
		return badField("flush_every", c.flushEvery, "≥ 1")
	case c.publishEvery < 1:
		return badField("publish_every", c.publishEvery, "≥ 1")
	case c.syncEvery < 1:
		return badField("sync_every", c.syncEvery, "≥ 1")
	case !(c.stepsPerUpdate >= 0) || math.IsInf(c.stepsPerUpdate, 0):
		return badField("steps_per_update", c.stepsPerUpdate, "finite and ≥ 0")
	}
	return nil
}

// ActorEps returns actor i's ε of n: eps^(1 + alpha·i/(n−1)), or eps when
// n is 1.
func ActorEps(eps, alpha float64, i, n int) float64 {
	if n <= 1 {
		return eps
	}
	return math.Pow(eps, 1+alpha*float64(i)/float64(n-1))
}
