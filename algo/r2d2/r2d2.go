package r2d2

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// R2D2 is recurrent replay distributed DQN (Kapturowski et al., 2019) in
// one process: a recurrent Q network learned from fixed-length sequences
// of the replay buffer, each started from the state stored at collection
// and refreshed by a burn-in without gradient, with n-step double-Q
// targets from a target network, optional value rescaling, and priorities
// per sequence, the η-mix of the maximum and the mean absolute TD error.
// It is an algo.OffPolicy algorithm for a Box observation space of one
// axis and a Discrete action space; its policy is a *Policy.
//
// Every sampled transition starts the trained part of one sequence: its
// burn-in is the BurnIn steps before it in its episode, its trained steps
// are it and the SeqLen − 1 after it, and NStep more steps give the
// targets of the last ones. A sequence stops at its episode's end (or at
// the newest step of an unfinished one); the steps past it are masked.
//
// An R2D2 is driven by one goroutine at a time.
type R2D2 struct {
	cfg          Config
	net, target  *Net
	netPs, tgtPs nn.Params
	opt          *optim.Adam
	pol          *Policy
	src          *rand.PCG // the policy's random source
	space        *env.Discrete
	nAct         int

	counters counters

	// The sequences of the last Preprocess: m of them, laid out time-major
	// over S = BurnIn + SeqLen + NStep + 1 slots.
	n        int
	rows     []int          // [(S−1)·m] buffer index of each slot, −1 past a sequence's ends
	take     []int          // rows with the padding replaced by the sequence's first trained step
	length   []int          // valid slots from the first trained one, in [1, SeqLen + NStep]
	burn     []int          // burn-in steps each sequence has, in [0, BurnIn]
	cur, nxt []int          // walking scratch
	seq      batch.Batch    // the transitions at take
	x        *tensor.Tensor // inputs [S·m, in]: obs, obs_next after the last valid step, zeros
	hOn, hTg *tensor.Tensor // states [m, StateSize] after the burn-in, online and target
	actIdx   []int          // [SeqLen·m] actions of the trained slots
	retT     *tensor.Tensor // [SeqLen·m] targets, 0 on padding
	retArr   *nd.Array      // the targets [m, SeqLen], stored in the batch
	coefT    *tensor.Tensor // [SeqLen·m] the loss's weight of each trained slot
	mask     []bool         // [SeqLen·m] the trained slots that exist
	valid    int            // their number
	w        []float32      // importance weights of the sequences
	wArr     *nd.Array      // w as an array
	tIdx     []int          // buffer indices of the valid trained slots
	tPos     []int          // their positions t·m + i
	nstep    algo.NStep
	acts     algo.DiscreteActions
	argmax   []int
	td       []float64 // TD errors of the last Update, [SeqLen·m]
	prio     []float64 // priorities of the last Update, [m]
	tp, ntp  tensor.Tape
	outs     []*tensor.Tensor
	stats    map[string]float64
}

// counters are the parts of the state that are not tensors.
type counters struct {
	Updates  int64   `json:"updates"`
	EnvSteps int64   `json:"env_steps"`
	EpsTrain float64 `json:"eps_train"`
	EpsTest  float64 `json:"eps_test"`
	algo.BetaSchedule
}

// New returns an R2D2 for an env with the given spaces, its weights and the
// seed of its policy's random source drawn from rng; the target network
// starts as a copy of the online one. It returns an error wrapping
// ErrConfig for an invalid cfg, an observation space other than a Box of
// one axis, or an action space other than Discrete.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*R2D2, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	box, ok := obs.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: r2d2 needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	disc, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: r2d2 needs a Discrete action space, not %v", ErrConfig, act)
	}
	cfg.HeadHidden = slices.Clone(cfg.HeadHidden)
	net, err := newNet(cfg, box.Shape()[0], int(disc.N()), rng)
	if err != nil {
		return nil, err
	}
	target, err := newNet(cfg, box.Shape()[0], int(disc.N()), rng)
	if err != nil {
		return nil, err
	}
	r := &R2D2{cfg: cfg, net: net, target: target, netPs: net.Params(), tgtPs: target.Params(),
		space: disc, nAct: int(disc.N()), src: rand.NewPCG(rng.Uint64(), rng.Uint64()),
		stats: map[string]float64{"loss": 0, "td": 0}}
	if err := nn.Copy(r.tgtPs, r.netPs); err != nil {
		return nil, fmt.Errorf("%w: target network: %w", ErrConfig, err)
	}
	if r.opt, err = optim.NewAdam(r.netPs, cfg.Optim); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	hold, err := policy.NewHold(cfg.Hold)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	r.pol = newPolicy(net, disc, rand.New(r.src), hold)
	r.counters.EpsTrain, r.counters.EpsTest = cfg.EpsTrain, cfg.EpsTest
	r.pol.epsTrain, r.pol.epsTest = cfg.EpsTrain, cfg.EpsTest
	r.ntp.SetGradEnabled(false)
	return r, nil
}

