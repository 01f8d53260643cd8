package actorcritic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// NaturalConfig holds the settings the natural-gradient algorithms share
// (NPG, and TRPO, which adds its line search): the actor-critic settings
// (embedded, so their fields sit at the top level of the JSON; the
// Training settings configure the critic's optimizer) and those of the
// natural-gradient step. VFCoef and EntCoef must be 0: the critic has an
// optimizer of its own and the step has no entropy term.
type NaturalConfig struct {
	OnPolicy
	// AdvantageNormalization standardizes the advantages of each
	// collection (Standardize). Tianshou's tests set it.
	AdvantageNormalization bool `json:"advantage_normalization"`
	// CriticIters is the number of Adam steps of the critic on each
	// minibatch, ≥ 1 (Tianshou's optim_critic_iters). Default 5.
	CriticIters int `json:"optim_critic_iters"`
	// Damping is δ ≥ 0 of the damped Fisher F + δI whose system the
	// conjugate gradient solves. Default 0.1 (Tianshou's).
	Damping float64 `json:"damping"`
	// CGSteps is the number of conjugate-gradient iterations, ≥ 1.
	// Default 10 (Tianshou's).
	CGSteps int `json:"cg_steps"`
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c NaturalConfig) Validate() error {
	if err := c.OnPolicy.Validate(); err != nil {
		return err
	}
	switch {
	case c.VFCoef != 0 || c.EntCoef != 0:
		return fmt.Errorf("%w: vf_coef %v, ent_coef %v: a natural-gradient algorithm trains its critic with an optimizer of its own and has no entropy term; want 0", ErrConfig, c.VFCoef, c.EntCoef)
	case c.CriticIters < 1:
		return fmt.Errorf("%w: optim_critic_iters %d < 1", ErrConfig, c.CriticIters)
	case !(c.Damping >= 0) || math.IsInf(c.Damping, 0):
		return fmt.Errorf("%w: damping %v; want finite ≥ 0", ErrConfig, c.Damping)
	case c.CGSteps < 1:
		return fmt.Errorf("%w: cg_steps %d < 1", ErrConfig, c.CGSteps)
	case c.Net.Shared:
		return fmt.Errorf("%w: a natural-gradient algorithm needs separate actor and critic networks (net.shared false)", ErrConfig)
	case c.Net.SDE:
		return fmt.Errorf("%w: a natural-gradient algorithm does not support state-dependent exploration (net.use_sde)", ErrConfig)
	}
	return nil
}

// NaturalStep is how a natural-gradient algorithm moves the actor along
// the direction x = (F + δI)⁻¹g: NPG by StepSize·x, TRPO by the longest of
// s·x, s·c·x, s·c²·x, … (MaxBacktracks tries, c = BacktrackCoeff, s =
// √(2·MaxKL / xᵀ(F + δI)x)) whose mean KL divergence from the old policy
// is below MaxKL and whose surrogate loss is below the old one, or not at
// all when none is.
type NaturalStep struct {
	// StepSize is NPG's step along x, used when MaxKL is 0.
	StepSize float64
	// MaxKL, when positive, bounds the mean KL divergence of a step and
	// turns the line search on.
	MaxKL          float64
	BacktrackCoeff float64
	MaxBacktracks  int
}

