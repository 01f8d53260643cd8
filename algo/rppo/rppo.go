package rppo

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// RPPO is PPO with a recurrent policy: the clipped objective of PPO
// (Schulman et al., 2017) learned from sequences of the collection
// (actorcritic.Chunks of SeqLen steps that never cross an episode end),
// each started from the hidden state stored at collection, the cell stepped
// through it with gradients flowing back through time. Minibatches hold
// whole sequences. It is an algo.OnPolicy algorithm for a Box observation
// space of one axis and a Discrete action space (a Categorical) or a Box of
// one axis (a Gaussian with a state-independent σ, as PPO's
// actorcritic.NormalHead, or with state-dependent exploration through
// PPO's actorcritic.SDEHead); its policy is a *Policy.
//
// An RPPO is driven by one goroutine at a time.
type RPPO struct {
	cfg   Config
	net   *Net
	pol   *Policy
	opt   *actorcritic.Optimizer
	space env.Space
	disc  *env.Discrete // nil for Box actions
	shuf  *rand.Rand

	polSrc, shufSrc *rand.PCG
	counters        actorcritic.Counters

	// The collection of the last Preprocess.
	n                   int
	obs, next, h0, hT   *tensor.Tensor    // [N, in], [N, in], [N, StateWidth] stored states, [N, StateWidth] states after each step
	act                 *tensor.Tensor    // category indices [N], or Box actions [N, m]
	obsND, nextND, h0ND *nd.Array         // the memory of obs, next and h0
	actND               *nd.Array         // the memory of act
	cols                [4]*tensor.Tensor // v_s, returns, adv, logp_old [N]
	colArrs             [4]*nd.Array      // their memory, stored in the batch
	logpOld, vs         []float32
	ret, adv, vNext     []float32
	vsS, vNextS         []float32                 // the values over RewardScale
	dist, pdist         distribution.Distribution // of the update, of Preprocess
	nextIdx             []int                     // the buffer's next index of each row
	chunks              actorcritic.Chunks
	packed              actorcritic.Packed
	perm, all           []int
	padRows, maskIdx    []int          // the padded layout of a minibatch and its mask's index into zeroOne
	zeroOne             *tensor.Tensor // [0, 1]
	ep                  algo.Episodic
	tp, ntp             tensor.Tape
	outs                []*tensor.Tensor
	stats               map[string]float64
}

// New returns a recurrent PPO for an env with the given spaces, its weights
// and the seeds of its random sources drawn from rng. It returns an error
// wrapping ErrConfig for an invalid cfg, an observation space other than a
// Box of one axis, or an action space other than a Discrete or a Box of one
// axis (with finite bounds when cfg.ActionMap scales).
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*RPPO, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	box, ok := obs.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: rppo needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	var out int
	var bmap *policy.BoxMap
	disc, _ := act.(*env.Discrete)
	switch a := act.(type) {
	case *env.Discrete:
		out = int(a.N())
	case *env.Box:
		if len(a.Shape()) != 1 {
			return nil, fmt.Errorf("%w: rppo needs a Box action space of one axis, not %v", ErrConfig, act)
		}
		out = a.Shape()[0]
		var err error
		if bmap, err = policy.NewBoxMap(a, cfg.ActionMap); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	default:
		return nil, fmt.Errorf("%w: rppo supports Discrete and Box action spaces, not %v", ErrConfig, act)
	}
	net, err := newNet(cfg, box.Shape()[0], out, disc == nil, rng)
	if err != nil {
		return nil, err
	}
	opt, err := actorcritic.NewOptimizer(net.Params(), cfg.Training)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	polSrc := rand.NewPCG(rng.Uint64(), rng.Uint64())
	shufSrc := rand.NewPCG(rng.Uint64(), rng.Uint64())
	r := &RPPO{cfg: cfg, net: net, opt: opt, space: act, disc: disc, shuf: rand.New(shufSrc), polSrc: polSrc, shufSrc: shufSrc,
		dist: net.newDist(), pdist: net.newDist(),
		stats: map[string]float64{"loss": 0, "clip_loss": 0, "vf_loss": 0, "entropy": 0}}
	r.pol = newPolicy(net, act, bmap, rand.New(polSrc), cfg.DeterministicEval)
	r.ntp.SetGradEnabled(false)
	r.zeroOne = tensor.New(2)
	r.zeroOne.Data()[1] = 1
	return r, nil
}

