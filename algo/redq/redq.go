package redq

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
)

// REDQ is an algo.OffPolicy algorithm; see the package documentation. It
// is driven by one goroutine at a time.
type REDQ struct {
	actorcritic.Squashed
	cfg      Config
	counters counters
	perm     []int // the critics' indices; its first M are the last subset
	stats    map[string]float64
}

// counters adds REDQ's own counters to the shared ones, saved together as
// one JSON object.
type counters struct {
	*actorcritic.OffPolicyCounters
	// ActorUpdates counts the actor's steps.
	ActorUpdates int64 `json:"actor_updates"`
	// ActorLoss and AlphaLoss are the losses of the last actor update,
	// reported by the updates in between.
	ActorLoss float64 `json:"actor_loss"`
	AlphaLoss float64 `json:"alpha_loss"`
	// Perm is the order of the critics' indices the subsets are drawn
	// from.
	Perm []int `json:"perm"`
}

// New returns a REDQ for an env with the given spaces, its weights and the
// seeds of its random sources drawn from rng. It returns an error wrapping
// ErrConfig for an invalid cfg, and one naming the space for an
// observation or action space that is not a Box of one axis (a Discrete
// action space among them).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*REDQ, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &REDQ{cfg: cfg, perm: make([]int, cfg.EnsembleSize),
		stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "loss/alpha": 0, "alpha": 0}}
	for i := range r.perm {
		r.perm[i] = i
	}
	set := actorcritic.SquashedSettings{Critics: cfg.EnsembleSize, Temperature: cfg.Temperature,
		TargetEntropy: cfg.TargetEntropy, MeanQ: true,
		Policy: policy.ActorConfig{DeterministicEval: cfg.DeterministicEval, Map: cfg.Map, Noise: cfg.Noise}}
	if err := r.Init(cfg.Continuous, set, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	r.counters.OffPolicyCounters = &r.Counters
	r.TargetSubset = r.subset
	return r, nil
}

// Config returns the configuration.
func (r *REDQ) Config() Config { return r.cfg }

// Subset returns the target critics whose minimum the last target took, in
// a slice owned by r, valid until the next Preprocess.
func (r *REDQ) Subset() []int { return r.perm[:r.cfg.SubsetSize] }

// ActorUpdates returns the number of actor steps taken.
func (r *REDQ) ActorUpdates() int64 { return r.counters.ActorUpdates }

// subset draws the target critics of Preprocess's soft target values, the
// minimum over M of them of Q′ᵢ(s′, a′) − α·log π(a′|s′).
func (r *REDQ) subset() []int { return SampleSubset(r.perm, r.cfg.SubsetSize, r.Rng) }

// SampleSubset moves a uniform sample without replacement of m of the
// values of perm to its front (the first m steps of a Fisher–Yates
// shuffle) with rng, and returns perm[:m]. It panics if m > len(perm).
func SampleSubset(perm []int, m int, rng *rand.Rand) []int {
	for i := range m {
		j := i + rng.IntN(len(perm)-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm[:m]
}

// Update makes one step of the critics on b (obs, act and returns) and
// their targets' Polyak step, and every ActorDelay-th time one step of the
// actor on the mean of the N critics and one of log α with AutoAlpha. It
// returns "loss/critics" (the critics' losses summed), "loss/actor" and
// "loss/alpha" (of the last actor update) and "alpha" in a map owned by
// the REDQ, and an error, changing nothing, for a batch without those keys
// or of other shapes, or with an actor whose distribution diverged (NaN
// parameters).
func (r *REDQ) Update(b *batch.Batch) (map[string]float64, error) {
	if err := r.ReadCritic(b); err != nil {
		return nil, fmt.Errorf("redq: %w", err)
	}
	actor := (r.Counters.Updates+1)%int64(r.cfg.ActorDelay) == 0
	if actor {
		if err := r.ReadActor(b); err != nil {
			return nil, fmt.Errorf("redq: %w", err)
		}
	}
	r.stats["loss/critics"] = r.CriticStep()
	r.Counters.Updates++
	if actor {
		r.counters.ActorLoss, r.counters.AlphaLoss = r.ActorStep()
		r.counters.ActorUpdates++
	}
	r.stats["loss/actor"] = r.counters.ActorLoss
	r.stats["loss/alpha"] = r.counters.AlphaLoss
	r.stats["alpha"] = r.Alpha()
	r.SoftUpdate()
	return r.stats, nil
}

// Save writes the state with algo.SaveParts.
func (r *REDQ) Save(w io.Writer) error {
	r.counters.Perm = r.perm
	return algo.SaveParts(w, r.Parts(&r.counters)...)
}

// Load restores a state written by Save into a REDQ made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (r *REDQ) Load(rd io.Reader) error {
	if err := r.LoadParts(rd, r.Parts(&r.counters)...); err != nil {
		return err
	}
	if !isPerm(r.counters.Perm, len(r.perm)) {
		return fmt.Errorf("%w: redq: the critics' order %v is not a permutation of %d", algo.ErrState, r.counters.Perm, len(r.perm))
	}
	copy(r.perm, r.counters.Perm)
	r.counters.Perm = r.perm
	return nil
}

// isPerm reports whether p holds each of 0, …, n−1 once.
func isPerm(p []int, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, v := range p {
		if v < 0 || v >= n || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}
