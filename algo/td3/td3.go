package td3

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
)

// TD3 is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type TD3 struct {
	actorcritic.Deterministic
	cfg      Config
	src      *rand.PCG
	rng      *rand.Rand
	counters counters
	stats    map[string]float64
}

// counters adds TD3's own counters to the shared ones, saved together as
// one JSON object.
type counters struct {
	*actorcritic.OffPolicyCounters
	ActorUpdates int64 `json:"actor_updates"`
	// ActorLoss is the loss of the last actor step, reported by the
	// updates in between.
	ActorLoss float64 `json:"actor_loss"`
}

// New returns a TD3 for an env with the given spaces, its weights and the
// seeds of its random sources drawn from rng. It returns an error wrapping
// ErrConfig for an invalid cfg, and one naming the space for an observation
// or action space that is not a Box of one axis.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*TD3, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := &TD3{cfg: cfg, stats: map[string]float64{"loss/actor": 0, "loss/critics": 0}}
	if err := d.Init(cfg.Continuous, 2, cfg.MaxAction, cfg.Noise, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	d.rng = rand.New(d.src)
	d.counters.OffPolicyCounters = &d.Counters
	d.TargetNoise = d.smooth
	return d, nil
}

// Config returns the configuration.
func (d *TD3) Config() Config { return d.cfg }

// ActorUpdates returns the number of actor (and target) updates.
func (d *TD3) ActorUpdates() int64 { return d.counters.ActorUpdates }

// smooth is the target policy smoothing of Preprocess's target values
// minᵢ Q′ᵢ(s′, μ′(s′) + clipped noise).
func (d *TD3) smooth(act []float32) {
	actorcritic.Smooth(act, d.cfg.PolicyNoise, d.cfg.NoiseClip, d.rng)
}

// Update makes one step of the critics on b (obs, act and returns) and,
// every UpdateActorFreq-th update starting with the first, one step of the
// actor followed by the targets' Polyak step. It returns "loss/critics"
// (the sum of both critics' losses) and "loss/actor" (of the last actor
// step) in a map owned by the TD3, and an error, changing nothing, for a
// batch without those keys or of other shapes.
func (d *TD3) Update(b *batch.Batch) (map[string]float64, error) {
	critics, err := d.CriticStep(b)
	if err != nil {
		return nil, fmt.Errorf("td3: %w", err)
	}
	d.stats["loss/critics"] = critics
	if d.Counters.Updates%int64(d.cfg.UpdateActorFreq) == 0 {
		if d.counters.ActorLoss, err = d.ActorStep(b); err != nil {
			return nil, fmt.Errorf("td3: %w", err)
		}
		d.counters.ActorUpdates++
	}
	d.Counters.Updates++
	d.stats["loss/actor"] = d.counters.ActorLoss
	return d.stats, nil
}

// Save writes the state with algo.SaveParts.
func (d *TD3) Save(w io.Writer) error { return algo.SaveParts(w, d.parts()...) }

// Load restores a state written by Save into a TD3 made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (d *TD3) Load(r io.Reader) error { return d.LoadParts(r, d.parts()...) }

func (d *TD3) parts() []algo.Part {
	return d.Parts(&d.counters, algo.BinaryPart("rng", d.src))
}