// Natural is the Critic of a natural-gradient algorithm (Kakade, "A
// Natural Policy Gradient", 2001; Schulman et al., "Trust Region Policy
// Optimization", 2015): NPG and TRPO embed it, their step rule their one
// difference. Its Preprocess adds the old log-probabilities to GAE's
// columns; its UpdateRepeat makes, on each minibatch, one natural-gradient
// step of the actor and CriticIters Adam steps of the critic (Base.Opt
// trains the critic's parameters only).
//
// The Fisher-vector product is exact and computed analytically: F v =
// Jᵀ M J v / k over the k observations of the minibatch, with J the
// Jacobian of the actor's output (logits or Gaussian mean) with respect to
// the actor's parameters, M the Hessian of the KL divergence in the
// distribution's parameters (diag(p) − ppᵀ for a Categorical, 1/σ² for a
// Gaussian's mean, 2 for each log σ), J v by a forward-mode pass through
// the actor's layers and Jᵀ(M J v) by a backward pass of the tape.
type Natural struct {
	Critic
	cfg  NaturalConfig
	step NaturalStep

	actorPs nn.Params // trunk, actor and head: the natural step's parameters
	offs    []int     // offset of each of actorPs in the flat vectors
	size    int
	layers  []nn.Layer // the trunk's and actor's layers, in order
	tangent []*tensor.Tensor
	logStd  *tensor.Tensor // the NormalHead's, or nil for a Categorical
	actNet  policy.Network
	caller  nn.Caller

	ntp, fwd, jtp tensor.Tape
	lin           []linStep
	out0          *tensor.Tensor // the actor's output before the step (fwd)
	w             *tensor.Tensor // M J v / k (fwd), read by jtw's backward
	jtw           *tensor.Tensor // Σ out ⊙ w on Tape: its backward is Jᵀw
	probs         []float64      // softmax of out0 (Categorical)
	mask          env.ActionMask // action masks of the minibatch
	allowed       []float32      // their values, nil without masks
	obsKey        string         // the trunk's input: "obs", or "obs.obs" for a masked space
	sigma0        []float64      // σ before the step (Normal)

	g, x, r, p, fp, theta0 []float64
	stats                  map[string]float64
}

// linStep is a layer of the actor's forward-mode pass: a Linear layer with
// its input x (recorded on fwd), or an activation's derivative d at the
// recorded point.
type linStep struct {
	lin    *nn.Linear
	x, d   *tensor.Tensor
	vw, vb *tensor.Tensor // the tangents of lin's weight and bias
}

// Init sets n up to learn with net, which must have a critic and separate
// actor and critic networks, in the action space act, with the settings
// of cfg and the step rule st: Critic.Init, then Base.Opt over the
// critic's parameters. The actor (the trunk and the actor layer) must be
// made of nn.Linear layers and the identity, ReLU, tanh and sigmoid
// activations (in nn.Sequential, nn.MLP and policy.ObsNet), and the head a
// policy.CategoricalHead or a NormalHead: the layers whose forward-mode
// derivative the Fisher-vector product knows. It does not validate cfg.
// It returns an error wrapping ErrConfig for a net that does not fit.
func (n *Natural) Init(cfg NaturalConfig, st NaturalStep, net *Net, act env.Space, rng *rand.Rand) error {
	if err := n.Critic.Init(cfg.OnPolicy, net, act, rng); err != nil {
		return err
	}
	opt, err := NewOptimizer(net.CriticParams(), cfg.Training)
	if err != nil {
		return err
	}
	n.Opt = opt
	n.cfg, n.step = cfg, st
	switch h := net.Head().(type) {
	case policy.CategoricalHead:
	case *NormalHead:
		n.logStd = h.LogStd
	default:
		return fmt.Errorf("%w: the natural gradient needs a Categorical or Normal head, not %T", ErrConfig, h)
	}
	var trunk nn.Layer
	switch ob := net.trunk.(type) {
	case policy.ObsNet:
		trunk, n.obsKey = ob.Layer, batch.KeyObs
	case policy.MaskedObsNet:
		trunk, n.obsKey = ob.Layer, ob.Inputs()[0]
	default:
		return fmt.Errorf("%w: the natural gradient needs a policy.ObsNet or policy.MaskedObsNet trunk, not %T", ErrConfig, net.trunk)
	}
	n.layers = n.layers[:0]
	for _, l := range []nn.Layer{trunk, net.actor} {
		if n.layers, err = flatLayers(n.layers, l); err != nil {
			return err
		}
	}
	n.actorPs = net.ActorParams()
	if m, ok := net.Head().(nn.Module); ok {
		n.actorPs = append(n.actorPs, m.Params().Prefixed("head")...)
	}
	n.offs = n.offs[:0]
	n.size = 0
	at := map[*tensor.Tensor]int{}
	for _, p := range n.actorPs {
		at[p.Tensor] = len(n.offs)
		n.offs = append(n.offs, n.size)
		n.size += p.Tensor.Len()
	}
	n.tangent = make([]*tensor.Tensor, len(n.actorPs))
	for i, p := range n.actorPs {
		n.tangent[i] = tensor.New(p.Tensor.Shape()...)
	}
	n.lin = n.lin[:0]
	for _, l := range n.layers {
		s := linStep{}
		if lin, ok := l.(*nn.Linear); ok {
			iw, okw := at[lin.Weight]
			ib, okb := at[lin.Bias]
			if !okw || lin.Bias != nil && !okb {
				return fmt.Errorf("%w: a Linear layer of the actor is not among its parameters", ErrConfig)
			}
			s.lin, s.vw = lin, n.tangent[iw]
			if lin.Bias != nil {
				s.vb = n.tangent[ib]
			}
		}
		n.lin = append(n.lin, s)
	}
	n.actNet = net.ActorNetwork()
	for _, v := range []*[]float64{&n.g, &n.x, &n.r, &n.p, &n.fp, &n.theta0} {
		*v = make([]float64, n.size)
	}
	n.ntp.SetGradEnabled(false)
	n.fwd.SetGradEnabled(false)
	n.jtp.SetGradEnabled(false)
	n.stats = map[string]float64{"actor_loss": 0, "vf_loss": 0, "kl": 0, "step": 0}
	if n.logStd != nil {
		n.stats["sigma"] = 0
	}
	return nil
}

