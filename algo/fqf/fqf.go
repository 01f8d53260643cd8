package fqf

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/quantile"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// FQF is the fully parameterized quantile function (Yang et al., "Fully
// Parameterized Quantile Function for Distributional Reinforcement
// Learning", 2019): a fraction proposal network gives each state N
// fractions 0 = τ₀ < τ₁ < … < τ_N = 1 (a softmax and its cumulative sum over
// the detached features of the quantile network), and IQN's network
// (quantile.ImplicitNet) gives the quantiles at their midpoints τ̂ᵢ. The
// quantile network is fitted with the quantile Huber loss; the proposal
// network, with its own RMSprop, follows the gradient of the 1-Wasserstein
// error of the staircase quantile function,
//
//	∂W₁/∂τᵢ = 2F⁻¹(τᵢ) − F⁻¹(τ̂ᵢ) − F⁻¹(τ̂ᵢ₊₁),    i = 1 … N−1,
//
// (each difference's sign flipped where the quantiles are not monotone, as
// Tianshou does), minus EntCoef times the entropy of the fractions. It acts
// on Q(s, a) = Σᵢ (τᵢ − τᵢ₋₁)·F⁻¹(τ̂ᵢ). It is an algo.OffPolicy algorithm
// with DQN's extensions (n-step returns, target network, double
// Q-learning, prioritized replay, ε and β schedules); its policy is a
// *policy.Q.
//
// An FQF is driven by one goroutine at a time.
type FQF struct {
	cfg     Config
	net     *quantile.ImplicitNet
	target  *quantile.ImplicitNet // nil without target network
	frac    *nn.Linear            // the fraction proposal network
	fracPs  nn.Params
	fracOpt *optim.RMSprop
	core    *quantile.Core
	cum     *tensor.Tensor // [N, N], 1 where row ≤ column: p·cum is the cumulative sum
	actPs   nn.Params      // the policy's parameters: quantile and proposal networks

	tp, ntp      tensor.Tape // the update, the targets
	obs, nextObs obsCaller
	grad         quantile.Const // ∂W₁/∂τ of the update
	at           []float32      // F⁻¹(τᵢ) of the taken actions
}

// obsCaller reads the observations of a batch as a tensor: "obs", or
// "obs.obs" of a masked observation space (quantile.Input).
type obsCaller struct {
	c  nn.Caller
	in policy.Network
}

func (o *obsCaller) get(tp *tensor.Tape, b *batch.Batch, k int, what string) (*tensor.Tensor, error) {
	obs, err := o.c.Call(tp, o.in, b)
	if err != nil {
		return nil, fmt.Errorf("fqf: %s: %w", what, err)
	}
	if obs.NDim() != 2 || obs.Dim(0) != k {
		return nil, fmt.Errorf("fqf: %s of shape %v for %d transitions", what, obs.Shape(), k)
	}
	return obs, nil
}