// Config returns the configuration.
func (r *RPPO) Config() Config { return r.cfg }

// Net returns the networks.
func (r *RPPO) Net() *Net { return r.net }

// Policy returns the recurrent policy (a *Policy).
func (r *RPPO) Policy() policy.Policy { return r.pol }

// Updates returns the number of gradient steps taken.
func (r *RPPO) Updates() int64 { return r.counters.Updates }

// Schedule sets the learning rate for envSteps env steps of training. It
// implements algo.Scheduled.
func (r *RPPO) Schedule(envSteps int64) {
	r.counters.EnvSteps = envSteps
	r.opt.Schedule(envSteps)
}

// Postprocess does nothing.
func (r *RPPO) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Preprocess reads the collection b (the transitions of buf at indices, in
// time order), cuts it into chunks, and evaluates the networks through each
// chunk from its stored start state ("policy.state_in"; zeros where b has
// none, the hidden state of a feed-forward collection): the old
// log-probabilities, the values V(sₜ), and V(sₜ₊₁) from one more step of
// the cells on obs_next; then GAE's advantages and returns (algo.Episodic)
// of the rewards times RewardScale. It stores
// "v_s", "returns", "adv" and "logp_old" in b, arrays that are memory of the
// RPPO. With SDE the log-probabilities are those of the state-dependent
// Gaussian, and the exploration matrices are redrawn at the next sample,
// the first of the next collection.
//
// It returns an error if b lacks a key or holds observations, actions or
// states that do not fit the networks.
func (r *RPPO) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	r.n = 0
	if err := r.load(b, len(indices)); err != nil {
		return err
	}
	buf.NextTo(r.nextIdx, indices)
	r.chunks.Split(indices, r.nextIdx, r.cfg.SeqLen)
	r.all = r.all[:0]
	for i := range r.chunks.Count() {
		r.all = append(r.all, i)
	}
	r.packed.Pack(&r.chunks, r.all)
	p := &r.packed
	tp := &r.ntp
	tp.Reset()
	h0 := tp.IndexSelect(r.h0, 0, p.Starts)
	hs, outs := r.net.Unroll(tp, h0, tp.IndexSelect(r.obs, 0, p.Rows), p.Steps, r.outs)
	r.outs = outs
	dist := r.pdist
	if err := r.net.SetDist(dist, tp, r.net.ActorOut(tp, hs)); err != nil {
		return err
	}
	logp := dist.LogProb(tp.IndexSelect(r.act, 0, p.Rows)).Data()
	v := r.net.Value(tp, hs).Data()
	hT := r.hT.Data()
	hsd, w := hs.Data(), r.net.StateWidth()
	for j, row := range p.Rows {
		r.logpOld[row], r.vs[row] = logp[j], v[j]
		copy(hT[row*w:(row+1)*w], hsd[j*w:(j+1)*w])
	}
	vn := r.net.Value(tp, r.net.Step(tp, r.next, r.hT)).Data()
	copy(r.vNext, vn)
	if s := r.cfg.RewardScale; s != 1 {
		// GAE is linear in the rewards and the values together: the
		// advantages of rewards s·r and values V are s times those of r
		// and V/s, and so are the returns.
		inv := float32(1 / s)
		for i, x := range r.vs {
			r.vsS[i] = x * inv
		}
		for i, x := range r.vNext {
			r.vNextS[i] = x * inv
		}
		r.ep.AdvantagesTo(r.adv, r.ret, buf, indices, r.vsS, r.vNextS, r.cfg.Gamma, r.cfg.GAELambda)
		for i := range r.adv {
			r.adv[i] *= float32(s)
			r.ret[i] *= float32(s)
		}
	} else {
		r.ep.AdvantagesTo(r.adv, r.ret, buf, indices, r.vs, r.vNext, r.cfg.Gamma, r.cfg.GAELambda)
	}
	r.n = len(indices)
	if r.net.SDE != nil {
		r.net.SDE.Redraw()
	}
	for i, k := range columns {
		if err := b.Set(k, r.colArrs[i]); err != nil {
			return err
		}
	}
	return nil
}

