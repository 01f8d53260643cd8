package discretesac

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// DiscreteSAC is an algo.OffPolicy algorithm; see the package
// documentation. It is driven by one goroutine at a time.
type DiscreteSAC struct {
	cfg           Config
	space         *env.Discrete
	actor         *nn.MLP
	pol           *policy.Actor
	exp           policy.Policy // pol, or pol with held random actions
	aps           nn.Params
	actorOpt      *actorcritic.Optimizer
	critics, tgts [2]*nn.MLP
	cps, tps      nn.Params
	criticOpt     *actorcritic.Optimizer
	alpha         *actorcritic.Alpha
	polSrc        *rand.PCG
	counters      counters
	dist, ndist   distribution.Categorical
	acts          algo.DiscreteActions
	returns       algo.QReturns
	ctp, atp, ntp tensor.Tape
	negH          []float32

	// Observations of a masked space (env.NewMasked) reach the networks
	// through in, which reads "obs.obs"; the actor's logits are masked by
	// the update's and obs_next's action masks.
	in            policy.Network
	cIn, aIn, nIn nn.Caller
	mask, nmask   policy.Mask
	nextMask      env.ActionMask // finds obs_next allowing no action
	empty         []bool         // those rows of the last targets
	stats         map[string]float64
}

type counters struct {
	Updates int64 `json:"updates"`
}

// New returns a discrete SAC for an env with the given spaces, its weights
// and the seed of its policy's random source drawn from rng. It returns an
// error wrapping ErrConfig for an invalid cfg, and one naming the space for
// an observation space that is not a Box of one axis (or a masked
// observation space of one, env.NewMasked) or an action space that is not
// Discrete (a Box among them).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*DiscreteSAC, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ob, ok := policy.NetSpace(obs).(*env.Box)
	if !ok || len(ob.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLPs need a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	space, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: discrete SAC needs a Discrete action space, not %v", ErrConfig, act)
	}
	n, k := ob.Shape()[0], int(space.N())
	s := &DiscreteSAC{cfg: cfg, space: space, in: policy.NewObsNet(nn.Identity, obs),
		stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "loss/alpha": 0, "alpha": 0}}
	var err error
	if s.alpha, err = actorcritic.NewAlpha(cfg.Temperature, cfg.TargetEntropyRatio*math.Log(float64(k))); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	mlp := func(hidden []int) (*nn.MLP, error) {
		m, err := nn.NewMLP(nn.MLPConfig{In: n, Hidden: hidden, Out: k}, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		return m, nil
	}
	if s.actor, err = mlp(cfg.ActorHidden); err != nil {
		return nil, err
	}
	for i := range 2 {
		if s.critics[i], err = mlp(cfg.CriticHidden); err != nil {
			return nil, err
		}
		if s.tgts[i], err = mlp(cfg.CriticHidden); err != nil {
			return nil, err
		}
		name := fmt.Sprint(i)
		s.cps = append(s.cps, s.critics[i].Params().Prefixed(name)...)
		s.tps = append(s.tps, s.tgts[i].Params().Prefixed(name)...)
	}
	if err := nn.Copy(s.tps, s.cps); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.polSrc = rand.NewPCG(rng.Uint64(), rng.Uint64())
	polRng := rand.New(s.polSrc)
	if s.pol, err = policy.NewActor(policy.NewObsNet(s.actor, obs), policy.CategoricalHead{}, act, polRng,
		policy.ActorConfig{DeterministicEval: cfg.DeterministicEval}); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.exp = s.pol
	hold, err := policy.NewHold(cfg.Hold)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if hold != nil {
		s.exp = &heldActor{Actor: s.pol, hold: hold, eps: cfg.HoldEps, space: space, rng: polRng}
	}
	s.aps = s.pol.Params()
	if s.actorOpt, err = actorcritic.NewOptimizer(s.aps, cfg.ActorOptim); err != nil {
		return nil, fmt.Errorf("%w: actor_optim: %w", ErrConfig, err)
	}
	if s.criticOpt, err = actorcritic.NewOptimizer(s.cps, cfg.CriticOptim); err != nil {
		return nil, fmt.Errorf("%w: critic_optim: %w", ErrConfig, err)
	}
	s.ntp.SetGradEnabled(false)
	return s, nil
}

// Config returns the configuration.
func (s *DiscreteSAC) Config() Config { return s.cfg }

// Policy returns the policy: a *policy.Actor over a Categorical, which
// Config.Hold wraps to hold random actions while collecting.
func (s *DiscreteSAC) Policy() policy.Policy { return s.exp }

// Alpha returns the current temperature α.
func (s *DiscreteSAC) Alpha() float64 { return s.alpha.Value() }