// New returns an FQF for an env with the given spaces: observations a Box
// of one axis (or a masked observation space of one, env.NewMasked),
// actions Discrete. The networks' initial weights (the
// proposal network's Xavier-uniform with gain 0.01 and zero bias, as
// Tianshou's) and the seed of the policy's random source are drawn from
// rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action space
// that is not Discrete, or an observation space the MLP cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*FQF, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	space, err := quantile.Discrete("FQF", act, ErrConfig)
	if err != nil {
		return nil, err
	}
	box, ok := policy.NetSpace(obs).(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	nc := quantile.ImplicitConfig{In: box.Shape()[0], Actions: int(space.N()), Hidden: cfg.Hidden, Cosines: cfg.Cosines, HeadHidden: cfg.HeadHidden}
	net, err := quantile.NewImplicitNet(nc, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	var target *quantile.ImplicitNet
	var tps nn.Params
	if cfg.Target() {
		if target, err = quantile.NewImplicitNet(nc, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		tps = target.Params()
	}
	n, d := cfg.NumFractions, cfg.Hidden[len(cfg.Hidden)-1]
	frac := nn.NewLinear(d, n, rng)
	bound := float32(0.01 * math.Sqrt(6/float64(d+n)))
	frac.Weight.FillUniform(rng, -bound, bound)
	frac.Bias.Fill(0)
	cfg.Hidden, cfg.HeadHidden = slices.Clone(cfg.Hidden), slices.Clone(cfg.HeadHidden)
	f := &FQF{cfg: cfg, net: net, target: target, frac: frac, fracPs: frac.Params(), cum: tensor.New(n, n)}
	f.obs.in = quantile.Input(obs)
	f.nextObs.in = f.obs.in
	for j, c := 0, f.cum.Data(); j < n; j++ {
		for i := j; i < n; i++ {
			c[j*n+i] = 1
		}
	}
	if f.fracOpt, err = optim.NewRMSprop(f.fracPs, cfg.FractionOptim); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	f.actPs = append(slices.Clone(net.Params()), f.fracPs.Prefixed("fraction")...)
	if f.core, err = quantile.NewCore("fqf", cfg.Common, net.Params(), tps, actor{f}, space, rng, ErrConfig); err != nil {
		return nil, err
	}
	f.ntp.SetGradEnabled(false)
	return f, nil
}

// fractions records the proposal for features feat [k, d]: the
// probabilities p [k, N] (p = softmax of the proposal's logits over the
// detached features), their log, the fractions τ₁ … τ_N [k, N] (τ₀ = 0
// left out) and the midpoints τ̂ = τ − p/2 [k, N].
func (f *FQF) fractions(tp *tensor.Tape, feat *tensor.Tensor) (p, logp, tau, hat *tensor.Tensor) {
	logits := f.frac.Forward(tp, tp.Detach(feat))
	p, logp = tp.Softmax(logits, 1), tp.LogSoftmax(logits, 1)
	tau = tp.MatMul(p, f.cum)
	return p, logp, tau, tp.Sub(tau, tp.MulScalar(p, 0.5))
}

// qValues records Q(s, a) = Σᵢ pᵢ·z[i, a] [k, A] for quantiles z [k, N, A]
// at the midpoints of fractions of widths p [k, N].
func qValues(tp *tensor.Tape, p, z *tensor.Tensor) *tensor.Tensor {
	return tp.SumAxis(tp.Mul(tp.Unsqueeze(tp.Detach(p), 2), z), 1, false)
}

// actor is the network the policy acts with: Q(s, a) at the proposed
// fractions of the online networks.
type actor struct{ f *FQF }

func (a actor) Inputs() []string  { return a.f.obs.in.Inputs() }
func (a actor) Params() nn.Params { return a.f.actPs }

func (a actor) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	net := a.f.net
	feat := net.Feature(tp, in[0])
	p, _, _, hat := a.f.fractions(tp, feat)
	return qValues(tp, p, net.Quantiles(tp, feat, tp.Detach(hat)))
}

// Config returns the configuration.
func (f *FQF) Config() Config { return f.cfg }

// Policy returns the ε-greedy policy (a *policy.Q) acting on the online
// networks' Q-values; its parameters are the quantile network's and the
// proposal network's ("fraction.…").
func (f *FQF) Policy() policy.Policy { return f.core.Policy() }

// Network returns the online quantile network, Target the target network
// (nil without one) and Proposal the fraction proposal network.
func (f *FQF) Network() *quantile.ImplicitNet { return f.net }

// Target returns the target network, or nil.
func (f *FQF) Target() *quantile.ImplicitNet { return f.target }

// Proposal returns the fraction proposal network, a linear layer from the
// features to the logits of the N fractions.
func (f *FQF) Proposal() *nn.Linear { return f.frac }

// Params returns the parameters of the online quantile network and of the proposal network ("fraction.…"), the policy's.
func (f *FQF) Params() nn.Params { return f.actPs }

// Updates returns the number of gradient steps taken.
func (f *FQF) Updates() int64 { return f.core.Updates() }

// Schedule sets ε and records the env steps for β (algo.Scheduled).
func (f *FQF) Schedule(envSteps int64) { f.core.Schedule(envSteps) }

// Preprocess stores in b under "returns" the n-step distributional targets
// [B, N] of the sampled transitions: the target network's quantiles (the
// online network's without one) at the midpoints of the fractions the
// online networks propose for the next observation, of the next action,
// chosen by the online networks' Q-values with Double, else by the
// target's.
//
// When the next observations carry action masks (env.ActionMask), the next
// action is the best allowed one (quantile.Core.GreedyNext).
//
// It returns an error if the networks cannot take the stored observations
// or if b holds no obs_next for the windows' last steps.
func (f *FQF) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return f.core.Returns.PreprocessRows(b, buf, indices, f.cfg.Gamma, f.cfg.NStep, f.cfg.NumFractions, f.targets)
}

