package ddpg

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// DDPG is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type DDPG struct {
	cfg           Config
	m             int
	actor, target *actorcritic.DeterministicActor
	aps, tps      nn.Params
	actorOpt      *actorcritic.Optimizer
	critics       *actorcritic.Critics
	pol           *policy.Deterministic
	polSrc        *rand.PCG
	counters      counters

	returns  algo.QReturns
	ctp, atp tensor.Tape // critic and actor steps
	ntp      tensor.Tape // targets, without gradients
	q        actorcritic.QBatch
	stats    map[string]float64
}

type counters struct {
	Updates  int64 `json:"updates"`
	EnvSteps int64 `json:"env_steps"`
}

// New returns a DDPG for an env with the given spaces, its weights and the
// seed of its policy's random source drawn from rng. It returns an error
// wrapping ErrConfig for an invalid cfg, and one naming the space for an
// observation or action space that is not a Box of one axis.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*DDPG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, m, err := actorcritic.ContinuousDims(obs, act)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d := &DDPG{cfg: cfg, m: m, stats: map[string]float64{"loss/actor": 0, "loss/critic": 0}}
	if d.actor, err = actorcritic.NewDeterministicActor(n, m, cfg.ActorHidden, cfg.MaxAction, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if d.target, err = actorcritic.NewDeterministicActor(n, m, cfg.ActorHidden, cfg.MaxAction, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.aps, d.tps = d.actor.Params(), d.target.Params()
	if err := nn.Copy(d.tps, d.aps); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if d.actorOpt, err = actorcritic.NewOptimizer(d.aps, cfg.ActorOptim); err != nil {
		return nil, fmt.Errorf("%w: actor_optim: %w", ErrConfig, err)
	}
	if d.critics, err = actorcritic.NewCritics(1, cfg.Critic, n, m, cfg.CriticOptim, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	d.pol, err = policy.NewDeterministic(policy.ObsNet{Layer: d.actor}, act, rand.New(d.polSrc),
		policy.DeterministicConfig{Map: cfg.Map, Noise: cfg.Noise})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.ntp.SetGradEnabled(false)
	return d, nil
}

// Config returns the configuration.
func (d *DDPG) Config() Config { return d.cfg }

// Policy returns the policy (a *policy.Deterministic).
func (d *DDPG) Policy() policy.Policy { return d.pol }

// Critics returns the critic and its target.
func (d *DDPG) Critics() *actorcritic.Critics { return d.critics }

// Params returns the actor's, the critic's and the targets' parameters
// (prefixed "actor", "actor_target", "critics", "critics_target").
func (d *DDPG) Params() nn.Params {
	ps := append(d.aps.Prefixed("actor"), d.tps.Prefixed("actor_target")...)
	ps = append(ps, d.critics.Params().Prefixed("critics")...)
	return append(ps, d.critics.TargetParams().Prefixed("critics_target")...)
}

// Updates returns the number of gradient steps taken.
func (d *DDPG) Updates() int64 { return d.counters.Updates }

// Schedule sets the exploration noise for envSteps env steps of training
// (a decaying σ). It implements algo.Scheduled.
func (d *DDPG) Schedule(envSteps int64) {
	d.counters.EnvSteps = envSteps
	if nz := d.pol.Noise(); nz != nil {
		nz.Schedule(envSteps)
	}
}

// Preprocess stores in b the n-step returns (algo.QReturns) with the target
// values Q′(s′, μ′(s′)) under "returns". It returns an error for
// observations the networks cannot take.
func (d *DDPG) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return d.returns.Preprocess(b, buf, indices, d.cfg.Gamma, d.cfg.NStep, d.targets)
}

func (d *DDPG) targets(dst []float32, next *batch.Batch) error {
	d.ntp.Reset()
	obs, err := actorcritic.NextObs(&d.ntp, next)
	if err != nil {
		return err
	}
	d.critics.TargetMinTo(dst, &d.ntp, obs, d.target.Forward(&d.ntp, obs), nil)
	return nil
}

// Update makes one critic step and one actor step on b (obs, act and
// returns), then moves the targets. It returns "loss/critic" and
// "loss/actor" in a map owned by the DDPG, and an error, changing nothing,
// for a batch without those keys or of other shapes.
func (d *DDPG) Update(b *batch.Batch) (map[string]float64, error) {
	d.ctp.Reset()
	if err := d.q.Read(&d.ctp, b, d.m); err != nil {
		return nil, fmt.Errorf("ddpg: %w", err)
	}
	d.stats["loss/critic"] = d.critics.Step(&d.ctp, d.q.Obs, d.q.Act, d.q.Returns)
	d.atp.Reset()
	obs, err := actorcritic.ReadObs(&d.atp, b)
	if err != nil {
		return nil, fmt.Errorf("ddpg: %w", err)
	}
	q := d.critics.Online[0].Q(&d.atp, obs, d.actor.Forward(&d.atp, obs))
	loss := d.atp.Neg(d.atp.Mean(q))
	d.actorOpt.Step(&d.atp, loss)
	d.stats["loss/actor"] = float64(loss.Item())
	d.counters.Updates++
	algo.UpdateTarget(d.tps, d.aps, 0, 0, d.cfg.Tau)
	d.critics.SoftUpdate(d.cfg.Tau)
	return d.stats, nil
}

// Postprocess does nothing: DDPG gives nothing back to the buffer.
func (d *DDPG) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state with algo.SaveParts.
func (d *DDPG) Save(w io.Writer) error { return algo.SaveParts(w, d.parts()...) }

// Load restores a state written by Save into a DDPG made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (d *DDPG) Load(r io.Reader) error {
	if err := algo.LoadParts(r, d.parts()...); err != nil {
		return err
	}
	d.Schedule(d.counters.EnvSteps)
	return nil
}

func (d *DDPG) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", d.aps),
		algo.ParamsPart("actor_target", d.tps),
		{Name: "actor_optim", Save: d.actorOpt.Save, Load: d.actorOpt.Load},
	}
	ps = append(ps, d.critics.Parts()...)
	return append(ps, algo.BinaryPart("policy_rng", d.polSrc), algo.JSONPart("counters", &d.counters))
}
