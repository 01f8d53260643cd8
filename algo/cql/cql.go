package cql

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
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// CQL is an algo.OffPolicy algorithm; see the package documentation. It is
// driven by one goroutine at a time.
type CQL struct {
	actorcritic.Squashed
	cfg   Config
	stats map[string]float64

	// The Lagrange multiplier α′ = exp(log α′), clamped.
	logAlpha *tensor.Tensor
	alphaOpt *actorcritic.Optimizer
	atp      tensor.Tape

	// Scratch of the proposals, sized for the last batch.
	ptp              tensor.Tape // sampling the policy, without gradients
	dist             distribution.Distribution
	obsRep, nextRep  *tensor.Tensor // each observation N times, [B·N, n]
	rand, cur, next  *tensor.Tensor // the proposals' actions, [B·N, m]
	curLogp, nxtLogp *tensor.Tensor // their log-probabilities, [B·N]
	gaps             []float64      // each critic's penalty of the last update
	shape            []int          // [B, N], the proposals' values per observation
}

// New returns a CQL for an env with the given spaces, its weights and the
// seeds of its random sources drawn from rng (as SAC's). It returns an
// error wrapping ErrConfig for an invalid cfg, and one naming the space for
// an observation space that is not a Box of one axis or an action space
// that is not a Box of one axis (a Discrete one among them: discrete CQL is
// package discretecql).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*CQL, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if _, ok := act.(*env.Discrete); ok {
		return nil, fmt.Errorf("%w: CQL needs a Box action space, not %v (discrete CQL learns Discrete actions)", ErrConfig, act)
	}
	c := &CQL{cfg: cfg, gaps: make([]float64, 2), shape: make([]int, 2),
		stats: map[string]float64{"loss/actor": 0, "loss/critics": 0, "loss/alpha": 0, "alpha": 0,
			"loss/cql": 0, "cql_alpha": 0, "loss/cql_alpha": 0}}
	set := actorcritic.SquashedSettings{Critics: 2, Temperature: cfg.Temperature, TargetEntropy: cfg.TargetEntropy,
		Policy: policy.ActorConfig{DeterministicEval: cfg.DeterministicEval, Map: cfg.Map}}
	if err := c.Init(cfg.Continuous, set, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	c.logAlpha = tensor.New(1)
	c.logAlpha.SetRequiresGrad(true)
	var err error
	if c.alphaOpt, err = actorcritic.NewOptimizer(c.alphaParams(), actorcritic.Training{Optim: cfg.CQLAlphaOptim}); err != nil {
		return nil, fmt.Errorf("%w: cql_alpha_optim: %w", ErrConfig, err)
	}
	c.dist = c.Head.New()
	c.ptp.SetGradEnabled(false)
	return c, nil
}

// Config returns the configuration.
func (c *CQL) Config() Config { return c.cfg }

// CQLAlpha returns the penalty's multiplier α′ = exp(log α′) clamped to
// [CQLAlphaMin, CQLAlphaMax]; 1 without WithLagrange.
func (c *CQL) CQLAlpha() float64 {
	if !c.cfg.WithLagrange {
		return 1
	}
	return min(max(math.Exp(float64(c.logAlpha.Data()[0])), c.cfg.CQLAlphaMin), c.cfg.CQLAlphaMax)
}

func (c *CQL) alphaParams() nn.Params { return nn.Params{{Name: "cql_log_alpha", Tensor: c.logAlpha}} }

// Params returns SAC's parameters (actorcritic.Squashed.Params) and log α′
// ("cql_log_alpha").
func (c *CQL) Params() nn.Params { return append(c.Squashed.Params(), c.alphaParams()...) }

// Preprocess stores the soft n-step returns under "returns" as SAC's
// Preprocess does, and turns b's actions, env actions as datasets hold them,
// into the policy's raw actions in place (the inverse of Config.Map), the
// form the critics, the proposals and the policy's samples share. It
// returns an error for a batch without "act" or with actions of another
// shape.
func (c *CQL) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	act, err := b.Array(batch.KeyAct)
	if err != nil {
		return fmt.Errorf("cql: %w", err)
	}
	if err := c.Pol.UnmapActionTo(act, act); err != nil {
		return fmt.Errorf("cql: act: %w", err)
	}
	return c.Squashed.Preprocess(b, buf, indices)
}

