package actorcritic

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Squashed is the state the off-policy actor-critics with a tanh-squashed
// Gaussian actor and a temperature keep, and the methods they share: SAC
// (package sac) and REDQ (package redq) embed it, set it up with Init and
// add their Update from its steps. Its fields are for the algorithms built
// on it.
type Squashed struct {
	// Head and MLP are the actor; Pol acts with them, ActorOpt trains
	// ActorParams (Pol's parameters).
	Head        *SquashedHead
	MLP         *nn.MLP
	Pol         *policy.Actor
	ActorParams nn.Params
	ActorOpt    *Optimizer
	// CriticNets are the critics and their targets, Temp the temperature α.
	CriticNets *Critics
	Temp       *Alpha
	// Rng is the algorithm's random source: the targets' and the actor
	// step's actions, and what an algorithm draws besides (REDQ's subsets).
	Rng *rand.Rand
	// Counters are saved with the state.
	Counters OffPolicyCounters
	// TargetSubset, when set, returns the target critics whose minimum a
	// target takes (REDQ's subsets); it is called once per target, after
	// the next actions are sampled. Unset, all of them.
	TargetSubset func() []int

	cfg         Continuous
	meanQ       bool
	actDim      int
	polSrc, src *rand.PCG
	dist, ndist distribution.Distribution // of the update and of the targets
	returns     algo.QReturns
	ctp, atp    tensor.Tape // critic and actor steps
	ntp         tensor.Tape // targets, without gradients
	q           QBatch
	aobs        *tensor.Tensor // ReadActor's obs
}

// SquashedSettings are the settings of Squashed.Init besides Continuous.
type SquashedSettings struct {
	// Critics is the number of critics.
	Critics int
	// Temperature and TargetEntropy set α (nil: −dim(A)).
	Temperature   Temperature
	TargetEntropy *float64
	// FreeStd makes log σ a parameter starting at LogStdInit rather than an
	// output of the actor.
	FreeStd    bool
	LogStdInit float32
	// MeanQ makes the actor maximize the mean of the critics (REDQ) rather
	// than their minimum (SAC).
	MeanQ bool
	// Policy configures the policy.
	Policy policy.ActorConfig
}

// Init sets s up for an env with the spaces obs and act (Boxes of one axis)
// with the settings of cfg and set. It draws from rng, in this order, the
// actor's weights, the critics', the seed of the policy's random source and
// that of Rng. It does not validate cfg. It returns an error wrapping
// ErrConfig, or naming the space, for settings or spaces that do not fit.
func (s *Squashed) Init(cfg Continuous, set SquashedSettings, obs, act env.Space, rng *rand.Rand) error {
	obsDim, actDim, err := ContinuousDims(obs, act)
	if err != nil {
		return err
	}
	*s = Squashed{cfg: cfg, meanQ: set.MeanQ, actDim: actDim}
	targetEntropy := -float64(actDim)
	if set.TargetEntropy != nil {
		targetEntropy = *set.TargetEntropy
	}
	if s.Temp, err = NewAlpha(set.Temperature, targetEntropy); err != nil {
		return err
	}
	s.Head = NewSquashedHead(actDim, set.FreeStd, set.LogStdInit)
	if s.MLP, err = nn.NewMLP(nn.MLPConfig{In: obsDim, Hidden: cfg.ActorHidden, Out: s.Head.Width()}, rng); err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	if s.CriticNets, err = NewCritics(set.Critics, cfg.Critic, obsDim, actDim, cfg.CriticOptim, rng); err != nil {
		return err
	}
	s.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	s.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	s.Rng = rand.New(s.src)
	s.dist, s.ndist = s.Head.New(), s.Head.New()
	if s.Pol, err = policy.NewActor(policy.ObsNet{Layer: s.MLP}, s.Head, act, rand.New(s.polSrc), set.Policy); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.ActorParams = s.Pol.Params()
	if s.ActorOpt, err = NewOptimizer(s.ActorParams, cfg.ActorOptim); err != nil {
		return fmt.Errorf("actor_optim: %w", err)
	}
	s.ntp.SetGradEnabled(false)
	return nil
}

// Policy returns the policy (a *policy.Actor).
func (s *Squashed) Policy() policy.Policy { return s.Pol }

// Critics returns the critics and their targets.
func (s *Squashed) Critics() *Critics { return s.CriticNets }

// Alpha returns the current temperature α = exp(log α).
func (s *Squashed) Alpha() float64 { return s.Temp.Value() }

// Params returns the actor's, the critics', the targets' parameters and log
// α (prefixed "actor", "critics", "critics_target"; "log_alpha").
func (s *Squashed) Params() nn.Params {
	ps := append(s.ActorParams.Prefixed("actor"), s.CriticNets.Params().Prefixed("critics")...)
	ps = append(ps, s.CriticNets.TargetParams().Prefixed("critics_target")...)
	return append(ps, s.Temp.Params()...)
}

// Updates returns the number of updates (critic steps) taken.
func (s *Squashed) Updates() int64 { return s.Counters.Updates }

// Schedule sets the exploration noise for envSteps env steps of training.
// It implements algo.Scheduled.
func (s *Squashed) Schedule(envSteps int64) {
	s.Counters.EnvSteps = envSteps
	if nz := s.Pol.Noise(); nz != nil {
		nz.Schedule(envSteps)
	}
}

// Preprocess stores in b the n-step returns (algo.QReturns) with the soft
// target values min Q′ᵢ(s′, a′) − α·log π(a′|s′) over the target critics
// (those of TargetSubset when set), a′ sampled from the current policy with
// Rng, under "returns".
func (s *Squashed) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return s.returns.Preprocess(b, buf, indices, s.cfg.Gamma, s.cfg.NStep, s.targets)
}