// Config returns the configuration.
func (r *R2D2) Config() Config { return r.cfg }

// Net returns the online network and Target the target network.
func (r *R2D2) Net() *Net { return r.net }

// Target returns the target network.
func (r *R2D2) Target() *Net { return r.target }

// Policy returns the recurrent ε-greedy policy (a *Policy).
func (r *R2D2) Policy() policy.Policy { return r.pol }

// Updates returns the number of gradient steps taken.
func (r *R2D2) Updates() int64 { return r.counters.Updates }

// Schedule sets the training ε for envSteps env steps of training (EpsTrain
// annealed linearly to EpsTrainFinal over EpsDecaySteps) and records
// envSteps for the β schedule applied in Postprocess. It implements
// algo.Scheduled.
func (r *R2D2) Schedule(envSteps int64) {
	r.counters.EnvSteps = envSteps
	if r.cfg.EpsDecaySteps > 0 {
		r.counters.EpsTrain = algo.Anneal(r.cfg.EpsTrain, r.cfg.EpsTrainFinal, envSteps, r.cfg.EpsDecaySteps)
		r.pol.epsTrain = r.counters.EpsTrain
	}
}

// slots returns the number of time slots of a sequence: burn-in, trained
// steps, the n steps after them, and the observation after the last.
func (r *R2D2) slots() int { return r.cfg.BurnIn + r.cfg.SeqLen + r.cfg.NStep + 1 }

// ensure sizes the scratch memory for m sequences.
func (r *R2D2) ensure(m int) {
	if r.hOn != nil && r.hOn.Dim(0) == m {
		return
	}
	S, T, w := r.slots(), r.cfg.SeqLen, r.net.StateSize()
	r.rows, r.take = make([]int, (S-1)*m), make([]int, (S-1)*m)
	r.length, r.burn, r.cur, r.nxt = make([]int, m), make([]int, m), make([]int, m), make([]int, m)
	r.x = tensor.New(S*m, r.net.InSize())
	r.hOn, r.hTg = tensor.New(m, w), tensor.New(m, w)
	r.actIdx, r.mask = make([]int, T*m), make([]bool, T*m)
	r.retT, r.coefT = tensor.New(T*m), tensor.New(T*m)
	r.retArr = nd.Zeros(nd.Float32, m, T)
	r.wArr = nd.Zeros(nd.Float32, m)
	r.w = nd.Data[float32](r.wArr)
	r.td, r.prio = make([]float64, T*m), make([]float64, m)
	r.argmax = make([]int, (S-r.cfg.BurnIn)*m)
}

// Preprocess builds the sequences of the m sampled transitions of buf at
// indices (see R2D2): it walks the buffer back for the burn-in and forward
// for the trained and target steps, takes those transitions, steps the
// online and the target network through the burn-in from the state stored
// at its first step ("policy.state_in"; zeros where the buffer holds none),
// and computes each trained step's n-step double-Q target from the target
// network's value of the online network's greedy action (rescaled with
// ValueRescale). It stores "returns", [m, SeqLen] float32 with 0 past a
// sequence's end, in b: an array that is memory of the R2D2, overwritten by
// the next Preprocess.
//
// It returns an error if buf's transitions lack a key or hold
// observations, actions or states that do not fit the networks.
func (r *R2D2) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	r.n = 0
	m := len(indices)
	if m == 0 {
		return fmt.Errorf("r2d2: %w", buffer.ErrEmpty)
	}
	r.ensure(m)
	B, T, E := r.cfg.BurnIn, r.cfg.SeqLen, r.cfg.SeqLen+r.cfg.NStep
	// Forward from each sampled step: slots B … B+E−1.
	copy(r.cur, indices)
	for i, s := range indices {
		r.rows[B*m+i], r.length[i] = s, 1
	}
	for j := 1; j < E; j++ {
		buf.NextTo(r.nxt, r.cur)
		for i := range m {
			row := -1
			if r.length[i] == j && r.nxt[i] != r.cur[i] {
				row = r.nxt[i]
				r.length[i]++
				r.cur[i] = row
			}
			r.rows[(B+j)*m+i] = row
		}
	}
	// Back for the burn-in: slots B−1 … 0.
	copy(r.cur, indices)
	clear(r.burn)
	for j := B - 1; j >= 0; j-- {
		buf.PrevTo(r.nxt, r.cur)
		for i := range m {
			row := -1
			if r.burn[i] == B-1-j && r.nxt[i] != r.cur[i] {
				row = r.nxt[i]
				r.burn[i]++
				r.cur[i] = row
			}
			r.rows[j*m+i] = row
		}
	}
	for k, row := range r.rows {
		if row < 0 {
			row = indices[k%m]
		}
		r.take[k] = row
	}
	if err := buf.TakeTo(&r.seq, r.take); err != nil {
		return fmt.Errorf("r2d2: %w", err)
	}
	if err := r.load(m); err != nil {
		return err
	}
	r.burnIn(m)
	if err := r.targets(m, buf); err != nil {
		return err
	}
	r.n = m
	ret, d := r.retT.Data(), nd.Data[float32](r.retArr)
	for t := range T {
		for i := range m {
			d[i*T+t] = ret[t*m+i]
		}
	}
	return b.Set(batch.KeyReturns, r.retArr)
}

