package categorical

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
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// KeyTargetDist is the batch key of the projected target distributions that
// Preprocess stores and Update reads: float32 [B, atoms].
const KeyTargetDist = "target_dist"

// DQN is a categorical (distributional) deep Q-learner, the part of C51 and
// Rainbow they share: an online and a target network giving logits over the
// atoms of each action, Adam, the n-step projected Bellman target, the
// cross-entropy loss, and prioritized replay by that loss. The algorithms
// embed it and call Init; its methods make them algo.OffPolicy and
// algo.Scheduled.
//
// A DQN is driven by one goroutine at a time.
type DQN struct {
	s       Settings
	expl    Exploration
	support Support
	net     network // online
	target  network // net nil without a target network
	netPs   nn.Params
	tgtPs   nn.Params
	opt     *algo.QOptim
	q       *policy.Q
	pol     policy.Policy // q, or q switching the noise with the training-step flag
	src     *rand.PCG     // the policy's random source
	noise   *rand.PCG     // the noisy layers' source
	noiseR  *rand.Rand
	space   *env.Discrete
	nAct    int

	counters counters

	// Scratch reused by every cycle.
	tp, ntp           tensor.Tape // the update, with gradients; targets, without
	caller            nn.Caller   // online network on the batch
	nextCall, tgtCall nn.Caller   // online and target networks on obs_next
	returns           algo.QReturns
	acts              algo.DiscreteActions
	probs             []float32      // softmax of one network's logits on obs_next
	nextQ             []float32      // [actions]: the online network's expected returns at one obs_next
	nextMask          env.ActionMask // action masks of obs_next
	nextP             []float32      // [B, atoms]: the target's distribution of the chosen action
	dist              []float32      // [B, atoms]: the projected targets
	distArr           *nd.Array      // dist as an array, stored under KeyTargetDist
	distT, wT         *tensor.Tensor
	distN, wN         *nd.Array // their memory as arrays
	gather            []int     // the action of each atom of each row
	ce                []float64 // per-sample cross entropies of the last update
	stats             map[string]float64
}

// counters are the parts of the state that are not tensors.
type counters struct {
	Updates  int64   `json:"updates"`
	EnvSteps int64   `json:"env_steps"`
	EpsTrain float64 `json:"eps_train"`
	algo.BetaSchedule
}

// Init builds d for an env with the given spaces: the online and target
// networks (a trunk from s, the head h), Adam, and a policy.Q acting
// greedily on the expected returns, ε-greedily with e, or, with noisy
// layers, through the noise while collecting training data and with the
// mean weights while testing. The weights, the seed of the policy's random
// source and that of the noise are drawn from rng.
//
// Init returns an error wrapping ErrConfig for invalid settings, an action
// space that is not Discrete (naming it), or an observation space the
// networks cannot take.
func (d *DQN) Init(s Settings, h Head, e Exploration, obs, act env.Space, rng *rand.Rand) error {
	for _, err := range []error{s.Validate(), h.Validate(), e.Validate()} {
		if err != nil {
			return err
		}
	}
	space, ok := act.(*env.Discrete)
	if !ok {
		return fmt.Errorf("%w: a categorical DQN needs a Discrete action space, not %v", ErrConfig, act)
	}
	support, err := NewSupport(s.NumAtoms, s.VMin, s.VMax)
	if err != nil {
		return err
	}
	s.Hidden = slices.Clone(s.Hidden)
	*d = DQN{s: s, expl: e, support: support, space: space, nAct: int(space.N()),
		stats: map[string]float64{"loss": 0}}
	if d.net, err = buildNet(s, h, obs, d.nAct, rng); err != nil {
		return err
	}
	d.netPs = d.net.net.Params()
	if s.target() {
		if d.target, err = buildNet(s, h, obs, d.nAct, rng); err != nil {
			return err
		}
		d.tgtPs = d.target.net.Params()
	}
	if d.opt, err = algo.NewQOptim(algo.QOptimConfig{Params: d.netPs, Online: d.netPs, Target: d.tgtPs, Adam: s.Optim,
		TargetUpdateFreq: s.TargetUpdateFreq, Tau: s.Tau, MaxGradNorm: s.MaxGradNorm, Updates: &d.counters.Updates}, ErrConfig); err != nil {
		return err
	}
	d.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	if d.q, err = policy.NewQ(newQNet(d.net.net, d.nAct, support), space, rand.New(d.src)); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.pol = d.q
	if len(d.net.noisy) > 0 {
		d.noise = rand.NewPCG(rng.Uint64(), rng.Uint64())
		d.noiseR = rand.New(d.noise)
		d.pol = noisyPolicy{d.q, d.net.noisy}
	}
	d.counters.EpsTrain = e.EpsTrain
	if err := d.q.SetEps(e.EpsTrain, e.EpsTest); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := d.q.SetHold(e.Hold); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	d.ntp.SetGradEnabled(false)
	return nil
}