func (s *Squashed) targets(dst []float32, next *batch.Batch) error {
	s.ntp.Reset()
	obs, err := NextObs(&s.ntp, next)
	if err != nil {
		return err
	}
	d, err := s.actorDist(&s.ntp, s.ndist, obs)
	if err != nil {
		return fmt.Errorf("actorcritic: actor on obs_next: %w", err)
	}
	a := d.Sample(s.Rng)
	logp := d.LogProb(a).Data()
	var subset []int
	if s.TargetSubset != nil {
		subset = s.TargetSubset()
	}
	s.CriticNets.TargetMinTo(dst, &s.ntp, obs, a, subset)
	alpha := float32(s.Alpha())
	for i := range dst {
		dst[i] -= alpha * logp[i]
	}
	return nil
}

// ReadCritic reads b's obs, act and returns for CriticStep. It returns an
// error for a batch without those keys or of other shapes.
func (s *Squashed) ReadCritic(b *batch.Batch) error {
	s.ctp.Reset()
	return s.q.Read(&s.ctp, b, s.actDim)
}

// CriticStep makes one step of the critics on the batch ReadCritic read and
// returns the sum of their losses.
func (s *Squashed) CriticStep() float64 {
	return s.CriticNets.Step(&s.ctp, s.q.Obs, s.q.Act, s.q.Returns)
}

// CriticStepWith is CriticStep with penalty's result added to the
// critics' loss (CQL's conservative penalty): penalty records its scalar on
// tp, the critics' tape, given the batch's observations and actions as
// ReadCritic read them. It returns the critics' TD loss (as CriticStep) and
// the penalty.
func (s *Squashed) CriticStepWith(penalty func(tp *tensor.Tape, obs, act *tensor.Tensor) *tensor.Tensor) (td, pen float64) {
	tdl := s.CriticNets.TDLoss(&s.ctp, s.q.Obs, s.q.Act, s.q.Returns)
	p := penalty(&s.ctp, s.q.Obs, s.q.Act)
	s.CriticNets.StepLoss(&s.ctp, s.ctp.Add(tdl, p))
	return float64(tdl.Item()), float64(p.Item())
}

// ReadActor computes the actor's distribution on b's obs for ActorStep. It
// returns an error for a batch without obs or an actor whose distribution
// diverged (NaN parameters).
func (s *Squashed) ReadActor(b *batch.Batch) error {
	s.atp.Reset()
	obs, err := ReadObs(&s.atp, b)
	if err != nil {
		return err
	}
	if _, err := s.actorDist(&s.atp, s.dist, obs); err != nil {
		return fmt.Errorf("actorcritic: actor: %w", err)
	}
	s.aobs = obs
	return nil
}

// ActorStep makes one step of the actor on the batch ReadActor read,
// minimizing α·log π(a|s) − Q(s, a) with a reparameterized a, Q the
// critics' minimum or mean (SquashedSettings.MeanQ), then one step of α. It
// returns the actor's and α's losses.
func (s *Squashed) ActorStep() (actor, alpha float64) {
	a := s.dist.(*distribution.Independent).RSample(s.Rng)
	logp := s.dist.LogProb(a)
	qs := s.CriticNets.Values(&s.atp, s.aobs, a)
	q := qs[0]
	for _, qi := range qs[1:] {
		if s.meanQ {
			q = s.atp.Add(q, qi)
		} else {
			q = s.atp.Minimum(q, qi)
		}
	}
	if s.meanQ {
		q = s.atp.MulScalar(q, 1/float32(len(qs)))
	}
	loss := s.atp.Mean(s.atp.Sub(s.atp.MulScalar(logp, float32(s.Alpha())), q))
	s.ActorOpt.Step(&s.atp, loss)
	return float64(loss.Item()), s.Temp.Step(logp.Data())
}

// SoftUpdate moves the critics' targets by a Polyak step of τ.
func (s *Squashed) SoftUpdate() { s.CriticNets.SoftUpdate(s.cfg.Tau) }

func (s *Squashed) actorDist(tp *tensor.Tape, d distribution.Distribution, obs *tensor.Tensor) (distribution.Distribution, error) {
	if err := s.Head.Set(d, tp, s.MLP.Forward(tp, obs)); err != nil {
		return nil, err
	}
	return d, nil
}

// Postprocess does nothing: these algorithms give nothing back to the
// buffer.
func (s *Squashed) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state, Parts(&s.Counters), with algo.SaveParts.
func (s *Squashed) Save(w io.Writer) error { return algo.SaveParts(w, s.Parts(&s.Counters)...) }

// Load restores a state written by Save into an algorithm made with the
// same configuration; it returns an error wrapping algo.ErrState otherwise.
func (s *Squashed) Load(r io.Reader) error { return s.LoadParts(r, s.Parts(&s.Counters)...) }

// LoadParts loads parts with algo.LoadParts, then sets the exploration noise
// for the restored env steps.
func (s *Squashed) LoadParts(r io.Reader, parts ...algo.Part) error {
	if err := algo.LoadParts(r, parts...); err != nil {
		return err
	}
	s.Schedule(s.Counters.EnvSteps)
	return nil
}

// Parts returns the parts of the state: "actor", "actor_optim", the
// critics' and α's parts, "policy_rng", "rng" and counters, a value holding
// s.Counters saved as JSON under "counters".
func (s *Squashed) Parts(counters any) []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", s.ActorParams),
		{Name: "actor_optim", Save: s.ActorOpt.Save, Load: s.ActorOpt.Load},
	}
	ps = append(ps, s.CriticNets.Parts()...)
	ps = append(ps, s.Temp.Parts()...)
	return append(ps, algo.BinaryPart("policy_rng", s.polSrc), algo.BinaryPart("rng", s.src),
		algo.JSONPart("counters", counters))
}
