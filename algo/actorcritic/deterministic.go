package actorcritic

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Deterministic is the state the off-policy actor-critics with a
// deterministic actor keep, and the methods they share: DDPG (package ddpg)
// and TD3 (package td3) embed it, set it up with Init and add their Update.
// It holds the actor, its target and its optimizer, the critics, the
// exploration policy and its random source, the counters, and the scratch of
// the updates. Its fields are for the algorithms built on it.
type Deterministic struct {
	// Actor is μ(s), Target its Polyak-averaged copy μ′; ActorOpt trains
	// ActorParams, TargetParams are Target's.
	Actor, Target             *DeterministicActor
	ActorParams, TargetParams nn.Params
	ActorOpt                  *Optimizer
	// CriticNets are the critics and their targets.
	CriticNets *Critics
	// Pol explores with Actor.
	Pol *policy.Deterministic
	// Counters are saved with the state.
	Counters OffPolicyCounters
	// TargetNoise, when set, perturbs the target actor's actions in place
	// before the target critics evaluate them (TD3's smoothing).
	TargetNoise func(act []float32)
	// ActorLoss, when set, is the actor's loss given the batch b, the
	// actor's actions act = μ(s) and the first critic's values q = Q₁(s,
	// μ(s)), all on tp; nil means −mean(q) (DDPG's and TD3's). TD3+BC
	// adds its behaviour-cloning term here.
	ActorLoss func(tp *tensor.Tape, b *batch.Batch, act, q *tensor.Tensor) (*tensor.Tensor, error)
	// Norm, set by NormalizeObs, normalizes the observations before the
	// actor, the critics and their targets see them; nil for none.
	Norm *ObsNorm

	cfg           Continuous
	noise         policy.NoiseConfig
	act           env.Space
	obsDim        int
	actDim        int
	polSrc        *rand.PCG
	returns       algo.QReturns
	ctp, atp, ntp tensor.Tape // critic and actor steps; targets, without gradients
	q             QBatch
}

// OffPolicyCounters are the parts of an off-policy actor-critic's state that
// are not tensors.
type OffPolicyCounters struct {
	// Updates counts the updates (critic steps).
	Updates int64 `json:"updates"`
	// EnvSteps is the last value given to Schedule.
	EnvSteps int64 `json:"env_steps"`
}

// Init sets d up for an env with the spaces obs and act (Boxes of one axis)
// with the settings of cfg, n critics, an actor whose tanh output is scaled
// by maxAction and exploration noise. It draws from rng, in this order, the
// actor's weights, its target's (then overwritten by a copy of the actor),
// the critics' and the seed of the policy's random source; an algorithm
// drawing more seeds draws them after Init. It does not validate cfg. It
// returns an error wrapping ErrConfig, or naming the space, for settings or
// spaces that do not fit.
func (d *Deterministic) Init(cfg Continuous, n int, maxAction float64, noise policy.NoiseConfig, obs, act env.Space, rng *rand.Rand) error {
	obsDim, actDim, err := ContinuousDims(obs, act)
	if err != nil {
		return err
	}
	*d = Deterministic{cfg: cfg, noise: noise, act: act, obsDim: obsDim, actDim: actDim}
	if d.Actor, err = NewDeterministicActor(obsDim, actDim, cfg.ActorHidden, maxAction, rng); err != nil {
		return err
	}
	if d.Target, err = NewDeterministicActor(obsDim, actDim, cfg.ActorHidden, maxAction, rng); err != nil {
		return err
	}
	d.ActorParams, d.TargetParams = d.Actor.Params(), d.Target.Params()
	if err := nn.Copy(d.TargetParams, d.ActorParams); err != nil {
		return err
	}
	if d.ActorOpt, err = NewOptimizer(d.ActorParams, cfg.ActorOptim); err != nil {
		return fmt.Errorf("actor_optim: %w", err)
	}
	if d.CriticNets, err = NewCritics(n, cfg.Critic, obsDim, actDim, cfg.CriticOptim, rng); err != nil {
		return err
	}
	d.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	if err := d.newPolicy(d.Actor); err != nil {
		return err
	}
	d.ntp.SetGradEnabled(false)
	return nil
}