// noisyPolicy is the policy of a network with noisy layers: the layers add
// their noise while the training-step flag is on and use their mean weights
// while it is off (testing, deployment).
type noisyPolicy struct {
	*policy.Q
	layers []*nn.NoisyLinear
}

// Act switches the noisy layers to the training-step flag, then acts.
func (p noisyPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	setTraining(p.layers, p.TrainingStep())
	return p.Q.Act(dst, obs, state, explore)
}

func setTraining(ls []*nn.NoisyLinear, on bool) {
	for _, l := range ls {
		l.SetTraining(on)
	}
}

// Settings returns the settings.
func (d *DQN) Settings() Settings { return d.s }

// Policy returns the policy: a *policy.Q acting on the expected returns,
// wrapped, for noisy networks, in a policy that switches their noise.
func (d *DQN) Policy() policy.Policy { return d.pol }

// Q returns the Q policy (ε-greedy on the expected returns).
func (d *DQN) Q() *policy.Q { return d.q }

// Network returns the online network (logits [k, actions·atoms] of k
// observations) and Target the target network (nil without one).
func (d *DQN) Network() policy.Network { return d.net.net }

// Target returns the target network, or nil.
func (d *DQN) Target() policy.Network { return d.target.net }

// Support returns the atoms of the return distribution.
func (d *DQN) Support() Support { return d.support }

// Updates returns the number of gradient steps taken.
func (d *DQN) Updates() int64 { return d.counters.Updates }

// Schedule records envSteps for the β schedule of a prioritized buffer and
// sets the training ε of the schedule (Exploration). It implements
// algo.Scheduled.
func (d *DQN) Schedule(envSteps int64) {
	d.counters.EnvSteps = envSteps
	if d.expl.EpsDecaySteps > 0 {
		d.counters.EpsTrain = algo.Anneal(d.expl.EpsTrain, d.expl.EpsTrainFinal, envSteps, d.expl.EpsDecaySteps)
		d.q.SetEps(d.counters.EpsTrain, d.expl.EpsTest) // in [0, 1]: both ends are
	}
}

// Preprocess stores in b under KeyTargetDist the projected n-step target
// distribution of each sampled transition: the distribution of the target
// network (the online network without one) at the obs_next of the window's
// last step, for the action of largest expected return under the online
// network, shifted by the discounted rewards, scaled by γᵐ (collapsed onto
// the rewards after a terminal step) and projected onto the support
// (Support.ProjectTo). When the next observations carry action masks
// (env.ActionMask), the greedy action is the best allowed one. It also
// stores the n-step returns with the expected target values under
// "returns" (algo.QReturns). With noisy layers, both
// networks first draw new noise, which the update then uses.
//
// It returns an error if the networks cannot take the stored observations or
// if b holds no obs_next for the windows' last steps.
func (d *DQN) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if d.noiseR != nil {
		for _, ls := range [][]*nn.NoisyLinear{d.net.noisy, d.target.noisy} {
			setTraining(ls, true)
			for _, l := range ls {
				l.ResetNoise(d.noiseR)
			}
		}
	}
	if err := d.returns.Preprocess(b, buf, indices, d.s.Gamma, d.s.NStep, d.targets); err != nil {
		return err
	}
	k, atoms := len(indices), d.support.Len()
	if len(d.dist) != k*atoms || d.distArr == nil {
		d.dist = make([]float32, k*atoms)
		d.distArr, _ = nd.FromSlice(d.dist, k, atoms) // float32 of this size always converts
	}
	sum, disc := d.returns.Discounted()
	for i := range k {
		d.support.ProjectTo(d.dist[i*atoms:(i+1)*atoms], d.nextP[i*atoms:(i+1)*atoms], sum[i], disc[i])
	}
	return b.Set(KeyTargetDist, d.distArr)
}

