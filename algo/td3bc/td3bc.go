package td3bc

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// TD3BC is an algo.OffPolicy algorithm for offline training; see the
// package documentation. It is driven by one goroutine at a time.
type TD3BC struct {
	actorcritic.Deterministic
	cfg      Config
	src      *rand.PCG
	rng      *rand.Rand
	counters counters
	stats    map[string]float64
}

// counters adds TD3+BC's own counters to the shared ones, saved together
// as one JSON object.
type counters struct {
	*actorcritic.OffPolicyCounters
	ActorUpdates int64 `json:"actor_updates"`
	// ActorLoss is the loss of the last actor step, reported by the
	// updates in between.
	ActorLoss float64 `json:"actor_loss"`
	// Fitted records that the observation normalization was fitted.
	Fitted bool `json:"fitted"`
}

// New returns a TD3+BC for an env with the given spaces, its weights and
// the seeds of its random sources drawn from rng. It returns an error
// wrapping ErrConfig for an invalid cfg, and one naming the space for an
// observation or action space that is not a Box of one axis (or, with
// MaxAction 0, an action space that is not [−h, h]).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*TD3BC, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	maxAction := cfg.MaxAction
	if maxAction == 0 {
		if _, _, err := actorcritic.ContinuousDims(obs, act); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		h, err := actorcritic.MaxAction(act)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		maxAction = h
	}
	d := &TD3BC{cfg: cfg, stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "lambda": 0}}
	if err := d.Init(cfg.Continuous, 2, maxAction, policy.NoiseConfig{}, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if cfg.NormalizeObs {
		if err := d.NormalizeObs(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	d.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	d.rng = rand.New(d.src)
	d.counters.OffPolicyCounters = &d.Counters
	d.TargetNoise = d.smooth
	d.ActorLoss = d.actorLoss
	return d, nil
}

// Config returns the configuration.
func (d *TD3BC) Config() Config { return d.cfg }

// ActorUpdates returns the number of actor (and target) updates.
func (d *TD3BC) ActorUpdates() int64 { return d.counters.ActorUpdates }

func (d *TD3BC) smooth(act []float32) {
	actorcritic.Smooth(act, d.cfg.PolicyNoise, d.cfg.NoiseClip, d.rng)
}

// Preprocess fits the observation normalization to buf at its first call
// (with NormalizeObs), then stores the n-step returns as TD3's Preprocess
// does.
func (d *TD3BC) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if d.Norm != nil && !d.counters.Fitted {
		if err := d.Norm.FitBuffer(buf); err != nil {
			return fmt.Errorf("td3bc: %w", err)
		}
		d.counters.Fitted = true
	}
	return d.Deterministic.Preprocess(b, buf, indices)
}

// actorLoss is the ActorLoss hook: Loss with the logged actions of b.
func (d *TD3BC) actorLoss(tp *tensor.Tape, b *batch.Batch, act, q *tensor.Tensor) (*tensor.Tensor, error) {
	a, err := b.Array(batch.KeyAct)
	if err != nil {
		return nil, fmt.Errorf("td3bc: %w", err)
	}
	logged, err := tp.FromND(a)
	if err != nil {
		return nil, fmt.Errorf("td3bc: act: %w", err)
	}
	if len(logged.Shape()) != 2 || logged.Dim(0) != act.Dim(0) || logged.Dim(1) != act.Dim(1) {
		return nil, fmt.Errorf("td3bc: act of shape %v; want %v", logged.Shape(), act.Shape())
	}
	loss, lambda := Loss(tp, act, logged, q, d.cfg.Alpha)
	d.stats["lambda"] = lambda
	return loss, nil
}

// Loss records on tp TD3+BC's actor loss −λ·mean(q) + mean((act −
// logged)²) with λ = α / mean|q| taken as a number (no gradient flows
// through it), for the actor's actions act [k, m], the dataset's actions
// logged [k, m] and the critic's values q [k] of act. It returns the loss
// and λ. If every q is 0, λ is α/10⁻⁶ rather than infinite.
//
// Loss panics with tensor.ErrShape if act and logged differ in shape.
func Loss(tp *tensor.Tape, act, logged, q *tensor.Tensor, alpha float64) (*tensor.Tensor, float64) {
	var abs float64
	for _, v := range q.Data() {
		abs += math.Abs(float64(v))
	}
	abs /= float64(max(q.Len(), 1))
	lambda := alpha / max(abs, 1e-6)
	loss := tp.Add(tp.MulScalar(tp.Mean(q), float32(-lambda)), tp.MSE(act, logged))
	return loss, lambda
}

// Update makes one step of the critics on b (obs, act and returns) and,
// every UpdateActorFreq-th update starting with the first, one step of the
// actor on Loss followed by the targets' Polyak step. It returns
// "loss/critics" (the sum of both critics' losses), "loss/actor" (of the
// last actor step) and "lambda" (λ of the last actor step) in a map owned
// by the TD3BC, and an error, changing nothing, for a batch without those
// keys or of other shapes.
func (d *TD3BC) Update(b *batch.Batch) (map[string]float64, error) {
	critics, err := d.CriticStep(b)
	if err != nil {
		return nil, fmt.Errorf("td3bc: %w", err)
	}
	d.stats["loss/critics"] = critics
	if d.Counters.Updates%int64(d.cfg.UpdateActorFreq) == 0 {
		if d.counters.ActorLoss, err = d.ActorStep(b); err != nil {
			return nil, fmt.Errorf("td3bc: %w", err)
		}
		d.counters.ActorUpdates++
	}
	d.Counters.Updates++
	d.stats["loss/actor"] = d.counters.ActorLoss
	return d.stats, nil
}

// Save writes the state with algo.SaveParts.
func (d *TD3BC) Save(w io.Writer) error { return algo.SaveParts(w, d.parts()...) }

// Load restores a state written by Save into a TD3BC made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (d *TD3BC) Load(r io.Reader) error { return d.LoadParts(r, d.parts()...) }

func (d *TD3BC) parts() []algo.Part {
	return d.Parts(&d.counters, algo.BinaryPart("rng", d.src))
}