// flatLayers appends the layers of l to dst, looking into nn.Sequential,
// nn.MLP and policy.ObsNet, and returns an error wrapping ErrConfig for a
// layer whose forward-mode derivative is not known.
func flatLayers(dst []nn.Layer, l nn.Layer) ([]nn.Layer, error) {
	var err error
	switch l := l.(type) {
	case *nn.MLP:
		return flatLayers(dst, l.Sequential)
	case nn.Sequential:
		for _, x := range l {
			if dst, err = flatLayers(dst, x); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case policy.ObsNet:
		return flatLayers(dst, l.Layer)
	case *nn.Linear:
		return append(dst, l), nil
	case nn.Activation:
		switch l {
		case nn.Identity:
			return dst, nil
		case nn.ReLU, nn.Tanh, nn.Sigmoid:
			return append(dst, l), nil
		}
	}
	return nil, fmt.Errorf("%w: the natural gradient's Fisher-vector product takes Linear layers and the identity, ReLU, tanh and sigmoid activations, not %T %v", ErrConfig, l, l)
}

// naturalColumns are the keys Preprocess adds.
var naturalColumns = [...]string{batch.KeyVS, batch.KeyReturns, batch.KeyAdv, batch.KeyLogpOld}

// Preprocess evaluates the networks on the collection b (as PPO's
// Preprocess does) and stores in b the values "v_s", the returns
// "returns", the GAE advantages "adv" (standardized over the collection
// with AdvantageNormalization) and the log-probabilities of the actions
// under the current policy "logp_old", float32 arrays [N] that are memory
// of the algorithm, overwritten by its next Preprocess.
//
// It returns an error if b lacks a key or holds observations or actions
// the networks cannot take.
func (n *Natural) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if err := n.Estimate(b, buf, indices); err != nil {
		return err
	}
	r := &n.Roll
	n.ntp.Reset()
	d, err := n.Net.Dist(&n.ntp, r.Obs())
	if err != nil {
		return err
	}
	copy(r.Column(batch.KeyLogpOld).Data(), d.LogProb(r.Act()).Data())
	if n.cfg.AdvantageNormalization {
		Standardize(r.Column(batch.KeyAdv).Data())
	}
	for _, k := range naturalColumns {
		if err := r.Store(b, k); err != nil {
			return err
		}
	}
	return nil
}