// load copies the taken observations into the input slots, the actions of
// the trained slots, and the stored states at the burn-ins' first steps.
func (r *R2D2) load(m int) error {
	B, T, in, w := r.cfg.BurnIn, r.cfg.SeqLen, r.net.InSize(), r.net.StateSize()
	rows := len(r.take)
	obs, err := r.floats(batch.KeyObs, rows, in)
	if err != nil {
		return err
	}
	next, err := r.floats(batch.KeyObsNext, rows, in)
	if err != nil {
		return err
	}
	x := r.x.Data()
	clear(x)
	for k, row := range r.rows {
		if row >= 0 {
			copy(x[k*in:(k+1)*in], obs[k*in:(k+1)*in])
		}
	}
	for i, l := range r.length {
		last, slot := (B+l-1)*m+i, (B+l)*m+i
		copy(x[slot*in:(slot+1)*in], next[last*in:(last+1)*in])
	}
	idx, err := r.acts.Read(&r.seq, r.space)
	if err != nil {
		return fmt.Errorf("r2d2: %w", err)
	}
	copy(r.actIdx, idx[B*m:(B+T)*m])
	h := r.hOn.Data()
	clear(h)
	if v, ok := r.seq.Get(batch.KeyPolicy); ok {
		pd, _ := v.(*batch.Batch)
		var st any
		if pd != nil {
			st, _ = pd.Get(KeyStateIn)
		}
		if s, ok := st.(*nd.Array); ok {
			if s.Ndim() != 2 || s.Dim(0) != rows || s.Dim(1) != w || s.DType() != nd.Float32 || !s.IsContiguous() {
				return fmt.Errorf("r2d2: policy.%s of shape %v and dtype %v; want float32 [%d %d]", KeyStateIn, s.Shape(), s.DType(), rows, w)
			}
			sd := nd.Data[float32](s)
			for i, b := range r.burn {
				k := (B-b)*m + i
				copy(h[i*w:(i+1)*w], sd[k*w:(k+1)*w])
			}
		}
	}
	copy(r.hTg.Data(), h)
	return nil
}

// floats returns the data of the taken array under key, float32 [rows, in].
func (r *R2D2) floats(key string, rows, in int) ([]float32, error) {
	a, err := r.seq.Array(key)
	if err != nil {
		return nil, fmt.Errorf("r2d2: %w", err)
	}
	if a.Ndim() != 2 || a.Dim(0) != rows || a.Dim(1) != in || a.DType() != nd.Float32 || !a.IsContiguous() {
		return nil, fmt.Errorf("r2d2: %s of shape %v and dtype %v; want float32 [%d %d]", key, a.Shape(), a.DType(), rows, in)
	}
	return nd.Data[float32](a), nil
}

// burnIn steps the online and the target network's states through the
// burn-in slots without gradient; a sequence with a shorter burn-in keeps
// its stored state through the slots before its first step.
func (r *R2D2) burnIn(m int) {
	w := r.net.StateSize()
	tp := &r.ntp
	for j := range r.cfg.BurnIn {
		for _, c := range [...]struct {
			net *Net
			s   *tensor.Tensor
		}{{r.net, r.hOn}, {r.target, r.hTg}} {
			tp.Reset()
			next, _ := c.net.advance(tp, tp.Slice(r.x, 0, j*m, (j+1)*m), c.s)
			nd, sd := next.Data(), c.s.Data()
			for i := range m {
				if r.rows[j*m+i] >= 0 {
					copy(sd[i*w:(i+1)*w], nd[i*w:(i+1)*w])
				}
			}
		}
	}
}

