package redq

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// REDQ is an algo.OffPolicy algorithm; see the package documentation. It
// is driven by one goroutine at a time.
type REDQ struct {
	cfg         Config
	m           int
	head        *actorcritic.SquashedHead
	mlp         *nn.MLP
	dist, ndist distribution.Distribution // of the update and of the targets
	pol         *policy.Actor
	aps         nn.Params
	actorOpt    *actorcritic.Optimizer
	critics     *actorcritic.Critics
	alpha       *actorcritic.Alpha
	polSrc, src *rand.PCG
	rng         *rand.Rand
	counters    counters
	perm        []int // the critics' indices; its first M are the last subset

	returns  algo.QReturns
	ctp, atp tensor.Tape
	ntp      tensor.Tape
	q        actorcritic.QBatch
	stats    map[string]float64
}

type counters struct {
	// Updates counts the critics' steps, ActorUpdates the actor's.
	Updates      int64 `json:"updates"`
	ActorUpdates int64 `json:"actor_updates"`
	EnvSteps     int64 `json:"env_steps"`
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
	n, m, err := actorcritic.ContinuousDims(obs, act)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	r := &REDQ{cfg: cfg, m: m, perm: make([]int, cfg.EnsembleSize),
		stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "loss/alpha": 0, "alpha": 0}}
	for i := range r.perm {
		r.perm[i] = i
	}
	targetEntropy := -float64(m)
	if cfg.TargetEntropy != nil {
		targetEntropy = *cfg.TargetEntropy
	}
	if r.alpha, err = actorcritic.NewAlpha(cfg.Temperature, targetEntropy); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	r.head = actorcritic.NewSquashedHead(m, false, 0)
	if r.mlp, err = nn.NewMLP(nn.MLPConfig{In: n, Hidden: cfg.ActorHidden, Out: r.head.Width()}, rng); err != nil {
		return nil, fmt.Errorf("%w: actor: %w", ErrConfig, err)
	}
	if r.critics, err = actorcritic.NewCritics(cfg.EnsembleSize, cfg.Critic, n, m, cfg.CriticOptim, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	r.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	r.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	r.rng = rand.New(r.src)
	r.dist, r.ndist = r.head.New(), r.head.New()
	r.pol, err = policy.NewActor(policy.ObsNet{Layer: r.mlp}, r.head, act, rand.New(r.polSrc),
		policy.ActorConfig{DeterministicEval: cfg.DeterministicEval, Map: cfg.Map, Noise: cfg.Noise})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	r.aps = r.pol.Params()
	if r.actorOpt, err = actorcritic.NewOptimizer(r.aps, cfg.ActorOptim); err != nil {
		return nil, fmt.Errorf("%w: actor_optim: %w", ErrConfig, err)
	}
	r.ntp.SetGradEnabled(false)
	return r, nil
}

// Config returns the configuration.
func (r *REDQ) Config() Config { return r.cfg }

// Policy returns the policy (a *policy.Actor).
func (r *REDQ) Policy() policy.Policy { return r.pol }

// Critics returns the ensemble and its targets.
func (r *REDQ) Critics() *actorcritic.Critics { return r.critics }

// Alpha returns the current temperature α.
func (r *REDQ) Alpha() float64 { return r.alpha.Value() }

// Subset returns the target critics whose minimum the last target took, in
// a slice owned by r, valid until the next Preprocess.
func (r *REDQ) Subset() []int { return r.perm[:r.cfg.SubsetSize] }

// Params returns the actor's, the critics', the targets' parameters and log
// α (prefixed "actor", "critics", "critics_target"; "log_alpha").
func (r *REDQ) Params() nn.Params {
	ps := append(r.aps.Prefixed("actor"), r.critics.Params().Prefixed("critics")...)
	ps = append(ps, r.critics.TargetParams().Prefixed("critics_target")...)
	return append(ps, r.alpha.Params()...)
}

// Updates returns the number of critic steps taken.
func (r *REDQ) Updates() int64 { return r.counters.Updates }

// ActorUpdates returns the number of actor steps taken.
func (r *REDQ) ActorUpdates() int64 { return r.counters.ActorUpdates }

// Schedule sets the exploration noise for envSteps env steps of training.
// It implements algo.Scheduled.
func (r *REDQ) Schedule(envSteps int64) {
	r.counters.EnvSteps = envSteps
	if nz := r.pol.Noise(); nz != nil {
		nz.Schedule(envSteps)
	}
}