// UpdateRepeat learns from b, a collection holding obs, act, returns, adv
// and logp_old (Preprocess), in repeat passes over shuffled minibatches of
// batchSize transitions (0: all at once): on each, one natural-gradient
// step of the actor on the surrogate loss L = −mean(π(a|s)/π_old(a|s)·Â)
// and CriticIters Adam steps of the critic on mean((G − V)²). It returns
// the means over the minibatches of "actor_loss" (L before the step),
// "vf_loss", "kl" (the mean KL divergence of the step) and "step" (the
// step's length along the natural direction), and for a Normal head
// "sigma" (the mean σ after the last step), in a map owned by the
// algorithm.
//
// It returns an error if b lacks a key or holds actions outside the space,
// and if the policy diverges (NaN parameters). It panics as CheckRepeat
// does.
func (n *Natural) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	CheckRepeat(batchSize, repeat)
	r := &n.Roll
	if err := r.Load(b, n.Space, false); err != nil {
		return nil, err
	}
	for _, k := range naturalColumns[1:] {
		if err := r.Read(b, k); err != nil {
			return nil, fmt.Errorf("%w (run Preprocess first)", err)
		}
	}
	var lossSum, vfSum, klSum, stepSum float64
	steps := 0
	defer func() { n.Counters.Updates += int64(steps) }()
	for range repeat {
		r.Shuffle(n.Shuffle)
		for i := range r.Minibatches(batchSize) {
			rows := r.Rows(i, batchSize)
			loss, kl, s, err := n.actorStep(rows)
			if err != nil {
				return nil, err
			}
			vf, err := n.criticSteps(rows)
			if err != nil {
				return nil, err
			}
			lossSum += loss
			vfSum += vf
			klSum += kl
			stepSum += s
			steps++
		}
	}
	k := float64(steps)
	n.stats["actor_loss"], n.stats["vf_loss"], n.stats["kl"], n.stats["step"] = lossSum/k, vfSum/k, klSum/k, stepSum/k
	if n.logStd != nil {
		var s float64
		for _, v := range n.logStd.Data() {
			s += math.Exp(float64(v))
		}
		n.stats["sigma"] = s / float64(n.logStd.Len())
	}
	return n.stats, nil
}

// actorStep makes the natural-gradient step on the rows of the collection
// and returns the surrogate loss before it, the mean KL divergence of the
// step and its length along the direction.
func (n *Natural) actorStep(rows []int) (loss, kl, step float64, err error) {
	obs, err := n.prepare(rows)
	if err != nil {
		return 0, 0, 0, err
	}
	r, tp := &n.Roll, &n.Tape
	d, err := n.Net.Dist(tp, obs)
	if err != nil {
		return 0, 0, 0, err
	}
	logp := d.LogProb(tp.IndexSelect(r.Act(), 0, rows))
	ratio := tp.Exp(tp.Sub(logp, tp.IndexSelect(r.Column(batch.KeyLogpOld), 0, rows)))
	surr := tp.Neg(tp.Mean(tp.Mul(ratio, tp.IndexSelect(r.Column(batch.KeyAdv), 0, rows))))
	loss = float64(surr.Item())
	n.zeroGrad()
	tp.Backward(surr)
	n.readGrad(n.g, -1) // g = −∇L
	n.conjugateGradient()
	if n.step.MaxKL <= 0 {
		n.setParams(n.step.StepSize)
		kl, _, err = n.evaluate(obs, rows)
		return loss, kl, n.step.StepSize, err
	}
	n.fisherVector(n.fp, n.x)
	xfx := dot(n.x, n.fp)
	s := math.Sqrt(2 * n.step.MaxKL / xfx)
	if !(xfx > 0) || math.IsNaN(s) || math.IsInf(s, 0) {
		s = 0
	}
	kl, s, err = n.lineSearch(obs, rows, loss, s)
	return loss, kl, s, err
}