// Update makes one step of the critics on b (obs, act, obs_next and
// returns) with the conservative penalty, one of the actor and one of α as
// SAC does, one of α′ with WithLagrange, and the critics' targets' Polyak
// step. It returns "loss/critics" (the TD losses summed), "loss/cql" (the
// critics' mean penalty, w included, before α′), "cql_alpha",
// "loss/cql_alpha", "loss/actor", "loss/alpha" and "alpha" in a map owned
// by the CQL, and an error, changing nothing, for a batch without those
// keys or of other shapes, or with an actor whose distribution diverged.
func (c *CQL) Update(b *batch.Batch) (map[string]float64, error) {
	if err := c.ReadCritic(b); err != nil {
		return nil, fmt.Errorf("cql: %w", err)
	}
	if err := c.ReadActor(b); err != nil {
		return nil, fmt.Errorf("cql: %w", err)
	}
	if err := c.propose(b); err != nil {
		return nil, err
	}
	alpha := c.CQLAlpha()
	td, _ := c.CriticStepWith(func(tp *tensor.Tape, obs, act *tensor.Tensor) *tensor.Tensor {
		return c.penalty(tp, obs, act, alpha)
	})
	c.stats["loss/critics"] = td
	c.stats["loss/cql"] = (c.gaps[0] + c.gaps[1]) / 2
	c.stats["cql_alpha"] = alpha
	c.stats["loss/cql_alpha"] = c.alphaStep()
	c.Counters.Updates++
	c.stats["loss/actor"], c.stats["loss/alpha"] = c.ActorStep()
	c.stats["alpha"] = c.Alpha()
	c.SoftUpdate()
	return c.stats, nil
}

// propose draws the penalty's actions for the B observations of b: N
// uniform in [−1, 1]ᵐ (the policy's raw actions' range), N from the policy
// at s and N from the policy at s′ per observation, with their
// log-probabilities, into the scratch tensors.
func (c *CQL) propose(b *batch.Batch) error {
	oa, err := b.Array(batch.KeyObs)
	if err != nil {
		return fmt.Errorf("cql: %w", err)
	}
	na, err := b.Array(batch.KeyObsNext)
	if err != nil {
		return fmt.Errorf("cql: %w", err)
	}
	c.ptp.Reset()
	obs, err := c.ptp.FromND(oa)
	if err != nil {
		return fmt.Errorf("cql: obs: %w", err)
	}
	next, err := c.ptp.FromND(na)
	if err != nil {
		return fmt.Errorf("cql: obs_next: %w", err)
	}
	if next.NDim() != 2 || next.Dim(0) != obs.Dim(0) || next.Dim(1) != obs.Dim(1) {
		return fmt.Errorf("cql: obs_next of shape %v for obs of shape %v", next.Shape(), obs.Shape())
	}
	k, n, nr := obs.Dim(0), obs.Dim(1), c.cfg.NumRepeatActions
	m := c.Head.M
	if c.obsRep == nil || c.obsRep.Dim(0) != k*nr || c.obsRep.Dim(1) != n {
		c.obsRep, c.nextRep = tensor.New(k*nr, n), tensor.New(k*nr, n)
		c.rand, c.cur, c.next = tensor.New(k*nr, m), tensor.New(k*nr, m), tensor.New(k*nr, m)
		c.curLogp, c.nxtLogp = tensor.New(k*nr), tensor.New(k*nr)
	}
	repeat(c.obsRep.Data(), obs.Data(), n, nr)
	repeat(c.nextRep.Data(), next.Data(), n, nr)
	c.rand.FillUniform(c.Rng, -1, 1)
	for _, p := range []struct{ in, act, logp *tensor.Tensor }{{c.obsRep, c.cur, c.curLogp}, {c.nextRep, c.next, c.nxtLogp}} {
		c.ptp.Reset()
		if err := c.Head.Set(c.dist, &c.ptp, c.MLP.Forward(&c.ptp, p.in)); err != nil {
			return fmt.Errorf("cql: actor: %w", err)
		}
		a := c.dist.Sample(c.Rng)
		copy(p.act.Data(), a.Data())
		copy(p.logp.Data(), c.dist.LogProb(a).Data())
	}
	return nil
}