// targets stores in nextP the distributions of the next observations in
// next (the target network's, for the online network's greedy actions) and
// in tq their expected values.
func (d *DQN) targets(tq []float32, next *batch.Batch) error {
	k, atoms := len(tq), d.support.Len()
	d.ntp.Reset()
	online, err := d.nextCall.Call(&d.ntp, d.net.net, next)
	if err != nil {
		return fmt.Errorf("categorical: network on obs_next: %w", err)
	}
	if err := d.checkLogits(online, k); err != nil {
		return err
	}
	values := online
	if d.target.net != nil {
		if values, err = d.tgtCall.Call(&d.ntp, d.target.net, next); err != nil {
			return fmt.Errorf("categorical: target network on obs_next: %w", err)
		}
		if err := d.checkLogits(values, k); err != nil {
			return err
		}
	}
	mask, err := d.nextMask.Read(next, k, d.nAct)
	if err != nil {
		return fmt.Errorf("categorical: obs_next: %w", err)
	}
	var m []float32
	if mask != nil {
		m = nd.Data[float32](mask)
	}
	d.probs = slices.Grow(d.probs[:0], atoms)[:atoms]
	d.nextQ = slices.Grow(d.nextQ[:0], d.nAct)[:d.nAct]
	d.nextP = slices.Grow(d.nextP[:0], k*atoms)[:k*atoms]
	ol, vl := online.Data(), values.Data()
	row := d.nAct * atoms
	for i := range k {
		for a := range d.nAct {
			softmaxTo(d.probs, ol[i*row+a*atoms:i*row+(a+1)*atoms])
			d.nextQ[a] = float32(d.support.Mean(d.probs))
		}
		p := d.nextP[i*atoms : (i+1)*atoms]
		best := 0
		if m != nil {
			if best = policy.ArgMaxValid(d.nextQ, m[i*d.nAct:(i+1)*d.nAct]); best < 0 {
				// An observation allowing no action ends its episode: all
				// mass at 0, as a terminal step uses no bootstrap value.
				d.support.ProjectTo(p, d.probs, 0, 0)
				tq[i] = float32(d.support.Mean(p))
				continue
			}
		} else {
			for a, q := range d.nextQ {
				if q > d.nextQ[best] {
					best = a
				}
			}
		}
		softmaxTo(p, vl[i*row+best*atoms:i*row+(best+1)*atoms])
		tq[i] = float32(d.support.Mean(p))
	}
	return nil
}

// softmaxTo stores the softmax of x in p, computed stably.
func softmaxTo(p, x []float32) {
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v)
	}
	var s float64
	for j, v := range x {
		e := math.Exp(float64(v - m))
		p[j] = float32(e)
		s += e
	}
	r := float32(1 / s)
	for j := range p {
		p[j] *= r
	}
}

func (d *DQN) checkLogits(l *tensor.Tensor, k int) error {
	if l.NDim() != 2 || l.Dim(0) != k || l.Dim(1) != d.nAct*d.support.Len() {
		return fmt.Errorf("%w: logits of shape %v for %d observations, %d actions and %d atoms",
			ErrConfig, l.Shape(), k, d.nAct, d.support.Len())
	}
	return nil
}

// Update makes one gradient step on b, which holds obs, act and the target
// distributions m under KeyTargetDist (Preprocess) and, from a prioritized
// buffer, importance weights under "weight": the loss is the mean over the
// batch of w·Hᵢ with Hᵢ = −Σⱼ mᵢⱼ·log pⱼ(sᵢ, aᵢ), the cross entropy of the
// network's distribution of the taken action against the target (w = 1
// without weights). Then the target network is updated. The Hᵢ are kept as
// the next priorities. It returns {"loss": the loss}, a map owned by d.
//
// Update returns an error, changing nothing, if b lacks a key, an action
// is outside the action space, or the networks cannot take the
// observations.
func (d *DQN) Update(b *batch.Batch) (map[string]float64, error) {
	n, err := d.readBatch(b)
	if err != nil {
		return nil, err
	}
	setTraining(d.net.noisy, true)
	tp := &d.tp
	tp.Reset()
	logits, err := d.caller.Call(tp, d.net.net, b)
	if err != nil {
		return nil, fmt.Errorf("categorical: network: %w", err)
	}
	if err := d.checkLogits(logits, n); err != nil {
		return nil, err
	}
	atoms := d.support.Len()
	la := tp.Gather(tp.Reshape(logits, n, d.nAct, atoms), 1, d.gather) // [n, atoms]
	ce := tp.Neg(tp.SumAxis(tp.Mul(d.distT, tp.LogSoftmax(la, 1)), 1, false))
	var loss *tensor.Tensor
	if b.Has(batch.KeyWeight) {
		loss = tp.Mean(tp.Mul(d.wT, ce))
	} else {
		loss = tp.Mean(ce)
	}
	d.opt.Step(tp, loss)
	for i, v := range ce.Data() {
		d.ce[i] = float64(v)
	}
	d.stats["loss"] = float64(loss.Item())
	return d.stats, nil
}

