package sac

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
)

// SAC is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type SAC struct {
	actorcritic.Squashed
	cfg   Config
	stats map[string]float64
}

// New returns a SAC for an env with the given spaces, its weights and the
// seeds of its random sources drawn from rng. It returns an error wrapping
// ErrConfig for an invalid cfg, and one naming the space for an observation
// or action space that is not a Box of one axis (a Discrete action space
// among them).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*SAC, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &SAC{cfg: cfg,
		stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "loss/alpha": 0, "alpha": 0}}
	set := actorcritic.SquashedSettings{Critics: 2, Temperature: cfg.Temperature, TargetEntropy: cfg.TargetEntropy,
		FreeStd: !cfg.StateDependentStd, LogStdInit: float32(cfg.LogStdInit),
		Policy: policy.ActorConfig{DeterministicEval: cfg.DeterministicEval, Map: cfg.Map, Noise: cfg.Noise}}
	if err := s.Init(cfg.Continuous, set, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return s, nil
}

// Config returns the configuration.
func (s *SAC) Config() Config { return s.cfg }

// TargetEntropy returns the entropy AutoAlpha aims at.
func (s *SAC) TargetEntropy() float64 { return s.Temp.TargetEntropy() }

// Update makes one step of the critics on b (obs, act and returns), one of
// the actor on the twin critics' minimum, one of log α with AutoAlpha, and
// the critics' targets' Polyak step. It returns "loss/critics" (both
// critics' losses summed), "loss/actor", "loss/alpha" and "alpha" in a map
// owned by the SAC, and an error, changing nothing, for a batch without
// those keys or of other shapes, or with an actor whose distribution
// diverged (NaN parameters).
func (s *SAC) Update(b *batch.Batch) (map[string]float64, error) {
	if err := s.ReadCritic(b); err != nil {
		return nil, fmt.Errorf("sac: %w", err)
	}
	if err := s.ReadActor(b); err != nil {
		return nil, fmt.Errorf("sac: %w", err)
	}
	s.stats["loss/critics"] = s.CriticStep()
	s.stats["loss/actor"], s.stats["loss/alpha"] = s.ActorStep()
	s.stats["alpha"] = s.Alpha()
	s.Counters.Updates++
	s.SoftUpdate()
	return s.stats, nil
}