// TargetEntropy returns the entropy AutoAlpha aims at.
func (s *DiscreteSAC) TargetEntropy() float64 { return s.alpha.TargetEntropy() }

// Params returns the actor's, the critics', the targets' parameters and log
// α (prefixed "actor", "critics", "critics_target"; "log_alpha").
func (s *DiscreteSAC) Params() nn.Params {
	ps := append(s.aps.Prefixed("actor"), s.cps.Prefixed("critics")...)
	ps = append(ps, s.tps.Prefixed("critics_target")...)
	return append(ps, s.alpha.Params()...)
}

// Updates returns the number of gradient steps taken.
func (s *DiscreteSAC) Updates() int64 { return s.counters.Updates }

// Preprocess stores in b the n-step returns (algo.QReturns) with the soft
// target values Σₐ π(a|s′)·minᵢ Q′ᵢ(s′, a) + α·H(π(·|s′)) under
// "returns". With action masks (policy.Mask), π(·|s′) covers the allowed
// actions only, and the value of an s′ that allows none (an episode's last
// observation) is 0.
func (s *DiscreteSAC) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return s.returns.Preprocess(b, buf, indices, s.cfg.Gamma, s.cfg.NStep, s.targets)
}

func (s *DiscreteSAC) targets(dst []float32, next *batch.Batch) error {
	s.ntp.Reset()
	obs, err := s.readObs(&s.nIn, &s.ntp, next, len(dst), "obs_next")
	if err != nil {
		return err
	}
	masks, err := s.allowAny(next, len(dst))
	if err != nil {
		return err
	}
	logits, err := s.nmask.Logits(&s.ntp, s.actor.Forward(&s.ntp, obs), masks)
	if err != nil {
		return fmt.Errorf("discretesac: obs_next: %w", err)
	}
	if err := s.ndist.SetLogits(&s.ntp, logits); err != nil {
		return fmt.Errorf("discretesac: actor on obs_next: %w", err)
	}
	q := s.ntp.Minimum(s.tgts[0].Forward(&s.ntp, obs), s.tgts[1].Forward(&s.ntp, obs))
	v := s.ntp.SumAxis(s.ntp.Mul(s.ndist.Probs(), q), 1, false).Data()
	h := s.ndist.Entropy().Data()
	if len(v) != len(dst) {
		panic(fmt.Sprintf("discretesac: targets of %d rows into %d", len(v), len(dst)))
	}
	alpha := float32(s.alpha.Value())
	for i := range dst {
		dst[i] = v[i] + alpha*h[i]
		if s.empty != nil && s.empty[i] {
			dst[i] = 0
		}
	}
	return nil
}

// readObs returns the observations of b that the networks take ("obs", or
// "obs.obs" of a masked space) as a tensor [k, n] on tp.
func (s *DiscreteSAC) readObs(c *nn.Caller, tp *tensor.Tape, b *batch.Batch, k int, what string) (*tensor.Tensor, error) {
	t, err := c.Call(tp, s.in, b)
	if err != nil {
		return nil, fmt.Errorf("discretesac: %s: %w", what, err)
	}
	if t.NDim() != 2 || t.Dim(0) != k {
		return nil, fmt.Errorf("discretesac: %s of shape %v; want [%d, n]", what, t.Shape(), k)
	}
	return t, nil
}

// allowAny returns next, or, when some of its k action masks allow no
// action, a batch of its masks with those rows allowing every action
// (recorded in s.empty, whose targets are then 0) so that the policy's
// distribution there stays defined.
func (s *DiscreteSAC) allowAny(next *batch.Batch, k int) (*batch.Batch, error) {
	s.empty = nil
	n := int(s.space.N())
	m, err := s.nextMask.Read(next, k, n)
	if err != nil {
		return nil, fmt.Errorf("discretesac: obs_next: %w", err)
	}
	if m == nil {
		return next, nil
	}
	d := nd.Data[float32](m)
	if env.EmptyMaskRow(d, n) < 0 {
		return next, nil
	}
	s.empty = make([]bool, k)
	for r := range k {
		if env.EmptyMaskRow(d[r*n:(r+1)*n], n) == 0 {
			s.empty[r] = true
			for j := range n {
				d[r*n+j] = 1
			}
		}
	}
	return batch.New(batch.KeyObs, batch.MustNew(env.KeyActionMask, m))
}