// unroll records on tp the network stepped from the states h0 through
// steps slots from slot from, and returns the Q-values of every slot,
// [steps·m, n] time-major.
func (r *R2D2) unroll(tp *tensor.Tape, net *Net, h0 *tensor.Tensor, from, steps, m int) *tensor.Tensor {
	r.outs = r.outs[:0]
	h := h0
	var q *tensor.Tensor
	for j := from; j < from+steps; j++ {
		h, q = net.Step(tp, tp.Slice(r.x, 0, j*m, (j+1)*m), h)
		r.outs = append(r.outs, q)
	}
	if len(r.outs) == 1 {
		return r.outs[0]
	}
	return tp.Concat(0, r.outs...)
}

// targets computes the n-step targets of the valid trained slots, the mask
// and the number of valid slots.
func (r *R2D2) targets(m int, buf buffer.Buffer) error {
	B, T, E := r.cfg.BurnIn, r.cfg.SeqLen, r.cfg.SeqLen+r.cfg.NStep
	r.tIdx, r.tPos = r.tIdx[:0], r.tPos[:0]
	for t := range T {
		for i := range m {
			ok := t < r.length[i]
			r.mask[t*m+i] = ok
			if ok {
				r.tIdx = append(r.tIdx, r.rows[(B+t)*m+i])
				r.tPos = append(r.tPos, t*m+i)
			}
		}
	}
	r.valid = len(r.tIdx)
	last := r.nstep.Windows(buf, r.tIdx, r.cfg.Gamma, r.cfg.NStep)
	sum, disc := r.nstep.Discounted()
	tp := &r.ntp
	tp.Reset()
	qT := r.unroll(tp, r.target, r.hTg, B, E+1, m)
	qSel := qT
	if r.cfg.Double {
		qSel = r.unroll(tp, r.net, r.hOn, B, E+1, m)
	}
	r.argmax = tensor.ArgMaxTo(r.argmax, qSel, 1)
	qv := qT.Data()
	ret := r.retT.Data()
	clear(ret)
	for k, pos := range r.tPos {
		t, i := pos/m, pos%m
		steps := 0
		for j := t; j < r.length[i]; j++ {
			if r.rows[(B+j)*m+i] == last[k] {
				steps = j - t + 1
				break
			}
		}
		if steps == 0 {
			return fmt.Errorf("r2d2: the n-step window of index %d leaves its sequence", r.tIdx[k])
		}
		g := sum[k]
		if disc[k] != 0 {
			row := (t+steps)*m + i
			v := float64(qv[row*r.nAct+r.argmax[row]])
			if r.cfg.ValueRescale {
				v = rescaleInv(v, r.cfg.RescaleEps)
			}
			g += disc[k] * v
		}
		if r.cfg.ValueRescale {
			g = rescale(g, r.cfg.RescaleEps)
		}
		ret[pos] = float32(g)
	}
	return nil
}

// rescale is h(x) = sign(x)(√(|x|+1) − 1) + εx.
func rescale(x, eps float64) float64 {
	return math.Copysign(math.Sqrt(math.Abs(x)+1)-1, x) + eps*x
}

// rescaleInv is h⁻¹(x) = sign(x)·(((√(1 + 4ε(|x| + 1 + ε)) − 1)/(2ε))² − 1).
func rescaleInv(x, eps float64) float64 {
	a := (math.Sqrt(1+4*eps*(math.Abs(x)+1+eps)) - 1) / (2 * eps)
	return math.Copysign(a*a-1, x)
}