// readBatch checks b's act, target distributions and weight, and copies
// them into the update's scratch.
func (d *DQN) readBatch(b *batch.Batch) (int, error) {
	idx, err := d.acts.Read(b, d.space)
	if err != nil {
		return 0, fmt.Errorf("categorical: %w", err)
	}
	n, atoms := len(idx), d.support.Len()
	m, err := b.Array(KeyTargetDist)
	if err != nil {
		return 0, fmt.Errorf("categorical: %w (run Preprocess first)", err)
	}
	if m.Ndim() != 2 || m.Dim(0) != n || m.Dim(1) != atoms || !m.DType().IsFloat() {
		return 0, fmt.Errorf("categorical: %s of shape %v and dtype %v for %d actions; want float [%d, %d]",
			KeyTargetDist, m.Shape(), m.DType(), n, n, atoms)
	}
	if d.distT == nil || d.distT.Dim(0) != n {
		d.distT, d.wT = tensor.New(n, atoms), tensor.New(n)
		d.distN, d.wN = d.distT.ND(), d.wT.ND()
		d.ce, d.gather = make([]float64, n), make([]int, n*atoms)
	}
	if err := nd.CopyTo(d.distN, m); err != nil {
		return 0, fmt.Errorf("categorical: %s: %w", KeyTargetDist, err)
	}
	if w, ok := b.Get(batch.KeyWeight); ok {
		wa, ok := w.(*nd.Array)
		if !ok || wa.Ndim() != 1 || wa.Dim(0) != n || !wa.DType().IsFloat() {
			return 0, fmt.Errorf("categorical: weight is %v; want a float array [%d]", w, n)
		}
		if err := nd.CopyTo(d.wN, wa); err != nil {
			return 0, fmt.Errorf("categorical: weight: %w", err)
		}
	}
	for i, a := range idx {
		for j := range atoms {
			d.gather[i*atoms+j] = a
		}
	}
	return n, nil
}

// Postprocess gives a prioritized buffer (buffer.Prioritizer) the cross
// entropies of the last Update as the new priorities of the transitions at
// indices, and moves its β along the schedule (BetaFinal, BetaAnnealSteps).
// Other buffers are left alone.
func (d *DQN) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	err := d.counters.Prioritize(buf, indices, d.ce, d.s.BetaFinal, d.counters.EnvSteps, d.s.BetaAnnealSteps)
	if err != nil {
		return fmt.Errorf("categorical: %w", err)
	}
	return nil
}

// Save writes d's state: the online and target networks (noise included),
// Adam's state, the random sources of the policy and of the noise, and the
// counters, with algo.SaveParts.
func (d *DQN) Save(w io.Writer) error { return algo.SaveParts(w, d.parts()...) }

// Load restores a state written by Save into a DQN made with the same
// configuration. It returns an error wrapping algo.ErrState for a state that
// does not fit; d may then be partly restored.
func (d *DQN) Load(r io.Reader) error {
	if err := algo.LoadParts(r, d.parts()...); err != nil {
		return err
	}
	if err := d.q.SetEps(d.counters.EpsTrain, d.expl.EpsTest); err != nil {
		return fmt.Errorf("%w: %w", algo.ErrState, err)
	}
	return nil
}

func (d *DQN) parts() []algo.Part {
	ps := []algo.Part{algo.ParamsPart("q", d.netPs)}
	if d.target.net != nil {
		ps = append(ps, algo.ParamsPart("target", d.tgtPs))
	}
	ps = append(ps,
		d.opt.Part(),
		algo.BinaryPart("rng", d.src))
	if d.noise != nil {
		ps = append(ps, algo.BinaryPart("noise", d.noise))
	}
	return append(ps, algo.JSONPart("counters", &d.counters))
}