// Update makes one step of the critics on b (obs, act and returns), one of
// the actor on the stepped critics, one of log α with AutoAlpha, and the
// critics' targets' Polyak step. It returns "loss/critics" (both critics'
// losses summed), "loss/actor", "loss/alpha" and "alpha" in a map owned by
// the algorithm, and an error, changing nothing, for a batch without those
// keys, of other shapes, with actions outside the space, or with an actor
// whose distribution diverged (NaN parameters).
func (s *DiscreteSAC) Update(b *batch.Batch) (map[string]float64, error) {
	act, err := s.acts.Read(b, s.space)
	if err != nil {
		return nil, fmt.Errorf("discretesac: %w", err)
	}
	k := len(act)
	s.ctp.Reset()
	obs, err := s.readObs(&s.cIn, &s.ctp, b, k, "obs")
	if err != nil {
		return nil, err
	}
	ra, err := b.Array(batch.KeyReturns)
	if err != nil {
		return nil, fmt.Errorf("discretesac: %w (run Preprocess first)", err)
	}
	y, err := s.ctp.FromND(ra)
	if err != nil {
		return nil, fmt.Errorf("discretesac: returns: %w", err)
	}
	if len(act) != k || y.NDim() != 1 || y.Dim(0) != k {
		return nil, fmt.Errorf("discretesac: act of %d and returns of shape %v for %d observations", len(act), y.Shape(), k)
	}
	s.atp.Reset()
	aobs, err := s.readObs(&s.aIn, &s.atp, b, k, "obs")
	if err != nil {
		return nil, err
	}
	logits, err := s.mask.Logits(&s.atp, s.actor.Forward(&s.atp, aobs), b)
	if err != nil {
		return nil, fmt.Errorf("discretesac: obs: %w", err)
	}
	if err := s.dist.SetLogits(&s.atp, logits); err != nil {
		return nil, fmt.Errorf("discretesac: actor: %w", err)
	}
	loss := s.ctp.Add(s.ctp.MSE(s.ctp.Gather(s.critics[0].Forward(&s.ctp, obs), 1, act), y),
		s.ctp.MSE(s.ctp.Gather(s.critics[1].Forward(&s.ctp, obs), 1, act), y))
	s.criticOpt.Step(&s.ctp, loss)
	s.stats["loss/critics"] = float64(loss.Item())

	// L_π = mean(Σₐ π(a|s)·(α·log π(a|s) − minᵢ Qᵢ(s, a))), the critics
	// held, written as mean(−α·H(π(·|s)) − Σₐ π(a|s)·minᵢ Qᵢ(s, a)) so that
	// masked actions (π = 0, log π = −Inf) add 0.
	q := s.atp.Detach(s.atp.Minimum(s.critics[0].Forward(&s.atp, aobs), s.critics[1].Forward(&s.atp, aobs)))
	alpha := float32(s.alpha.Value())
	ent := s.dist.Entropy()
	pq := s.atp.SumAxis(s.atp.Mul(s.dist.Probs(), q), 1, false)
	al := s.atp.Mean(s.atp.Neg(s.atp.Add(s.atp.MulScalar(ent, alpha), pq)))
	h := ent.Data()
	if cap(s.negH) < len(h) {
		s.negH = make([]float32, len(h))
	}
	s.negH = s.negH[:len(h)]
	for i, v := range h {
		s.negH[i] = -v
	}
	s.actorOpt.Step(&s.atp, al)
	s.stats["loss/actor"] = float64(al.Item())
	s.stats["loss/alpha"] = s.alpha.Step(s.negH)
	s.stats["alpha"] = s.alpha.Value()
	s.counters.Updates++
	algo.UpdateTarget(s.tps, s.cps, 0, 0, s.cfg.Tau)
	return s.stats, nil
}

// Postprocess does nothing: discrete SAC gives nothing back to the buffer.
func (s *DiscreteSAC) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state with algo.SaveParts.
func (s *DiscreteSAC) Save(w io.Writer) error { return algo.SaveParts(w, s.parts()...) }

// Load restores a state written by Save into a discrete SAC made with the
// same configuration; it returns an error wrapping algo.ErrState otherwise.
func (s *DiscreteSAC) Load(r io.Reader) error { return algo.LoadParts(r, s.parts()...) }

func (s *DiscreteSAC) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("actor", s.aps),
		{Name: "actor_optim", Save: s.actorOpt.Save, Load: s.actorOpt.Load},
		algo.ParamsPart("critics", s.cps),
		algo.ParamsPart("critics_target", s.tps),
		{Name: "critics_optim", Save: s.criticOpt.Save, Load: s.criticOpt.Load},
	}
	ps = append(ps, s.alpha.Parts()...)
	return append(ps, algo.BinaryPart("policy_rng", s.polSrc), algo.JSONPart("counters", &s.counters))
}