// repeat writes each row of src (rows of n) nr times in a row into dst.
func repeat(dst, src []float32, n, nr int) {
	for i := range len(src) / n {
		for j := range nr {
			copy(dst[(i*nr+j)*n:(i*nr+j+1)*n], src[i*n:(i+1)*n])
		}
	}
}

// penalty records on tp the critics' conservative penalty, Σᵢ α′·(gapᵢ −
// τ) with WithLagrange and Σᵢ gapᵢ without, where for critic i
//
//	gapᵢ = w·(T·mean over s of log Σ exp(Q̂ᵢ/T) − mean Qᵢ(s, a))
//
// and the log-sum-exp runs over the 3N importance-weighted values of each
// observation s: Qᵢ(s, â) − log p(â) for the uniform actions (p = 2⁻ᵐ) and
// the policy's at s and at s′ (p the policy's density). It stores each
// gapᵢ in c.gaps.
func (c *CQL) penalty(tp *tensor.Tape, obs, act *tensor.Tensor, alpha float64) *tensor.Tensor {
	c.shape[0], c.shape[1] = obs.Dim(0), c.cfg.NumRepeatActions
	m := c.Head.M
	nc := c.CriticNets.Len()
	const maxCritics = 2
	var parts [maxCritics][3]*tensor.Tensor
	uniform := float32(float64(m) * math.Ln2) // −log 2⁻ᵐ
	for j, p := range []struct{ act, logp *tensor.Tensor }{{c.rand, nil}, {c.cur, c.curLogp}, {c.next, c.nxtLogp}} {
		for i, v := range c.CriticNets.Values(tp, c.obsRep, p.act) {
			if p.logp == nil {
				v = tp.AddScalar(v, uniform)
			} else {
				v = tp.Sub(v, p.logp)
			}
			parts[i][j] = tp.Reshape(v, c.shape...) // a slice of c's: no allocation
		}
	}
	qa := c.CriticNets.Values(tp, obs, act)
	w, temp := float32(c.cfg.CQLWeight), float32(c.cfg.CQLTemperature)
	var total *tensor.Tensor
	for i := range nc {
		cat := tp.Concat(1, parts[i][0], parts[i][1], parts[i][2])
		lse := tp.MulScalar(tp.LogSumExp(tp.MulScalar(cat, 1/temp), 1, false), temp)
		gap := tp.MulScalar(tp.Sub(tp.Mean(lse), tp.Mean(qa[i])), w)
		c.gaps[i] = float64(gap.Item())
		if c.cfg.WithLagrange {
			gap = tp.MulScalar(tp.AddScalar(gap, -float32(c.cfg.CQLTargetActionGap)), float32(alpha))
		}
		if total == nil {
			total = gap
		} else {
			total = tp.Add(total, gap)
		}
	}
	return total
}

// alphaStep makes one step of log α′ on the dual loss −α′·mean over the
// critics of (gapᵢ − τ), α′ clamped: α′ grows while the penalty exceeds the
// target gap τ. It returns the loss; 0 without WithLagrange.
func (c *CQL) alphaStep() float64 {
	if !c.cfg.WithLagrange {
		return 0
	}
	var excess float64
	for _, g := range c.gaps {
		excess += g - c.cfg.CQLTargetActionGap
	}
	excess /= float64(len(c.gaps))
	c.atp.Reset()
	a := c.atp.Clamp(c.atp.Exp(c.logAlpha), float32(c.cfg.CQLAlphaMin), float32(c.cfg.CQLAlphaMax))
	loss := c.atp.Sum(c.atp.MulScalar(a, float32(-excess)))
	c.alphaOpt.Step(&c.atp, loss)
	return float64(loss.Item())
}

// Save writes the state: SAC's parts, log α′ and its optimizer, with
// algo.SaveParts.
func (c *CQL) Save(w io.Writer) error { return algo.SaveParts(w, c.parts()...) }

// Load restores a state written by Save into a CQL made with the same
// configuration; it returns an error wrapping algo.ErrState otherwise.
func (c *CQL) Load(r io.Reader) error { return c.LoadParts(r, c.parts()...) }

func (c *CQL) parts() []algo.Part {
	return append(c.Parts(&c.Counters),
		algo.ParamsPart("cql_log_alpha", c.alphaParams()),
		algo.Part{Name: "cql_alpha_optim", Save: c.alphaOpt.Save, Load: c.alphaOpt.Load})
}