// newPolicy builds the exploration policy acting with the network net.
func (d *Deterministic) newPolicy(net nn.Layer) error {
	var err error
	d.Pol, err = policy.NewDeterministic(policy.ObsNet{Layer: net}, d.act, rand.New(d.polSrc),
		policy.DeterministicConfig{Map: d.cfg.Map, Noise: d.noise})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

// NormalizeObs puts an ObsNorm (the identity until fitted) in front of the
// actor, the critics and their targets, and rebuilds the policy so that it
// normalizes too: its parameters then start with the ObsNorm's, which a
// policy file therefore carries. Call it once, right after Init; the random
// source of the policy continues where it was.
func (d *Deterministic) NormalizeObs() error {
	d.Norm = NewObsNorm(d.obsDim)
	return d.newPolicy(&normalized{norm: d.Norm, layer: d.Actor, ps: append(d.Norm.Params(), d.ActorParams...)})
}

// normalize applies Norm, if set, to the observations obs on tp.
func (d *Deterministic) normalize(tp *tensor.Tape, obs *tensor.Tensor) *tensor.Tensor {
	if d.Norm == nil {
		return obs
	}
	return d.Norm.Forward(tp, obs)
}

// Policy returns the exploration policy (a *policy.Deterministic).
func (d *Deterministic) Policy() policy.Policy { return d.Pol }

// Critics returns the critics and their targets.
func (d *Deterministic) Critics() *Critics { return d.CriticNets }

// Params returns the actor's, the critics' and the targets' parameters
// (prefixed "actor", "actor_target", "critics", "critics_target").
func (d *Deterministic) Params() nn.Params {
	ps := append(d.ActorParams.Prefixed("actor"), d.TargetParams.Prefixed("actor_target")...)
	ps = append(ps, d.CriticNets.Params().Prefixed("critics")...)
	return append(ps, d.CriticNets.TargetParams().Prefixed("critics_target")...)
}

// Updates returns the number of updates (critic steps) taken.
func (d *Deterministic) Updates() int64 { return d.Counters.Updates }

// Schedule sets the exploration noise for envSteps env steps of training
// (a decaying σ). It implements algo.Scheduled.
func (d *Deterministic) Schedule(envSteps int64) {
	d.Counters.EnvSteps = envSteps
	if nz := d.Pol.Noise(); nz != nil {
		nz.Schedule(envSteps)
	}
}

// Preprocess stores in b the n-step returns (algo.QReturns) with the target
// values minᵢ Q′ᵢ(s′, μ′(s′)), μ′'s actions perturbed by TargetNoise when
// set, under "returns". It returns an error for observations the networks
// cannot take.
func (d *Deterministic) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return d.returns.Preprocess(b, buf, indices, d.cfg.Gamma, d.cfg.NStep, d.targets)
}

func (d *Deterministic) targets(dst []float32, next *batch.Batch) error {
	d.ntp.Reset()
	obs, err := NextObs(&d.ntp, next)
	if err != nil {
		return err
	}
	obs = d.normalize(&d.ntp, obs)
	a := d.Target.Forward(&d.ntp, obs)
	if d.TargetNoise != nil {
		d.TargetNoise(a.Data())
	}
	d.CriticNets.TargetMinTo(dst, &d.ntp, obs, a, nil)
	return nil
}

// CriticStep makes one step of the critics on b's obs, act and returns and
// returns the sum of their losses, or an error, changing nothing, for a
// batch without those keys or of other shapes.
func (d *Deterministic) CriticStep(b *batch.Batch) (float64, error) {
	d.ctp.Reset()
	if err := d.q.Read(&d.ctp, b, d.actDim); err != nil {
		return 0, err
	}
	return d.CriticNets.Step(&d.ctp, d.normalize(&d.ctp, d.q.Obs), d.q.Act, d.q.Returns), nil
}

// ActorStep makes one step of the actor on b's obs, minimizing ActorLoss
// (by default maximizing the first critic's Q(s, μ(s))), then moves the
// actor's and the critics' targets by a Polyak step of τ. It returns the
// actor's loss, or an error, changing nothing, for a batch without obs or
// one ActorLoss refuses.
func (d *Deterministic) ActorStep(b *batch.Batch) (float64, error) {
	d.atp.Reset()
	obs, err := ReadObs(&d.atp, b)
	if err != nil {
		return 0, err
	}
	obs = d.normalize(&d.atp, obs)
	act := d.Actor.Forward(&d.atp, obs)
	q := d.CriticNets.Online[0].Q(&d.atp, obs, act)
	var loss *tensor.Tensor
	if d.ActorLoss == nil {
		loss = d.atp.Neg(d.atp.Mean(q))
	} else if loss, err = d.ActorLoss(&d.atp, b, act, q); err != nil {
		return 0, err
	}
	d.ActorOpt.Step(&d.atp, loss)
	algo.UpdateTarget(d.TargetParams, d.ActorParams, 0, 0, d.cfg.Tau)
	d.CriticNets.SoftUpdate(d.cfg.Tau)
	return float64(loss.Item()), nil
}

// Postprocess does nothing: these algorithms give nothing back to the
// buffer.
func (d *Deterministic) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state, Parts(&d.Counters), with algo.SaveParts.
func (d *Deterministic) Save(w io.Writer) error {
	return algo.SaveParts(w, d.Parts(&d.Counters)...)
}

// Load restores a state written by Save into an algorithm made with the
// same configuration; it returns an error wrapping algo.ErrState otherwise.
func (d *Deterministic) Load(r io.Reader) error { return d.LoadParts(r, d.Parts(&d.Counters)...) }

// LoadParts loads parts with algo.LoadParts, then sets the exploration noise
// for the restored env steps.
func (d *Deterministic) LoadParts(r io.Reader, parts ...algo.Part) error {
	if err := algo.LoadParts(r, parts...); err != nil {
		return err
	}
	d.Schedule(d.Counters.EnvSteps)
	return nil
}

// Parts returns the parts of the state: "actor", "actor_target",
// "actor_optim", the critics' parts, "policy_rng", "obs_norm" with Norm,
// then extra and last counters, a value holding d.Counters saved as JSON
// under "counters".
func (d *Deterministic) Parts(counters any, extra ...algo.Part) []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", d.ActorParams),
		algo.ParamsPart("actor_target", d.TargetParams),
		{Name: "actor_optim", Save: d.ActorOpt.Save, Load: d.ActorOpt.Load},
	}
	if d.Norm != nil {
		ps = append(ps, algo.ParamsPart("obs_norm", d.Norm.Params()))
	}
	ps = append(ps, d.CriticNets.Parts()...)
	ps = append(ps, algo.BinaryPart("policy_rng", d.polSrc))
	ps = append(ps, extra...)
	return append(ps, algo.JSONPart("counters", counters))
}
