package bcqc

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

// BCQ is continuous batch-constrained Q-learning, an algo.OffPolicy
// algorithm for offline training; see the package documentation. It is
// driven by one goroutine at a time.
type BCQ struct {
	cfg            Config
	vae            *VAE
	actor, target  *Perturbation
	actorPs, tgtPs nn.Params
	critics        *actorcritic.Critics
	vaeOpt, actOpt *actorcritic.Optimizer
	pol            *bcqPolicy
	src, polSrc    *rand.PCG
	rng            *rand.Rand
	actDim         int
	counters       counters
	stats          map[string]float64
	returns        algo.QReturns
	vtp, ctp       tensor.Tape // VAE and critic steps
	atp, ntp       tensor.Tape // actor step; targets, without gradients
	q              actorcritic.QBatch
	eps, za, zt    scratch
	rep            []int
}

type counters struct {
	Updates int64 `json:"updates"`
}

// New returns a continuous BCQ for an env with the given spaces, its
// weights and the seeds of its random sources drawn from rng (the VAE, Φ,
// Φ's target, the critics, then the update's and the policy's seeds). It
// returns an error wrapping ErrConfig for an invalid cfg, and one naming
// the space for an observation or action space that is not a Box of one
// axis (or, with MaxAction 0, an action space that is not [−h, h]).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*BCQ, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	obsDim, actDim, err := actorcritic.ContinuousDims(obs, act)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	maxAction := cfg.MaxAction
	if maxAction == 0 {
		if maxAction, err = actorcritic.MaxAction(act); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	latent := cfg.LatentDim
	if latent == 0 {
		latent = 2 * actDim
	}
	b := &BCQ{cfg: cfg, actDim: actDim, stats: map[string]float64{"loss/vae": 0, "loss/critics": 0, "loss/actor": 0}}
	if b.vae, err = newVAE(obsDim, actDim, cfg.VAEHidden, latent, maxAction, rng); err != nil {
		return nil, fmt.Errorf("%w: vae: %w", ErrConfig, err)
	}
	if b.actor, err = newPerturbation(obsDim, actDim, cfg.ActorHidden, cfg.Phi, maxAction, rng); err != nil {
		return nil, fmt.Errorf("%w: actor: %w", ErrConfig, err)
	}
	if b.target, err = newPerturbation(obsDim, actDim, cfg.ActorHidden, cfg.Phi, maxAction, rng); err != nil {
		return nil, fmt.Errorf("%w: actor: %w", ErrConfig, err)
	}
	b.actorPs, b.tgtPs = b.actor.Params(), b.target.Params()
	if err := nn.Copy(b.tgtPs, b.actorPs); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if b.critics, err = actorcritic.NewCritics(2, cfg.Critic, obsDim, actDim, cfg.CriticOptim, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if b.vaeOpt, err = actorcritic.NewOptimizer(b.vae.Params(), cfg.VAEOptim); err != nil {
		return nil, fmt.Errorf("%w: vae_optim: %w", ErrConfig, err)
	}
	if b.actOpt, err = actorcritic.NewOptimizer(b.actorPs, cfg.ActorOptim); err != nil {
		return nil, fmt.Errorf("%w: actor_optim: %w", ErrConfig, err)
	}
	b.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	b.rng = rand.New(b.src)
	b.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	ps := append(b.vae.Params().Prefixed("vae"), b.actorPs.Prefixed("actor")...)
	b.pol = &bcqPolicy{vae: b.vae, actor: b.actor, critic: b.critics.Online[0], space: act, n: cfg.ForwardSampledTimes, m: actDim,
		ps: append(ps, b.critics.Online[0].Params().Prefixed("critic")...), rng: rand.New(b.polSrc)}
	b.pol.tp.SetGradEnabled(false)
	b.ntp.SetGradEnabled(false)
	return b, nil
}

// Config returns the configuration.
func (b *BCQ) Config() Config { return b.cfg }

// Policy returns the policy: the best of ForwardSampledTimes perturbed
// decoded actions by Q₁, in the env's units.
func (b *BCQ) Policy() policy.Policy { return b.pol }

// Updates returns the number of updates taken.
func (b *BCQ) Updates() int64 { return b.counters.Updates }

// Critics returns the twin critics and their targets.
func (b *BCQ) Critics() *actorcritic.Critics { return b.critics }

// Params returns the VAE's, Φ's, Φ's target's, the critics' and the
// critics' targets' parameters (prefixed "vae", "actor", "actor_target",
// "critics", "critics_target").
func (b *BCQ) Params() nn.Params {
	ps := append(b.vae.Params().Prefixed("vae"), b.actorPs.Prefixed("actor")...)
	ps = append(ps, b.tgtPs.Prefixed("actor_target")...)
	ps = append(ps, b.critics.Params().Prefixed("critics")...)
	return append(ps, b.critics.TargetParams().Prefixed("critics_target")...)
}

// Preprocess stores in b the one-step returns r + γ·V′(s′) (algo.QReturns;
// no bootstrap after termination) under "returns", with V′(s′) the largest,
// over NumSampledAction actions decoded for s′ and perturbed by Φ's target,
// of λ·min(Q′₁, Q′₂) + (1 − λ)·max(Q′₁, Q′₂).
func (b *BCQ) Preprocess(bt *batch.Batch, buf buffer.Buffer, indices []int) error {
	return b.returns.Preprocess(bt, buf, indices, b.cfg.Gamma, 1, b.targets)
}

func (b *BCQ) targets(dst []float32, next *batch.Batch) error {
	b.ntp.Reset()
	obs, err := actorcritic.NextObs(&b.ntp, next)
	if err != nil {
		return err
	}
	k, n := obs.Dim(0), b.cfg.NumSampledAction
	b.rep = repeatIndex(b.rep, k, n)
	rep := b.ntp.IndexSelect(obs, 0, b.rep)
	z := b.zt.get(k*n, b.vae.Latent)
	fillLatent(z.Data(), b.rng, true)
	act := b.target.Forward(&b.ntp, rep, b.vae.Decode(&b.ntp, rep, z))
	q1 := b.critics.Target[0].Q(&b.ntp, rep, act).Data()
	q2 := b.critics.Target[1].Q(&b.ntp, rep, act).Data()
	TargetValuesTo(dst, q1, q2, n, b.cfg.Lambda)
	return nil
}

// Update makes one step of the VAE (VAELoss on b's obs and act), one of the
// critics (towards b's returns) and one of Φ (maximizing Q₁(s, Φ(s, a))
// for actions a decoded for b's observations), then moves Φ's and the
// critics' targets by a Polyak step of τ. It returns "loss/vae",
// "loss/critics" (the sum of both) and "loss/actor" in a map owned by the
// BCQ, and an error, changing nothing, for a batch without those keys or
// of other shapes.
func (b *BCQ) Update(bt *batch.Batch) (map[string]float64, error) {
	b.ctp.Reset()
	if err := b.q.Read(&b.ctp, bt, b.actDim); err != nil {
		return nil, fmt.Errorf("bcqc: %w", err)
	}
	k := b.q.Obs.Dim(0)

	b.vtp.Reset()
	obs, act := b.vtp.Detach(b.q.Obs), b.vtp.Detach(b.q.Act)
	mean, logStd := b.vae.Encode(&b.vtp, obs, act)
	eps := b.eps.get(k, b.vae.Latent)
	fillLatent(eps.Data(), b.rng, false)
	z := b.vtp.Add(mean, b.vtp.Mul(b.vtp.Exp(logStd), eps))
	vaeLoss := VAELoss(&b.vtp, b.vae.Decode(&b.vtp, obs, z), act, mean, logStd)
	b.vaeOpt.Step(&b.vtp, vaeLoss)

	critics := b.critics.Step(&b.ctp, b.q.Obs, b.q.Act, b.q.Returns)

	b.atp.Reset()
	obs = b.atp.Detach(b.q.Obs)
	za := b.za.get(k, b.vae.Latent)
	fillLatent(za.Data(), b.rng, true)
	sampled := b.atp.Detach(b.vae.Decode(&b.atp, obs, za))
	actorLoss := b.atp.Neg(b.atp.Mean(b.critics.Online[0].Q(&b.atp, obs, b.actor.Forward(&b.atp, obs, sampled))))
	b.actOpt.Step(&b.atp, actorLoss)

	algo.UpdateTarget(b.tgtPs, b.actorPs, 0, 0, b.cfg.Tau)
	b.critics.SoftUpdate(b.cfg.Tau)
	b.counters.Updates++
	b.stats["loss/vae"] = float64(vaeLoss.Item())
	b.stats["loss/critics"] = critics
	b.stats["loss/actor"] = float64(actorLoss.Item())
	return b.stats, nil
}

// Postprocess does nothing: BCQ gives nothing back to the buffer.
func (b *BCQ) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state with algo.SaveParts: the VAE and its optimizer, Φ,
// its target and optimizer, the critics' parts, both random sources and
// the counters.
func (b *BCQ) Save(w io.Writer) error { return algo.SaveParts(w, b.parts()...) }

// Load restores a state written by Save into a BCQ made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (b *BCQ) Load(r io.Reader) error { return algo.LoadParts(r, b.parts()...) }

func (b *BCQ) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("vae", b.vae.Params()),
		{Name: "vae_optim", Save: b.vaeOpt.Save, Load: b.vaeOpt.Load},
		algo.ParamsPart("actor", b.actorPs),
		algo.ParamsPart("actor_target", b.tgtPs),
		{Name: "actor_optim", Save: b.actOpt.Save, Load: b.actOpt.Load},
	}
	ps = append(ps, b.critics.Parts()...)
	return append(ps, algo.BinaryPart("rng", b.src), algo.BinaryPart("policy_rng", b.polSrc), algo.JSONPart("counters", &b.counters))
}

// Perturbation returns Φ.
func (b *BCQ) Perturbation() *Perturbation { return b.actor }

// VAE returns the generative model of the behaviour policy.
func (b *BCQ) VAE() *VAE { return b.vae }