func (f *FQF) targets(dst []float32, next *batch.Batch) error {
	k := len(dst) / f.cfg.NumFractions
	tp := &f.ntp
	tp.Reset()
	obs, err := f.nextObs.get(tp, next, k, "obs_next")
	if err != nil {
		return err
	}
	feat := f.net.Feature(tp, obs)
	p, _, _, hat := f.fractions(tp, feat)
	online := f.net.Quantiles(tp, feat, hat)
	z := online
	if f.target != nil {
		z = f.target.Quantiles(tp, f.target.Feature(tp, obs), hat)
	}
	if err := f.core.Check(z, k, f.cfg.NumFractions); err != nil {
		return err
	}
	chooser := z
	if f.cfg.Double {
		chooser = online
	}
	acts, err := f.core.GreedyNext(qValues(tp, p, chooser), next)
	if err != nil {
		return err
	}
	quantile.PickTo(dst, z, acts)
	return nil
}

// Update makes one gradient step of each network on b, which holds obs,
// act, returns (Preprocess) and, from a prioritized buffer, importance
// weights under "weight". The quantile network's loss is the mean over the
// batch of w·ℓ, ℓ the quantile Huber loss (κ = Kappa) of the taken action's
// quantiles at the proposed midpoints against the returns; the proposal
// network's is the batch mean of Σᵢ (∂W₁/∂τᵢ)·τᵢ minus EntCoef times the
// mean entropy of the fractions. Then the target network is updated. It
// returns {"loss", "fraction_loss", "entropy"}, a map owned by the FQF.
//
// Update returns an error, changing nothing, if b lacks a key, an action
// is outside the action space, or the network cannot take the observations.
func (f *FQF) Update(b *batch.Batch) (map[string]float64, error) {
	n := f.cfg.NumFractions
	acts, ret, w, err := f.core.Read(b, n)
	if err != nil {
		return nil, err
	}
	tp := &f.tp
	tp.Reset()
	k := len(acts)
	obs, err := f.obs.get(tp, b, k, "obs")
	if err != nil {
		return nil, err
	}
	feat := f.net.Feature(tp, obs)
	p, logp, tau, hat := f.fractions(tp, feat)
	hatD := tp.Detach(hat)
	z := f.net.Quantiles(tp, feat, hatD)
	if err := f.core.Check(z, k, n); err != nil {
		return nil, err
	}
	pred := f.core.Taken(tp, z, acts)
	rows := tp.QuantileHuber(pred, ret, hatD, float32(f.core.Common().Kappa))

	entropy := tp.Mean(tp.Neg(tp.SumAxis(tp.Mul(p, logp), 1, false)))
	fracLoss := tp.MulScalar(entropy, float32(-f.cfg.EntCoef))
	var wLoss float64
	if n > 1 {
		was := tp.SetGradEnabled(false)
		inner := tp.Slice(tp.Detach(tau), 1, 0, n-1)
		zt := f.net.Quantiles(tp, tp.Detach(feat), inner) // F⁻¹(τ₁ … τ_{N−1}), every action
		tp.SetGradEnabled(was)
		a := zt.Dim(2)
		f.at = slices.Grow(f.at[:0], k*(n-1))[:k*(n-1)]
		for i, v := 0, zt.Data(); i < k; i++ {
			for j := range n - 1 {
				f.at[i*(n-1)+j] = v[(i*(n-1)+j)*a+acts[i]]
			}
		}
		g, gd := f.grad.Get(tp, k, n-1)
		FractionGradTo(gd, pred.Data(), f.at, n)
		wl := tp.MulScalar(tp.Sum(tp.Mul(g, tp.Slice(tau, 1, 0, n-1))), 1/float32(k))
		wLoss = float64(wl.Item())
		fracLoss = tp.Add(wl, fracLoss)
	}
	f.fracOpt.ZeroGrad()
	tp.Backward(fracLoss)
	f.fracOpt.Step()

	stats := f.core.Step(tp, rows, w)
	stats["fraction_loss"] = wLoss
	stats["entropy"] = float64(entropy.Item())
	return stats, nil
}

