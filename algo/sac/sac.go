package sac

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

// SAC is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type SAC struct {
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

	returns  algo.QReturns
	ctp, atp tensor.Tape
	ntp      tensor.Tape
	q        actorcritic.QBatch
	stats    map[string]float64
}

type counters struct {
	Updates  int64 `json:"updates"`
	EnvSteps int64 `json:"env_steps"`
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
	n, m, err := actorcritic.ContinuousDims(obs, act)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s := &SAC{cfg: cfg, m: m,
		stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "loss/alpha": 0, "alpha": 0}}
	targetEntropy := -float64(m)
	if cfg.TargetEntropy != nil {
		targetEntropy = *cfg.TargetEntropy
	}
	if s.alpha, err = actorcritic.NewAlpha(cfg.Temperature, targetEntropy); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.head = actorcritic.NewSquashedHead(m, !cfg.StateDependentStd, float32(cfg.LogStdInit))
	mlp, err := nn.NewMLP(nn.MLPConfig{In: n, Hidden: cfg.ActorHidden, Out: s.head.Width()}, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: actor: %w", ErrConfig, err)
	}
	if s.critics, err = actorcritic.NewCritics(2, cfg.Critic, n, m, cfg.CriticOptim, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	s.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	s.rng = rand.New(s.src)
	s.mlp, s.dist, s.ndist = mlp, s.head.New(), s.head.New()
	s.pol, err = policy.NewActor(policy.ObsNet{Layer: mlp}, s.head, act, rand.New(s.polSrc),
		policy.ActorConfig{DeterministicEval: cfg.DeterministicEval, Map: cfg.Map, Noise: cfg.Noise})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.aps = s.pol.Params()
	if s.actorOpt, err = actorcritic.NewOptimizer(s.aps, cfg.ActorOptim); err != nil {
		return nil, fmt.Errorf("%w: actor_optim: %w", ErrConfig, err)
	}
	s.ntp.SetGradEnabled(false)
	return s, nil
}

// Config returns the configuration.
func (s *SAC) Config() Config { return s.cfg }

// Policy returns the policy (a *policy.Actor).
func (s *SAC) Policy() policy.Policy { return s.pol }

// Critics returns the twin critics and their targets.
func (s *SAC) Critics() *actorcritic.Critics { return s.critics }

// Alpha returns the current temperature α = exp(log α).
func (s *SAC) Alpha() float64 { return s.alpha.Value() }

// TargetEntropy returns the entropy AutoAlpha aims at.
func (s *SAC) TargetEntropy() float64 { return s.alpha.TargetEntropy() }

// Params returns the actor's, the critics', the targets' parameters and log
// α (prefixed "actor", "critics", "critics_target"; "log_alpha").
func (s *SAC) Params() nn.Params {
	ps := append(s.aps.Prefixed("actor"), s.critics.Params().Prefixed("critics")...)
	ps = append(ps, s.critics.TargetParams().Prefixed("critics_target")...)
	return append(ps, s.alpha.Params()...)
}

// Updates returns the number of gradient steps taken.
func (s *SAC) Updates() int64 { return s.counters.Updates }

// Schedule sets the exploration noise for envSteps env steps of training.
// It implements algo.Scheduled.
func (s *SAC) Schedule(envSteps int64) {
	s.counters.EnvSteps = envSteps
	if nz := s.pol.Noise(); nz != nil {
		nz.Schedule(envSteps)
	}
}

// Preprocess stores in b the n-step returns (algo.QReturns) with the soft
// target values minᵢ Q′ᵢ(s′, a′) − α·log π(a′|s′), a′ sampled from the
// current policy with the SAC's random source, under "returns".
func (s *SAC) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return s.returns.Preprocess(b, buf, indices, s.cfg.Gamma, s.cfg.NStep, s.targets)
}

func (s *SAC) targets(dst []float32, next *batch.Batch) error {
	s.ntp.Reset()
	obs, err := actorcritic.NextObs(&s.ntp, next)
	if err != nil {
		return err
	}
	d, err := s.actorDist(&s.ntp, s.ndist, obs)
	if err != nil {
		return fmt.Errorf("sac: actor on obs_next: %w", err)
	}
	a := d.Sample(s.rng)
	logp := d.LogProb(a).Data()
	s.critics.TargetMinTo(dst, &s.ntp, obs, a, nil)
	alpha := float32(s.Alpha())
	for i := range dst {
		dst[i] -= alpha * logp[i]
	}
	return nil
}

// Update makes one step of the critics on b (obs, act and returns), one of
// the actor, one of log α with AutoAlpha, and the critics' targets' Polyak
// step. It returns "loss/critics" (both critics' losses summed),
// "loss/actor", "loss/alpha" and "alpha" in a map owned by the SAC, and an
// error, changing nothing, for a batch without those keys or of other
// shapes, or with an actor whose distribution diverged (NaN parameters).
func (s *SAC) Update(b *batch.Batch) (map[string]float64, error) {
	s.ctp.Reset()
	if err := s.q.Read(&s.ctp, b, s.m); err != nil {
		return nil, fmt.Errorf("sac: %w", err)
	}
	s.atp.Reset()
	obs, err := actorcritic.ReadObs(&s.atp, b)
	if err != nil {
		return nil, fmt.Errorf("sac: %w", err)
	}
	d, err := s.actorDist(&s.atp, s.dist, obs)
	if err != nil {
		return nil, fmt.Errorf("sac: actor: %w", err)
	}
	s.stats["loss/critics"] = s.critics.Step(&s.ctp, s.q.Obs, s.q.Act, s.q.Returns)
	alpha := s.Alpha()
	a := d.(*distribution.Independent).RSample(s.rng)
	logp := d.LogProb(a)
	qs := s.critics.Values(&s.atp, obs, a)
	q := s.atp.Minimum(qs[0], qs[1])
	loss := s.atp.Mean(s.atp.Sub(s.atp.MulScalar(logp, float32(alpha)), q))
	s.actorOpt.Step(&s.atp, loss)
	s.stats["loss/actor"] = float64(loss.Item())
	s.stats["loss/alpha"] = s.alpha.Step(logp.Data())
	s.stats["alpha"] = s.Alpha()
	s.counters.Updates++
	s.critics.SoftUpdate(s.cfg.Tau)
	return s.stats, nil
}

// actorDist sets d to the actor's distribution for obs, on tp.
func (s *SAC) actorDist(tp *tensor.Tape, d distribution.Distribution, obs *tensor.Tensor) (distribution.Distribution, error) {
	if err := s.head.Set(d, tp, s.mlp.Forward(tp, obs)); err != nil {
		return nil, err
	}
	return d, nil
}

// Postprocess does nothing: SAC gives nothing back to the buffer.
func (s *SAC) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state with algo.SaveParts.
func (s *SAC) Save(w io.Writer) error { return algo.SaveParts(w, s.parts()...) }

// Load restores a state written by Save into a SAC made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (s *SAC) Load(r io.Reader) error {
	if err := algo.LoadParts(r, s.parts()...); err != nil {
		return err
	}
	s.Schedule(s.counters.EnvSteps)
	return nil
}

func (s *SAC) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", s.aps),
		{Name: "actor_optim", Save: s.actorOpt.Save, Load: s.actorOpt.Load},
	}
	ps = append(ps, s.critics.Parts()...)
	ps = append(ps, s.alpha.Parts()...)
	return append(ps,
		algo.BinaryPart("policy_rng", s.polSrc), algo.BinaryPart("rng", s.src),
		algo.JSONPart("counters", &s.counters))
}