// Preprocess stores in b the n-step returns (algo.QReturns) with the soft
// target values min over a subset of M target critics of Q′ᵢ(s′, a′) −
// α·log π(a′|s′), the subset drawn anew and a′ sampled from the current
// policy, both with the REDQ's random source, under "returns".
func (r *REDQ) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return r.returns.Preprocess(b, buf, indices, r.cfg.Gamma, r.cfg.NStep, r.targets)
}

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

func (r *REDQ) targets(dst []float32, next *batch.Batch) error {
	r.ntp.Reset()
	obs, err := actorcritic.NextObs(&r.ntp, next)
	if err != nil {
		return err
	}
	d, err := r.actorDist(&r.ntp, r.ndist, obs)
	if err != nil {
		return fmt.Errorf("redq: actor on obs_next: %w", err)
	}
	a := d.Sample(r.rng)
	logp := d.LogProb(a).Data()
	r.critics.TargetMinTo(dst, &r.ntp, obs, a, SampleSubset(r.perm, r.cfg.SubsetSize, r.rng))
	alpha := float32(r.alpha.Value())
	for i := range dst {
		dst[i] -= alpha * logp[i]
	}
	return nil
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
	r.ctp.Reset()
	if err := r.q.Read(&r.ctp, b, r.m); err != nil {
		return nil, fmt.Errorf("redq: %w", err)
	}
	actor := (r.counters.Updates+1)%int64(r.cfg.ActorDelay) == 0
	var d distribution.Distribution
	var obs *tensor.Tensor
	if actor {
		r.atp.Reset()
		var err error
		if obs, err = actorcritic.ReadObs(&r.atp, b); err != nil {
			return nil, fmt.Errorf("redq: %w", err)
		}
		if d, err = r.actorDist(&r.atp, r.dist, obs); err != nil {
			return nil, fmt.Errorf("redq: actor: %w", err)
		}
	}
	r.stats["loss/critics"] = r.critics.Step(&r.ctp, r.q.Obs, r.q.Act, r.q.Returns)
	r.counters.Updates++
	if actor {
		alpha := r.alpha.Value()
		a := d.(*distribution.Independent).RSample(r.rng)
		logp := d.LogProb(a)
		var q *tensor.Tensor
		for _, qi := range r.critics.Values(&r.atp, obs, a) {
			if q == nil {
				q = qi
			} else {
				q = r.atp.Add(q, qi)
			}
		}
		q = r.atp.MulScalar(q, 1/float32(r.critics.Len()))
		loss := r.atp.Mean(r.atp.Sub(r.atp.MulScalar(logp, float32(alpha)), q))
		r.actorOpt.Step(&r.atp, loss)
		r.counters.ActorLoss = float64(loss.Item())
		r.counters.AlphaLoss = r.alpha.Step(logp.Data())
		r.counters.ActorUpdates++
	}
	r.stats["loss/actor"] = r.counters.ActorLoss
	r.stats["loss/alpha"] = r.counters.AlphaLoss
	r.stats["alpha"] = r.alpha.Value()
	r.critics.SoftUpdate(r.cfg.Tau)
	return r.stats, nil
}

// actorDist sets d to the actor's distribution for obs, on tp.
func (r *REDQ) actorDist(tp *tensor.Tape, d distribution.Distribution, obs *tensor.Tensor) (distribution.Distribution, error) {
	if err := r.head.Set(d, tp, r.mlp.Forward(tp, obs)); err != nil {
		return nil, err
	}
	return d, nil
}

// Postprocess does nothing: REDQ gives nothing back to the buffer.
func (r *REDQ) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state with algo.SaveParts.
func (r *REDQ) Save(w io.Writer) error {
	r.counters.Perm = r.perm
	return algo.SaveParts(w, r.parts()...)
}

// Load restores a state written by Save into a REDQ made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (r *REDQ) Load(rd io.Reader) error {
	if err := algo.LoadParts(rd, r.parts()...); err != nil {
		return err
	}
	if !isPerm(r.counters.Perm, len(r.perm)) {
		return fmt.Errorf("%w: redq: the critics' order %v is not a permutation of %d", algo.ErrState, r.counters.Perm, len(r.perm))
	}
	copy(r.perm, r.counters.Perm)
	r.counters.Perm = r.perm
	r.Schedule(r.counters.EnvSteps)
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

func (r *REDQ) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", r.aps),
		{Name: "actor_optim", Save: r.actorOpt.Save, Load: r.actorOpt.Load},
	}
	ps = append(ps, r.critics.Parts()...)
	ps = append(ps, r.alpha.Parts()...)
	return append(ps, algo.BinaryPart("policy_rng", r.polSrc), algo.BinaryPart("rng", r.src),
		algo.JSONPart("counters", &r.counters))
}
