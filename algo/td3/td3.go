package td3

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

// TD3 is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type TD3 struct {
	cfg           Config
	m             int
	actor, target *actorcritic.DeterministicActor
	aps, tps      nn.Params
	actorOpt      *actorcritic.Optimizer
	critics       *actorcritic.Critics
	pol           *policy.Deterministic
	polSrc, src   *rand.PCG
	rng           *rand.Rand
	counters      counters

	returns  algo.QReturns
	ctp, atp tensor.Tape
	ntp      tensor.Tape
	q        actorcritic.QBatch
	stats    map[string]float64
}

type counters struct {
	Updates      int64 `json:"updates"`
	ActorUpdates int64 `json:"actor_updates"`
	EnvSteps     int64 `json:"env_steps"`
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
	n, m, err := actorcritic.ContinuousDims(obs, act)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d := &TD3{cfg: cfg, m: m, stats: map[string]float64{"loss/actor": 0, "loss/critics": 0}}
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
	if d.critics, err = actorcritic.NewCritics(2, cfg.Critic, n, m, cfg.CriticOptim, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	d.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	d.rng = rand.New(d.src)
	d.pol, err = policy.NewDeterministic(policy.ObsNet{Layer: d.actor}, act, rand.New(d.polSrc),
		policy.DeterministicConfig{Map: cfg.Map, Noise: cfg.Noise})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.ntp.SetGradEnabled(false)
	return d, nil
}

// Config returns the configuration.
func (d *TD3) Config() Config { return d.cfg }

// Policy returns the policy (a *policy.Deterministic).
func (d *TD3) Policy() policy.Policy { return d.pol }

// Critics returns the twin critics and their targets.
func (d *TD3) Critics() *actorcritic.Critics { return d.critics }

// Params returns the actor's, the critics' and the targets' parameters
// (prefixed "actor", "actor_target", "critics", "critics_target").
func (d *TD3) Params() nn.Params {
	ps := append(d.aps.Prefixed("actor"), d.tps.Prefixed("actor_target")...)
	ps = append(ps, d.critics.Params().Prefixed("critics")...)
	return append(ps, d.critics.TargetParams().Prefixed("critics_target")...)
}

// Updates returns the number of critic updates, ActorUpdates the number of
// actor (and target) updates.
func (d *TD3) Updates() int64 { return d.counters.Updates }

// ActorUpdates returns the number of actor updates.
func (d *TD3) ActorUpdates() int64 { return d.counters.ActorUpdates }

// Schedule sets the exploration noise for envSteps env steps of training.
// It implements algo.Scheduled.
func (d *TD3) Schedule(envSteps int64) {
	d.counters.EnvSteps = envSteps
	if nz := d.pol.Noise(); nz != nil {
		nz.Schedule(envSteps)
	}
}

// Preprocess stores in b the n-step returns (algo.QReturns) with the target
// values minᵢ Q′ᵢ(s′, μ′(s′) + clipped noise) under "returns".
func (d *TD3) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return d.returns.Preprocess(b, buf, indices, d.cfg.Gamma, d.cfg.NStep, d.targets)
}

func (d *TD3) targets(dst []float32, next *batch.Batch) error {
	d.ntp.Reset()
	obs, err := actorcritic.NextObs(&d.ntp, next)
	if err != nil {
		return err
	}
	a := d.target.Forward(&d.ntp, obs)
	Smooth(a.Data(), d.cfg.PolicyNoise, d.cfg.NoiseClip, d.rng)
	d.critics.TargetMinTo(dst, &d.ntp, obs, a, nil)
	return nil
}

// Smooth adds target policy smoothing noise to the actions act: σ·ε with
// ε ~ N(0, 1) from rng.NormFloat64, clipped to [−clip, clip] when clip > 0.
// σ = 0 adds nothing and draws nothing.
func Smooth(act []float32, sigma, clip float64, rng *rand.Rand) {
	if sigma == 0 {
		return
	}
	for i := range act {
		e := sigma * rng.NormFloat64()
		if clip > 0 {
			e = min(max(e, -clip), clip)
		}
		act[i] += float32(e)
	}
}

// Update makes one step of the critics on b (obs, act and returns) and,
// every UpdateActorFreq-th update starting with the first, one step of the
// actor followed by the targets' Polyak step. It returns "loss/critics"
// (the sum of both critics' losses) and "loss/actor" (of the last actor
// step) in a map owned by the TD3, and an error, changing nothing, for a
// batch without those keys or of other shapes.
func (d *TD3) Update(b *batch.Batch) (map[string]float64, error) {
	d.ctp.Reset()
	if err := d.q.Read(&d.ctp, b, d.m); err != nil {
		return nil, fmt.Errorf("td3: %w", err)
	}
	d.stats["loss/critics"] = d.critics.Step(&d.ctp, d.q.Obs, d.q.Act, d.q.Returns)
	if d.counters.Updates%int64(d.cfg.UpdateActorFreq) == 0 {
		d.atp.Reset()
		obs, err := actorcritic.ReadObs(&d.atp, b)
		if err != nil {
			return nil, fmt.Errorf("td3: %w", err)
		}
		q := d.critics.Online[0].Q(&d.atp, obs, d.actor.Forward(&d.atp, obs))
		loss := d.atp.Neg(d.atp.Mean(q))
		d.actorOpt.Step(&d.atp, loss)
		d.counters.ActorLoss = float64(loss.Item())
		d.counters.ActorUpdates++
		algo.UpdateTarget(d.tps, d.aps, 0, 0, d.cfg.Tau)
		d.critics.SoftUpdate(d.cfg.Tau)
	}
	d.counters.Updates++
	d.stats["loss/actor"] = d.counters.ActorLoss
	return d.stats, nil
}

// Postprocess does nothing: TD3 gives nothing back to the buffer.
func (d *TD3) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state with algo.SaveParts.
func (d *TD3) Save(w io.Writer) error { return algo.SaveParts(w, d.parts()...) }

// Load restores a state written by Save into a TD3 made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (d *TD3) Load(r io.Reader) error {
	if err := algo.LoadParts(r, d.parts()...); err != nil {
		return err
	}
	d.Schedule(d.counters.EnvSteps)
	return nil
}

func (d *TD3) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", d.aps),
		algo.ParamsPart("actor_target", d.tps),
		{Name: "actor_optim", Save: d.actorOpt.Save, Load: d.actorOpt.Load},
	}
	ps = append(ps, d.critics.Parts()...)
	return append(ps, algo.BinaryPart("policy_rng", d.polSrc), algo.BinaryPart("rng", d.src),
		algo.JSONPart("counters", &d.counters))
}