// columns are the keys Preprocess adds, in the order of RPPO.cols.
var columns = [...]string{batch.KeyVS, batch.KeyReturns, batch.KeyAdv, batch.KeyLogpOld}

// load copies the observations, next observations, actions and stored
// states of b, n rows, into the RPPO's memory.
func (r *RPPO) load(b *batch.Batch, n int) error {
	in, w := r.net.In(), r.net.StateWidth()
	if n == 0 {
		return fmt.Errorf("rppo: %w", buffer.ErrEmpty)
	}
	if r.obs == nil || r.obs.Dim(0) != n {
		r.obs, r.next = tensor.New(n, in), tensor.New(n, in)
		r.h0, r.hT = tensor.New(n, w), tensor.New(n, w)
		if r.disc != nil {
			r.act = tensor.New(n)
		} else {
			r.act = tensor.New(n, r.pol.m)
		}
		r.actND = r.act.ND()
		r.obsND, r.nextND, r.h0ND = r.obs.ND(), r.next.ND(), r.h0.ND()
		for i := range r.cols {
			r.cols[i] = tensor.New(n)
			r.colArrs[i] = r.cols[i].ND()
		}
		r.vs, r.ret, r.adv, r.logpOld = r.cols[0].Data(), r.cols[1].Data(), r.cols[2].Data(), r.cols[3].Data()
		r.vNext = make([]float32, n)
		r.vsS, r.vNextS = make([]float32, n), make([]float32, n)
		r.nextIdx = make([]int, n)
	}
	for _, c := range [...]struct {
		k string
		t *nd.Array
	}{{batch.KeyObs, r.obsND}, {batch.KeyObsNext, r.nextND}} {
		a, err := b.Array(c.k)
		if err != nil {
			return fmt.Errorf("rppo: %w", err)
		}
		if a.Ndim() != 2 || a.Dim(0) != n || a.Dim(1) != in {
			return fmt.Errorf("rppo: %s of shape %v; want [%d %d]", c.k, a.Shape(), n, in)
		}
		if err := nd.CopyTo(c.t, a); err != nil {
			return fmt.Errorf("rppo: %s: %w", c.k, err)
		}
	}
	a, err := b.Array(batch.KeyAct)
	if err != nil {
		return fmt.Errorf("rppo: %w", err)
	}
	if r.disc == nil {
		m := r.pol.m
		if a.Ndim() != 2 || a.Dim(0) != n || a.Dim(1) != m || (a.DType() != nd.Float32 && a.DType() != nd.Float64) {
			return fmt.Errorf("rppo: act of shape %v and dtype %v; want float [%d %d]", a.Shape(), a.DType(), n, m)
		}
		if err := nd.CopyTo(r.actND, a); err != nil {
			return fmt.Errorf("rppo: act: %w", err)
		}
	} else if err := r.loadDiscrete(a, n); err != nil {
		return err
	}
	return r.loadStates(b, n, w)
}

// loadDiscrete copies the category indices of the Discrete actions a, n
// rows, into the RPPO's memory.
func (r *RPPO) loadDiscrete(a *nd.Array, n int) error {
	if a.Ndim() != 1 || a.Dim(0) != n || a.DType() != nd.Int64 || !a.IsContiguous() {
		return fmt.Errorf("rppo: act of shape %v and dtype %v; want int64 [%d]", a.Shape(), a.DType(), n)
	}
	start, k := r.disc.Start(), r.disc.N()
	ad := r.act.Data()
	for i, v := range nd.Data[int64](a) {
		if v-start < 0 || v-start >= k {
			return fmt.Errorf("rppo: action %d outside %v", v, r.space)
		}
		ad[i] = float32(v - start)
	}
	return nil
}