// FractionGradTo stores in dst the gradient ∂W₁/∂τᵢ, i = 1 … N−1, of the
// 1-Wasserstein error of a staircase quantile function with respect to its
// inner fractions, for rows of quantile values: hat [k, N] the values
// F⁻¹(τ̂ᵢ) at the midpoints and at [k, N−1] the values F⁻¹(τᵢ) at the inner
// fractions, dst [k, N−1]:
//
//	dst_i = ±(F⁻¹(τᵢ) − F⁻¹(τ̂ᵢ)) ± (F⁻¹(τᵢ) − F⁻¹(τ̂ᵢ₊₁)),
//
// the first difference counted positive where F⁻¹(τᵢ) exceeds its left
// neighbour (F⁻¹(τᵢ₋₁), or F⁻¹(τ̂₁) for i = 1) and the second where it is
// below its right neighbour (F⁻¹(τᵢ₊₁), or F⁻¹(τ̂_N) for i = N−1): for a
// monotone quantile function 2F⁻¹(τᵢ) − F⁻¹(τ̂ᵢ) − F⁻¹(τ̂ᵢ₊₁) (Yang et al.,
// Proposition 1). It panics if the lengths do not fit n.
func FractionGradTo(dst, hat, at []float32, n int) {
	m := n - 1
	if n < 2 || len(hat)%n != 0 || len(at) != len(hat)/n*m || len(dst) != len(at) {
		panic(fmt.Sprintf("fqf: FractionGradTo: dst %d, hat %d, at %d for %d fractions", len(dst), len(hat), len(at), n))
	}
	for r := range len(hat) / n {
		h, x, g := hat[r*n:(r+1)*n], at[r*m:(r+1)*m], dst[r*m:(r+1)*m]
		for i, fi := range x {
			left, right := h[0], h[n-1]
			if i > 0 {
				left = x[i-1]
			}
			if i < m-1 {
				right = x[i+1]
			}
			v1, v2 := fi-h[i], fi-h[i+1]
			if !(fi > left) {
				v1 = -v1
			}
			if !(fi < right) {
				v2 = -v2
			}
			g[i] = v1 + v2
		}
	}
}

// Postprocess gives a prioritized buffer the transitions' losses of the
// last Update as priorities and moves its β along the schedule; other
// buffers are left alone.
func (f *FQF) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return f.core.Postprocess(b, buf, indices)
}

// Save writes the state: the online and target quantile networks, Adam's
// state, the proposal network and its RMSprop state, the policy's random
// source and the counters, with algo.SaveParts.
func (f *FQF) Save(w io.Writer) error { return algo.SaveParts(w, f.parts()...) }

// Load restores a state written by Save into an FQF made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the FQF may then be partly restored.
func (f *FQF) Load(r io.Reader) error {
	if err := algo.LoadParts(r, f.parts()...); err != nil {
		return err
	}
	return f.core.Loaded()
}

func (f *FQF) parts() []algo.Part {
	return f.core.Parts(algo.ParamsPart("fraction", f.fracPs),
		algo.Part{Name: "fraction_optim", Save: f.fracOpt.Save, Load: f.fracOpt.Load})
}