// Update makes one gradient step on the sequences of the last Preprocess:
// the online network stepped through the trained slots from its burned-in
// states, with gradients through time, and the loss
//
//	Σᵢ wᵢ Σₜ maskᵢₜ (Q(sᵢₜ, aᵢₜ) − Gᵢₜ)² / Σᵢₜ maskᵢₜ,
//
// wᵢ the importance weight of sequence i under "weight" in b (1 without).
// Then the target network is copied every TargetUpdateFreq steps, and each
// sequence's priority η·max|δ| + (1 − η)·mean|δ| over its trained steps is
// kept for Postprocess. It returns "loss" and "td" (the mean |δ|), a map
// owned by the R2D2.
//
// It returns an error if Preprocess has not run on a batch of b's length,
// or b's weights are not an array [m].
func (r *R2D2) Update(b *batch.Batch) (map[string]float64, error) {
	m := r.n
	if n, err := b.Len(); m == 0 || err != nil || n != m {
		return nil, fmt.Errorf("r2d2: Update of a batch of %d sequences after a Preprocess of %d (run Preprocess first)", n, m)
	}
	for i := range r.w {
		r.w[i] = 1
	}
	if v, ok := b.Get(batch.KeyWeight); ok {
		wa, ok := v.(*nd.Array)
		if !ok || wa.Ndim() != 1 || wa.Dim(0) != m || !wa.DType().IsFloat() {
			return nil, fmt.Errorf("r2d2: weight is %v; want a float array [%d]", v, m)
		}
		if err := nd.CopyTo(r.wArr, wa); err != nil {
			return nil, fmt.Errorf("r2d2: weight: %w", err)
		}
	}
	coef := r.coefT.Data()
	inv := 1 / float32(r.valid)
	for k, ok := range r.mask {
		coef[k] = 0
		if ok {
			coef[k] = r.w[k%m] * inv
		}
	}
	tp := &r.tp
	tp.Reset()
	q := r.unroll(tp, r.net, r.hOn, r.cfg.BurnIn, r.cfg.SeqLen, m)
	qa := tp.Gather(q, 1, r.actIdx)
	d := tp.Sub(qa, r.retT)
	loss := tp.Sum(tp.Mul(r.coefT, tp.Mul(d, d)))
	r.opt.ZeroGrad()
	tp.Backward(loss)
	if r.cfg.MaxGradNorm > 0 {
		optim.ClipGradNorm(r.netPs, r.cfg.MaxGradNorm)
	}
	r.opt.Step()
	r.counters.Updates++
	algo.UpdateTarget(r.tgtPs, r.netPs, r.counters.Updates, r.cfg.TargetUpdateFreq, 0)
	var abs float64
	for k, v := range d.Data() {
		r.td[k] = 0
		if r.mask[k] {
			r.td[k] = float64(v)
			abs += math.Abs(float64(v))
		}
	}
	priorities(r.prio, r.td, r.length, r.cfg.SeqLen, r.cfg.Eta)
	r.stats["loss"] = float64(loss.Item())
	r.stats["td"] = abs / float64(r.valid)
	return r.stats, nil
}

// priorities stores in prio the priority of each of the m = len(prio)
// sequences, η·max|δ| + (1 − η)·mean|δ| over its first min(length[i], T)
// TD errors of td, laid out time-major [T·m].
func priorities(prio, td []float64, length []int, T int, eta float64) {
	m := len(prio)
	for i := range prio {
		n := min(length[i], T)
		var mx, sum float64
		for t := range n {
			a := math.Abs(td[t*m+i])
			mx = max(mx, a)
			sum += a
		}
		prio[i] = eta*mx + (1-eta)*sum/float64(n)
	}
}

// TD returns the TD errors Q(s, a) − G of the last Update, [SeqLen·m]
// time-major (step t of sequence i at t·m + i), 0 on padding, and
// Priorities the priorities of its m sequences. Both are memory of the
// R2D2, overwritten by the next Update.
func (r *R2D2) TD() []float64 { return r.td }

// Priorities returns the priorities the last Update computed, one per
// sequence in the order of the sampled indices.
func (r *R2D2) Priorities() []float64 { return r.prio }

// Postprocess gives a prioritized buffer (buffer.Prioritizer) the
// priorities of the sequences of the last Update, at the indices of their
// first trained steps, and moves its β along the schedule (BetaFinal,
// BetaAnnealSteps). Other buffers are left alone.
func (r *R2D2) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if err := r.counters.Prioritize(buf, indices, r.prio, r.cfg.BetaFinal, r.counters.EnvSteps, r.cfg.BetaAnnealSteps); err != nil {
		return fmt.Errorf("r2d2: %w", err)
	}
	return nil
}

// Save writes the state: the online and target networks, Adam's state,
// the policy's random source, and the counters (gradient steps, env steps,
// ε, β schedule), with algo.SaveParts.
func (r *R2D2) Save(w io.Writer) error { return algo.SaveParts(w, r.parts()...) }

// Load restores a state written by Save into an R2D2 made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the R2D2 may then be partly restored.
func (r *R2D2) Load(rd io.Reader) error {
	if err := algo.LoadParts(rd, r.parts()...); err != nil {
		return err
	}
	r.pol.epsTrain, r.pol.epsTest = r.counters.EpsTrain, r.counters.EpsTest
	return nil
}

func (r *R2D2) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("q", r.netPs),
		algo.ParamsPart("target", r.tgtPs),
		{Name: "optim", Save: r.opt.Save, Load: r.opt.Load},
		algo.BinaryPart("rng", r.src),
		algo.JSONPart("counters", &r.counters),
	}
}
