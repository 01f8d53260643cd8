package impala

import (
	"errors"
	"fmt"
	"math"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/optim"
)

// ErrConfig marks an invalid configuration.
var ErrConfig = errors.New("impala: invalid configuration")

// Config holds IMPALA's settings.
type Config struct {
	// Net is the actor-critic network. Default 64 × 64 tanh.
	Net actorcritic.NetConfig `json:"net"`
	// Training is the learner's Adam and gradient clipping. Default lr
	// 1e-3, gradient norm clipped at 0.5 (the paper clips at 40, which let
	// the policy collapse on CartPole: LEARNING.md).
	Training actorcritic.Training `json:"training"`
	// Gamma is the discount γ. Default 0.99.
	Gamma float64 `json:"gamma"`
	// Unroll is the length T of an actor's unroll. Default 20 (the paper's).
	Unroll int `json:"unroll"`
	// Actors is the number of actors. Default 4.
	Actors int `json:"actors"`
	// BatchSize is the number of unrolls per update. Default 8.
	BatchSize int `json:"batch_size"`
	// QueueSize is the number of unrolls each actor's shard keeps. Default 4.
	QueueSize int `json:"queue_size"`
	// VFCoef and EntCoef weigh the value loss and the entropy bonus.
	// Default 0.5 and 0.01.
	VFCoef  float64 `json:"vf_coef"`
	EntCoef float64 `json:"ent_coef"`
	// RhoBar and CBar clip the importance ratios of V-trace (ρ̄, c̄).
	// Default 1 and 1.
	RhoBar float64 `json:"rho_bar"`
	CBar   float64 `json:"c_bar"`
	// PublishEvery is the number of updates between two publications of
	// the weights. Default 1.
	PublishEvery int `json:"publish_every"`
	// UnrollsPerUpdate, when positive, holds each actor back once it is
	// more than its share (1/Actors) of UnrollsPerUpdate per update, plus a
	// full queue, ahead of the learner. Default 0: actors run freely.
	UnrollsPerUpdate float64 `json:"unrolls_per_update"`
}

// DefaultConfig returns the settings above.
func DefaultConfig() Config {
	o := optim.DefaultAdamConfig()
	o.LR = 1e-3
	return Config{
		Net:          actorcritic.NetConfig{Hidden: []int{64, 64}, Activation: "tanh"},
		Training:     actorcritic.Training{Optim: o, MaxGradNorm: 0.5},
		Gamma:        0.99,
		Unroll:       20,
		Actors:       4,
		BatchSize:    8,
		QueueSize:    4,
		VFCoef:       0.5,
		EntCoef:      0.01,
		RhoBar:       1,
		CBar:         1,
		PublishEvery: 1,
	}
}

// Validate names the first invalid field.
func (c Config) Validate() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("%w: %s = %v, want %s", ErrConfig, field, v, want)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return bad("gamma", c.Gamma, "in [0, 1]")
	case c.Unroll < 1:
		return bad("unroll", c.Unroll, "≥ 1")
	case c.Actors < 1:
		return bad("actors", c.Actors, "≥ 1")
	case c.BatchSize < 1:
		return bad("batch_size", c.BatchSize, "≥ 1")
	case c.QueueSize < 1:
		return bad("queue_size", c.QueueSize, "≥ 1")
	case c.BatchSize > c.Actors*c.QueueSize:
		return bad("batch_size", c.BatchSize, fmt.Sprintf("≤ actors × queue_size (%d), the unrolls the shards hold", c.Actors*c.QueueSize))
	case !(c.VFCoef >= 0) || !finite(c.VFCoef):
		return bad("vf_coef", c.VFCoef, "finite and ≥ 0")
	case !finite(c.EntCoef):
		return bad("ent_coef", c.EntCoef, "finite")
	case !(c.RhoBar > 0), !(c.CBar > 0):
		return bad("rho_bar and c_bar", [2]float64{c.RhoBar, c.CBar}, "> 0")
	case c.PublishEvery < 1:
		return bad("publish_every", c.PublishEvery, "≥ 1")
	case !(c.UnrollsPerUpdate >= 0) || !finite(c.UnrollsPerUpdate):
		return bad("unrolls_per_update", c.UnrollsPerUpdate, "finite and ≥ 0")
	}
	if err := c.Net.Validate(); err != nil {
		return fmt.Errorf("%w: net: %w", ErrConfig, err)
	}
	if err := c.Training.Validate(); err != nil {
		return fmt.Errorf("%w: training: %w", ErrConfig, err)
	}
	return nil
}