// prepare starts the step on the rows: it records the minibatch's
// observations and the actor's linearization on fwd, records on Tape the
// product with w whose backward pass is Jᵀw, and keeps the parameters θ₀
// (and σ) before the step. It returns the observations.
func (n *Natural) prepare(rows []int) (*batch.Batch, error) {
	n.fwd.Reset()
	obs := n.Roll.ObsRows(&n.fwd, rows)
	if err := n.linearize(obs); err != nil {
		return nil, err
	}
	tp := &n.Tape
	tp.Reset()
	out, err := n.caller.Call(tp, n.actNet, obs)
	if err != nil {
		return nil, fmt.Errorf("actorcritic: actor: %w", err)
	}
	n.w = n.fwd.MulScalar(n.out0, 0)
	n.jtw = tp.Sum(tp.Mul(out, n.w))
	for j, p := range n.actorPs {
		o := n.offs[j]
		for i, v := range p.Tensor.Data() {
			n.theta0[o+i] = float64(v)
		}
	}
	if n.logStd != nil {
		n.sigma0 = grow(n.sigma0, n.logStd.Len())
		for i, v := range n.logStd.Data() {
			n.sigma0[i] = math.Exp(float64(v))
		}
	}
	return obs, nil
}

// lineSearch is TRPO's backtracking from the step s along x: it tries θ₀ +
// s·x, θ₀ + s·c·x, … (MaxBacktracks tries) and keeps the first whose mean
// KL divergence from the old policy is below MaxKL and whose surrogate loss
// is below loss, returning its KL and step; when none passes it restores
// θ₀ and returns zeros.
func (n *Natural) lineSearch(obs *batch.Batch, rows []int, loss, s float64) (kl, step float64, err error) {
	for range n.step.MaxBacktracks {
		if s == 0 {
			break
		}
		n.setParams(s)
		kl, newLoss, err := n.evaluate(obs, rows)
		if err != nil {
			return 0, 0, err
		}
		if kl < n.step.MaxKL && newLoss < loss {
			return kl, s, nil
		}
		s *= n.step.BacktrackCoeff
	}
	n.setParams(0)
	return 0, 0, nil
}

// linearize records on fwd the actor's forward pass over obs, keeping each
// Linear layer's input and each activation's derivative for the
// forward-mode passes, and the output in out0 (with its softmax in probs
// for a Categorical).
func (n *Natural) linearize(obs *batch.Batch) error {
	v, ok := obs.Get(n.obsKey)
	x, _ := v.(*tensor.Tensor)
	if !ok || x == nil || x.NDim() != 2 {
		return fmt.Errorf("%w: the natural gradient needs observations of one axis", ErrConfig)
	}
	tp := &n.fwd
	for i, l := range n.layers {
		s := &n.lin[i]
		if s.lin != nil {
			s.x = x
			x = tp.Linear(x, s.lin.Weight, s.lin.Bias)
			continue
		}
		x = l.Forward(tp, x)
		s.d = tp.MulScalar(x, 1)
		dd := s.d.Data()
		switch l.(nn.Activation) {
		case nn.ReLU:
			for j, y := range x.Data() {
				dd[j] = 0
				if y > 0 {
					dd[j] = 1
				}
			}
		case nn.Tanh:
			for j, y := range x.Data() {
				dd[j] = 1 - y*y
			}
		case nn.Sigmoid:
			for j, y := range x.Data() {
				dd[j] = y * (1 - y)
			}
		}
	}
	n.out0 = x
	if n.logStd == nil {
		a := x.Dim(1)
		m, err := n.mask.Read(obs, x.Dim(0), a)
		if err != nil {
			return fmt.Errorf("actorcritic: %w", err)
		}
		n.allowed = nil
		if m != nil {
			n.allowed = nd.Data[float32](m)
		}
		n.probs = grow(n.probs, x.Len())
		softmaxTo(n.probs, x.Data(), n.allowed, a)
	}
	return nil
}