// loadStates copies the stored states "policy.state_in" of b, n rows of w
// values, into the RPPO's memory, or zeros where b has none.
func (r *RPPO) loadStates(b *batch.Batch, n, w int) error {
	r.h0.Fill(0)
	if v, ok := b.Get(batch.KeyPolicy); ok {
		pd, _ := v.(*batch.Batch)
		var st any
		if pd != nil {
			st, _ = pd.Get(KeyStateIn)
		}
		if s, ok := st.(*nd.Array); ok {
			if s.Ndim() != 2 || s.Dim(0) != n || s.Dim(1) != w {
				return fmt.Errorf("rppo: policy.%s of shape %v; want [%d %d]", KeyStateIn, s.Shape(), n, w)
			}
			if err := nd.CopyTo(r.h0ND, s); err != nil {
				return fmt.Errorf("rppo: policy.%s: %w", KeyStateIn, err)
			}
		}
	}
	return nil
}

// UpdateRepeat learns from the collection of the last Preprocess in repeat
// passes over shuffled minibatches of whole sequences, max(1,
// batchSize/SeqLen) sequences each (0: all at once; the remainder joins the
// last minibatch): one step of the optimizer on PPO's loss per minibatch,
// averaged over the valid steps of its sequences. It returns the means over
// the minibatches of "loss", "clip_loss", "vf_loss" and "entropy", in a map
// owned by the RPPO.
//
// It returns an error if Preprocess has not run on a collection of b's
// length, or if the policy diverges (NaN logits). It panics as
// actorcritic.CheckRepeat does for invalid arguments.
func (r *RPPO) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	actorcritic.CheckRepeat(batchSize, repeat)
	if n, err := b.Len(); r.n == 0 || err != nil || n != r.n {
		return nil, fmt.Errorf("rppo: UpdateRepeat of a batch of %d transitions after a Preprocess of %d (run Preprocess first)", n, r.n)
	}
	nc := r.chunks.Count()
	per := nc
	if batchSize > 0 {
		per = min(nc, max(1, batchSize/r.cfg.SeqLen))
	}
	mbs := nc / per
	r.perm = r.perm[:0]
	for i := range nc {
		r.perm = append(r.perm, i)
	}
	var sum, clipSum, vfSum, entSum float64
	steps := 0
	defer func() { r.counters.Updates += int64(steps) }()
	eps := float32(r.cfg.EpsClip)
	for range repeat {
		for i := len(r.perm) - 1; i > 0; i-- {
			j := r.shuf.IntN(i + 1)
			r.perm[i], r.perm[j] = r.perm[j], r.perm[i]
		}
		for m := range mbs {
			sel := r.perm[m*per : (m+1)*per]
			if m == mbs-1 {
				sel = r.perm[m*per:]
			}
			r.packed.Pack(&r.chunks, sel)
			p := &r.packed
			m := len(p.Order)
			r.padRows = p.PaddedRows(r.padRows, r.cfg.SeqLen)
			r.maskIdx = slices.Grow(r.maskIdx[:0], len(r.padRows))[:len(r.padRows)]
			for i := range r.padRows {
				t, j := i/m, i%m
				r.maskIdx[i] = 0
				if t < len(p.Steps) && j < p.Steps[t] {
					r.maskIdx[i] = 1
				}
			}
			tp := &r.tp
			tp.Reset()
			hs, outs := r.net.UnrollPadded(tp, tp.IndexSelect(r.h0, 0, p.Starts), r.obs, r.padRows, m, r.outs)
			r.outs = outs
			d := r.dist
			if err := r.net.SetDist(d, tp, r.net.ActorOut(tp, hs)); err != nil {
				return nil, err
			}
			v := tp.Squeeze(r.net.Value(tp, hs), 1)
			mask := tp.IndexSelect(r.zeroOne, 0, r.maskIdx)
			inv := float32(1 / float64(len(p.Rows))) // 1/Σmask
			masked := func(x *tensor.Tensor) *tensor.Tensor { return tp.MulScalar(tp.Sum(tp.Mul(x, mask)), inv) }
			ret, adv, logpOld := tp.IndexSelect(r.cols[1], 0, r.padRows), tp.IndexSelect(r.cols[2], 0, r.padRows), tp.IndexSelect(r.cols[3], 0, r.padRows)
			if r.cfg.AdvantageNormalization {
				normalize(adv.Data(), mask.Data())
			}
			logp := d.LogProb(tp.IndexSelect(r.act, 0, r.padRows))
			ratio := tp.Exp(tp.Sub(logp, logpOld))
			surr := tp.Minimum(tp.Mul(ratio, adv), tp.Mul(tp.Clamp(ratio, 1-eps, 1+eps), adv))
			clipLoss := tp.Neg(masked(surr))
			dv := tp.Sub(v, ret)
			vfLoss := masked(tp.Mul(dv, dv))
			ent := masked(d.(entropic).Entropy())
			loss := tp.Add(clipLoss, tp.MulScalar(vfLoss, float32(r.cfg.VFCoef)))
			if r.cfg.EntCoef != 0 {
				loss = tp.Sub(loss, tp.MulScalar(ent, float32(r.cfg.EntCoef)))
			}
			r.opt.Step(tp, loss)
			sum += float64(loss.Item())
			clipSum += float64(clipLoss.Item())
			vfSum += float64(vfLoss.Item())
			entSum += float64(ent.Item())
			steps++
		}
	}
	k := float64(steps)
	r.stats["loss"], r.stats["clip_loss"], r.stats["vf_loss"], r.stats["entropy"] = sum/k, clipSum/k, vfSum/k, entSum/k
	return r.stats, nil
}

