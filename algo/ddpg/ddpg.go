package ddpg

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
)

// DDPG is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type DDPG struct {
	actorcritic.Deterministic
	cfg   Config
	stats map[string]float64
}

// New returns a DDPG for an env with the given spaces, its weights and the
// seed of its policy's random source drawn from rng. It returns an error
// wrapping ErrConfig for an invalid cfg, and one naming the space for an
// observation or action space that is not a Box of one axis.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*DDPG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := &DDPG{cfg: cfg, stats: map[string]float64{"loss/actor": 0, "loss/critic": 0}}
	if err := d.Init(cfg.Continuous, 1, cfg.MaxAction, cfg.Noise, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return d, nil
}

// Config returns the configuration.
func (d *DDPG) Config() Config { return d.cfg }

// Update makes one critic step and one actor step on b (obs, act and
// returns), then moves the targets. It returns "loss/critic" and
// "loss/actor" in a map owned by the DDPG, and an error, changing nothing,
// for a batch without those keys or of other shapes.
func (d *DDPG) Update(b *batch.Batch) (map[string]float64, error) {
	critic, err := d.CriticStep(b)
	if err != nil {
		return nil, fmt.Errorf("ddpg: %w", err)
	}
	actor, err := d.ActorStep(b)
	if err != nil {
		return nil, fmt.Errorf("ddpg: %w", err)
	}
	d.stats["loss/critic"], d.stats["loss/actor"] = critic, actor
	d.Counters.Updates++
	return d.stats, nil
}