// jvp records on jtp the actor's output tangent J v for the parameter
// tangent v (flat), through the layers linearize recorded.
func (n *Natural) jvp(v []float64) *tensor.Tensor {
	for j, t := range n.tangent {
		o := n.offs[j]
		for i := range t.Data() {
			t.Data()[i] = float32(v[o+i])
		}
	}
	tp := &n.jtp
	tp.Reset()
	var u *tensor.Tensor
	for _, s := range n.lin {
		if s.lin == nil {
			u = tp.Mul(u, s.d)
			continue
		}
		du := tp.Linear(s.x, s.vw, s.vb)
		if u != nil {
			du = tp.Add(tp.Linear(u, s.lin.Weight, nil), du)
		}
		u = du
	}
	return u
}

// fisherVector sets dst to (F + δI) v for the minibatch linearize recorded.
func (n *Natural) fisherVector(dst, v []float64) {
	u := n.jvp(v).Data()
	w := n.w.Data()
	k := n.out0.Dim(0)
	a := n.out0.Dim(1)
	inv := 1 / float64(k)
	if n.logStd == nil {
		for i := range k {
			p, ui := n.probs[i*a:(i+1)*a], u[i*a:(i+1)*a]
			var pu float64
			for j := range a {
				pu += p[j] * float64(ui[j])
			}
			for j := range a {
				w[i*a+j] = float32(p[j] * (float64(ui[j]) - pu) * inv)
			}
		}
	} else {
		for i := range w {
			s := n.sigma0[i%a]
			w[i] = float32(float64(u[i]) / (s * s) * inv)
		}
	}
	n.zeroGrad()
	n.Tape.Backward(n.jtw)
	n.readGrad(dst, 1)
	if n.logStd != nil {
		o := n.offs[len(n.offs)-1]
		for i := range n.logStd.Len() {
			dst[o+i] = 2 * v[o+i]
		}
	}
	for i := range dst {
		dst[i] += n.cfg.Damping * v[i]
	}
}

// conjugateGradient solves (F + δI) x = g by CGSteps iterations of the
// conjugate gradient from x = 0, stopping early once the squared residual
// is below 10⁻¹⁰ (Tianshou's).
func (n *Natural) conjugateGradient() {
	ConjugateGradient(n.x, n.g, n.r, n.p, n.fp, n.cfg.CGSteps, n.fisherVector)
}

// ConjugateGradient solves A x = b for a symmetric positive-definite A
// given by its product av(dst, v) = A v, by at most steps iterations of the
// conjugate gradient from x = 0, stopping once rᵀr < 10⁻¹⁰; r, p and ap are
// scratch of len(b). It returns the number of iterations made.
func ConjugateGradient(x, b, r, p, ap []float64, steps int, av func(dst, v []float64)) int {
	clear(x)
	copy(r, b)
	copy(p, b)
	rr := dot(r, r)
	for i := range steps {
		if rr < 1e-10 {
			return i
		}
		av(ap, p)
		alpha := rr / dot(p, ap)
		for j := range x {
			x[j] += alpha * p[j]
			r[j] -= alpha * ap[j]
		}
		next := dot(r, r)
		for j := range p {
			p[j] = r[j] + next/rr*p[j]
		}
		rr = next
	}
	return steps
}

// setParams sets the actor's parameters to θ₀ + s·x.
func (n *Natural) setParams(s float64) {
	for j, p := range n.actorPs {
		o := n.offs[j]
		d := p.Tensor.Data()
		for i := range d {
			d[i] = float32(n.theta0[o+i] + s*n.x[o+i])
		}
	}
}