// entropic is a distribution with an entropy: the Categorical and the
// Independent Normal of Net.newDist.
type entropic interface{ Entropy() *tensor.Tensor }

// normalize standardizes the values of x where mask is 1 in place, (x −
// mean)/(std + 10⁻⁸) with their sample standard deviation, as PPO's
// advantage normalization; the others (padding) are left.
func normalize(x, mask []float32) {
	var sum, n float64
	for i, v := range x {
		if mask[i] == 1 {
			sum += float64(v)
			n++
		}
	}
	mean := sum / n
	var ss float64
	for i, v := range x {
		if mask[i] == 1 {
			d := float64(v) - mean
			ss += d * d
		}
	}
	std := 0.0
	if n > 1 {
		std = math.Sqrt(ss / (n - 1))
	}
	for i, v := range x {
		if mask[i] == 1 {
			x[i] = float32((float64(v) - mean) / (std + 1e-8))
		}
	}
}

// Save writes the state: the networks, Adam's state, the random sources of
// the policy and of the minibatches, the counters, and with SDE the
// exploration matrices (algo.SaveParts).
func (r *RPPO) Save(w io.Writer) error { return algo.SaveParts(w, r.parts()...) }

// Load restores a state written by Save into an RPPO made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit.
func (r *RPPO) Load(rd io.Reader) error { return algo.LoadParts(rd, r.parts()...) }

func (r *RPPO) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("net", r.net.Params()),
		{Name: "optim", Save: r.opt.Save, Load: r.opt.Load},
		algo.BinaryPart("policy_rng", r.polSrc),
		algo.BinaryPart("shuffle_rng", r.shufSrc),
		algo.JSONPart("counters", &r.counters),
	}
	if r.net.SDE != nil {
		ps = append(ps, algo.BinaryPart("sde", r.net.SDE))
	}
	return ps
}