// evaluate returns the mean KL divergence of the current policy from the
// one linearize recorded, and the surrogate loss, on the rows; an error
// for a policy whose parameters are not finite.
func (n *Natural) evaluate(obs *batch.Batch, rows []int) (kl, loss float64, err error) {
	n.jtp.Reset()
	out, err := n.caller.Call(&n.jtp, n.actNet, obs)
	if err != nil {
		return 0, 0, fmt.Errorf("actorcritic: actor: %w", err)
	}
	r := &n.Roll
	k, a := out.Dim(0), out.Dim(1)
	o1, o0 := out.Data(), n.out0.Data()
	act, adv, lpOld := r.Act().Data(), r.Column(batch.KeyAdv).Data(), r.Column(batch.KeyLogpOld).Data()
	for i, row := range rows {
		var lp, d float64
		if n.logStd == nil {
			z1, p0 := o1[i*a:(i+1)*a], n.probs[i*a:(i+1)*a]
			var allowed []float32
			if n.allowed != nil {
				allowed = n.allowed[i*a : (i+1)*a]
			}
			lse := logSumExp(z1, allowed)
			for j := range a {
				if p0[j] > 0 {
					d += p0[j] * (math.Log(p0[j]) - (float64(z1[j]) - lse))
				}
			}
			lp = float64(z1[int(act[row])]) - lse
		} else {
			for j := range a {
				ls := float64(n.logStd.Data()[j])
				s1, s0 := math.Exp(ls), n.sigma0[j]
				m1, m0 := float64(o1[i*a+j]), float64(o0[i*a+j])
				d += math.Log(s1/s0) + (s0*s0+(m0-m1)*(m0-m1))/(2*s1*s1) - 0.5
				z := (float64(act[row*a+j]) - m1) / s1
				lp += -0.5*z*z - ls - 0.5*math.Log(2*math.Pi)
			}
		}
		kl += d
		loss -= math.Exp(lp-float64(lpOld[row])) * float64(adv[row])
	}
	kl /= float64(k)
	loss /= float64(k)
	if math.IsNaN(kl) || math.IsNaN(loss) {
		return 0, 0, fmt.Errorf("actorcritic: the policy diverged (NaN parameters)")
	}
	return kl, loss, nil
}

// criticSteps makes CriticIters Adam steps of the critic on the rows and
// returns the mean of their losses.
func (n *Natural) criticSteps(rows []int) (float64, error) {
	r := &n.Roll
	obs := r.ObsRows(&n.fwd, rows)
	var sum float64
	for range n.cfg.CriticIters {
		tp := &n.Tape
		tp.Reset()
		v, err := n.Net.Value(tp, obs)
		if err != nil {
			return 0, err
		}
		loss := tp.MSE(v, tp.IndexSelect(r.Column(batch.KeyReturns), 0, rows))
		n.Opt.Step(tp, loss)
		sum += float64(loss.Item())
	}
	return sum / float64(n.cfg.CriticIters), nil
}

func (n *Natural) zeroGrad() {
	for _, p := range n.actorPs {
		p.Tensor.ZeroGrad()
	}
}

// readGrad sets dst to s times the actor's gradients (0 where Backward did
// not reach).
func (n *Natural) readGrad(dst []float64, s float64) {
	for j, p := range n.actorPs {
		o := n.offs[j]
		g := p.Tensor.Grad()
		for i := range p.Tensor.Len() {
			dst[o+i] = 0
			if g != nil {
				dst[o+i] = s * float64(g[i])
			}
		}
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// logSumExp returns log Σ exp z over the values allowed allows (all of
// them when allowed is nil).
func logSumExp(z, allowed []float32) float64 {
	m := math.Inf(-1)
	for j, v := range z {
		if allowed == nil || allowed[j] != 0 {
			m = math.Max(m, float64(v))
		}
	}
	var s float64
	for j, v := range z {
		if allowed == nil || allowed[j] != 0 {
			s += math.Exp(float64(v) - m)
		}
	}
	return m + math.Log(s)
}

// softmaxTo writes the softmax of each row of a values of z into dst, over
// the values the row of allowed (the action masks, nil for none) allows;
// the others get 0, as the masked Categorical gives them.
func softmaxTo(dst []float64, z, allowed []float32, a int) {
	for i := 0; i < len(z); i += a {
		var row []float32
		if allowed != nil {
			row = allowed[i : i+a]
		}
		lse := logSumExp(z[i:i+a], row)
		for j := range a {
			dst[i+j] = 0
			if row == nil || row[j] != 0 {
				dst[i+j] = math.Exp(float64(z[i+j]) - lse)
			}
		}
	}
}
