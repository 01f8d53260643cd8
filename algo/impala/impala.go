package impala

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Keys of an unroll's row besides obs, obs_next and act (all [T] per row).
const (
	KeyRews  = "rews"
	KeyLogP  = "logp"
	KeyTerms = "terms"
	KeyConts = "conts"
)

// Learner is IMPALA's learner: an actor-critic network trained on batches
// of unrolls with V-trace. It is driven by one goroutine at a time.
//
// An update copies the batch's columns into scratch memory that the learner
// keeps while the batch shape stays the same, so that updates on batches of
// one shape allocate nothing after the first.
type Learner struct {
	cfg   Config
	Net   *actorcritic.Net
	Actor *policy.Actor
	opt   *actorcritic.Optimizer
	tp    tensor.Tape
	vtp   tensor.Tape // without gradients: values of the next observations
	space env.Space

	updates int64
	stats   map[string]float64

	// Scratch for batches of the shape of obsRows, [unrolls, steps, …].
	// obsRows and obsIn ([unrolls·steps, …], in the batch in) view the
	// same memory, which holds the observations, then the next ones.
	obsRows, obsIn *nd.Array
	in             *batch.Batch
	// Columns, one value per step, and their [unrolls, steps] views.
	act                   []float32
	rews, logRho          []float64
	terms, conts          []bool
	actA, rewsA, logRhoA  *nd.Array
	termsA, contsA        *nd.Array
	values, next, vs, adv []float64
	vs32, adv32           []float32
	actT, vsT, advT       *tensor.Tensor
}

// NewLearner returns a learner for an env with the given spaces, its
// weights drawn from rng.
func NewLearner(cfg Config, obs, act env.Space, rng *rand.Rand) (*Learner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if _, ok := act.(*env.Discrete); !ok {
		return nil, fmt.Errorf("%w: IMPALA here needs a Discrete action space, not %v", ErrConfig, act)
	}
	net, err := actorcritic.NewNet(cfg.Net, obs, act, true, rng)
	if err != nil {
		return nil, err
	}
	opt, err := actorcritic.NewOptimizer(net.Params(), cfg.Training)
	if err != nil {
		return nil, err
	}
	pol, err := policy.NewActor(net.ActorNetwork(), net.Head(), act, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())), actorcritic.DefaultPolicy())
	if err != nil {
		return nil, err
	}
	l := &Learner{cfg: cfg, Net: net, Actor: pol, opt: opt, space: act,
		stats: map[string]float64{"loss": 0, "actor_loss": 0, "vf_loss": 0, "entropy": 0}}
	l.vtp.SetGradEnabled(false)
	return l, nil
}

// Updates returns the number of gradient steps taken.
func (l *Learner) Updates() int64 { return l.updates }

// Save writes the learner's state, the network, Adam's state and the
// number of updates, with algo.SaveParts.
func (l *Learner) Save(w io.Writer) error { return algo.SaveParts(w, l.parts()...) }

// Load restores a state written by Save into a learner made with the same
// configuration; an error wraps algo.ErrState.
func (l *Learner) Load(r io.Reader) error { return algo.LoadParts(r, l.parts()...) }

func (l *Learner) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("net", l.Net.Params()),
		{Name: "optim", Save: l.opt.Save, Load: l.opt.Load},
		algo.JSONPart("updates", &l.updates),
	}
}

type entropic interface{ Entropy() *tensor.Tensor }

// column returns key's array of b after checking that it is [unrolls, steps].
func column(b *batch.Batch, key string, unrolls, steps int) (*nd.Array, error) {
	a, err := b.Array(key)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	if a.Ndim() != 2 || a.Dim(0) != unrolls || a.Dim(1) != steps {
		return nil, fmt.Errorf("impala: %s of shape %v in a batch of %d unrolls of %d steps", key, a.Shape(), unrolls, steps)
	}
	return a, nil
}

// sameShape reports whether a and b have the same shape.
func sameShape(a, b *nd.Array) bool {
	if a.Ndim() != b.Ndim() {
		return false
	}
	for i := range a.Ndim() {
		if a.Dim(i) != b.Dim(i) {
			return false
		}
	}
	return true
}

// fit makes the scratch fit batches whose observations have obs's shape,
// [unrolls, steps, …]; it keeps the scratch it has for that shape.
func (l *Learner) fit(obs *nd.Array) error {
	if obs.Ndim() < 2 {
		return fmt.Errorf("impala: %s of shape %v, want [unrolls, steps, …]", batch.KeyObs, obs.Shape())
	}
	if l.obsRows != nil && sameShape(l.obsRows, obs) {
		return nil
	}
	sh := obs.Shape()
	unrolls, steps := sh[0], sh[1]
	n := unrolls * steps
	buf := make([]float32, obs.Size())
	rows, err := nd.FromSlice(buf, sh...)
	if err != nil {
		return fmt.Errorf("impala: %w", err)
	}
	flat, err := nd.FromSlice(buf, append([]int{n}, sh[2:]...)...)
	if err != nil {
		return fmt.Errorf("impala: %w", err)
	}
	in, err := batch.New(batch.KeyObs, flat)
	if err != nil {
		return fmt.Errorf("impala: %w", err)
	}
	l.act, l.rews, l.logRho = make([]float32, n), make([]float64, n), make([]float64, n)
	l.terms, l.conts = make([]bool, n), make([]bool, n)
	l.values, l.next, l.vs, l.adv = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	l.vs32, l.adv32 = make([]float32, n), make([]float32, n)
	var errs [5]error
	l.actA, errs[0] = nd.FromSlice(l.act, unrolls, steps)
	l.rewsA, errs[1] = nd.FromSlice(l.rews, unrolls, steps)
	l.logRhoA, errs[2] = nd.FromSlice(l.logRho, unrolls, steps)
	l.termsA, errs[3] = nd.FromSlice(l.terms, unrolls, steps)
	l.contsA, errs[4] = nd.FromSlice(l.conts, unrolls, steps)
	if err := errors.Join(errs[:]...); err != nil {
		return fmt.Errorf("impala: %w", err)
	}
	l.actT = tensor.MustFromSlice(l.act, n)
	l.vsT = tensor.MustFromSlice(l.vs32, n)
	l.advT = tensor.MustFromSlice(l.adv32, n)
	l.obsRows, l.obsIn, l.in = rows, flat, in
	return nil
}

// read copies the columns of b, an unroll batch of the scratch's shape,
// into the scratch; observations are left to Update.
func (l *Learner) read(b *batch.Batch) error {
	unrolls, steps := l.obsRows.Dim(0), l.obsRows.Dim(1)
	for _, c := range [...]struct {
		key string
		dst *nd.Array
	}{{batch.KeyAct, l.actA}, {KeyRews, l.rewsA}, {KeyLogP, l.logRhoA}, {KeyTerms, l.termsA}, {KeyConts, l.contsA}} {
		a, err := column(b, c.key, unrolls, steps)
		if err != nil {
			return err
		}
		if err := nd.CopyTo(c.dst, a); err != nil {
			return fmt.Errorf("impala: %s: %w", c.key, err)
		}
	}
	return nil
}

// Update takes one gradient step on b, whose rows are unrolls (see the
// package's Invariants), and returns the loss and its terms, a map owned by
// the learner.
func (l *Learner) Update(b *batch.Batch) (map[string]float64, error) {
	obs, err := b.Array(batch.KeyObs)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	next, err := b.Array(batch.KeyObsNext)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	if !sameShape(next, obs) {
		return nil, fmt.Errorf("impala: %s of shape %v and %s of shape %v", batch.KeyObs, obs.Shape(), batch.KeyObsNext, next.Shape())
	}
	if err := l.fit(obs); err != nil {
		return nil, err
	}
	if err := l.read(b); err != nil {
		return nil, err
	}
	unrolls, steps := obs.Dim(0), obs.Dim(1)
	n := unrolls * steps

	// V of the next observations, read out before the observations take
	// their place in the network's input.
	if err := nd.CopyTo(l.obsRows, next); err != nil {
		return nil, fmt.Errorf("impala: %s: %w", batch.KeyObsNext, err)
	}
	l.vtp.Reset()
	vn, err := l.Net.Value(&l.vtp, l.in)
	if err != nil {
		return nil, err
	}
	for k, x := range vn.Data() {
		l.next[k] = float64(x)
	}
	if err := nd.CopyTo(l.obsRows, obs); err != nil {
		return nil, fmt.Errorf("impala: %s: %w", batch.KeyObs, err)
	}
	tp := &l.tp
	tp.Reset()
	d, v, err := l.Net.DistValue(tp, l.in)
	if err != nil {
		return nil, err
	}
	logp := d.LogProb(l.actT)
	for k, x := range v.Data() {
		l.values[k] = float64(x)
		l.logRho[k] = float64(logp.Data()[k]) - l.logRho[k]
	}
	for u := range unrolls {
		s := u * steps
		e := s + steps
		if err := VTrace(l.vs[s:e], l.adv[s:e], Unroll{
			Values: l.values[s:e], NextValues: l.next[s:e], Rewards: l.rews[s:e],
			Terminated: l.terms[s:e], Continues: l.conts[s:e], LogRhos: l.logRho[s:e],
		}, l.cfg.Gamma, l.cfg.RhoBar, l.cfg.CBar); err != nil {
			return nil, err
		}
	}
	for k := range n {
		l.vs32[k] = float32(l.vs[k])
		l.adv32[k] = float32(l.adv[k])
	}
	actorLoss := tp.Neg(tp.Mean(tp.Mul(logp, l.advT)))
	vfLoss := tp.MSE(v, l.vsT)
	ent := tp.Mean(d.(entropic).Entropy())
	loss := tp.Add(actorLoss, tp.MulScalar(vfLoss, float32(l.cfg.VFCoef)))
	if l.cfg.EntCoef != 0 {
		loss = tp.Sub(loss, tp.MulScalar(ent, float32(l.cfg.EntCoef)))
	}
	l.opt.Step(tp, loss)
	l.updates++
	l.stats["loss"], l.stats["actor_loss"] = float64(loss.Item()), float64(actorLoss.Item())
	l.stats["vf_loss"], l.stats["entropy"] = float64(vfLoss.Item()), float64(ent.Item())
	return l.stats, nil
}

// Progress is what the learner reports after each update.
type Progress struct {
	Updates, EnvSteps, Unrolls int64
	Loss                       float64
	Missing                    []string
}

// Setup is what Run needs besides the configuration.
type Setup struct {
	// Transport connects learner and actors.
	Transport cluster.Transport
	// Group names the run's subjects. Default "impala".
	Group string
	// MakeEnv returns actor i's env.
	MakeEnv func(actor int) (env.Env, error)
	// Seed seeds every network and random stream.
	Seed uint64
	// After is called after every update; it stops the run by returning
	// true or an error. Required.
	After func(l *Learner, p Progress) (stop bool, err error)
	// Remote starts no actors in this process: they run RunActor in other
	// processes, report their counts over the transport, and are told the
	// learner's (cluster.Report, cluster.Status).
	Remote bool
	// Restore, if set, is called once with the new learner before its
	// first weights are published: it loads a saved state into it and
	// returns the counts to continue from.
	Restore func(l *Learner) (Progress, error)
}

// defaults fills s's defaults and checks its required fields.
func (s *Setup) defaults() error {
	if s.Transport == nil || s.MakeEnv == nil {
		return fmt.Errorf("%w: Setup needs Transport and MakeEnv", ErrConfig)
	}
	if s.Group == "" {
		s.Group = "impala"
	}
	return nil
}

// spaces returns the observation and action spaces of actor i's env.
func (s *Setup) spaces(i int) (obs, act env.Space, err error) {
	probe, err := s.MakeEnv(i)
	if err != nil {
		return nil, nil, fmt.Errorf("impala: env of actor %d: %w", i, err)
	}
	defer probe.Close()
	return probe.ObservationSpace(), probe.ActionSpace(), nil
}

type counters struct {
	steps, unrolls, updates atomic.Int64
	// waiting is set while the learner waits for a batch: no actor is
	// then held.
	waiting atomic.Bool
}

// Run trains IMPALA until s.After stops it or ctx ends, and returns the
// learner.
func Run(ctx context.Context, cfg Config, s Setup) (*Learner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := s.defaults(); err != nil {
		return nil, err
	}
	if s.After == nil {
		return nil, fmt.Errorf("%w: Setup needs After", ErrConfig)
	}
	obsSpace, actSpace, err := s.spaces(0)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x696d70616c61))
	l, err := NewLearner(cfg, obsSpace, actSpace, rng)
	if err != nil {
		return nil, err
	}
	var p Progress
	var cs counters
	if s.Restore != nil {
		if p, err = s.Restore(l); err != nil {
			return nil, err
		}
		l.updates = p.Updates
		cs.steps.Store(p.EnvSteps)
		cs.unrolls.Store(p.Unrolls)
		cs.updates.Store(p.Updates)
	}
	params, err := cluster.ServeParams(s.Transport, s.Group, "net", 1<<20-1024)
	if err != nil {
		return nil, err
	}
	defer params.Close()
	// A version is the number of updates behind the weights plus one, so
	// that a learner restarted from a checkpoint goes on numbering them.
	if err := publish(params, l.Net, uint64(l.updates)+1); err != nil {
		return nil, err
	}
	if s.Remote {
		stop, err := cluster.SubscribeReports(s.Transport, s.Group, func(r cluster.Report) {
			cs.steps.Add(r.Steps)
			cs.unrolls.Add(r.Unrolls)
		})
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	buf, err := distributed.New(s.Transport, distributed.Config{Group: s.Group, Member: "learner"}, nil)
	if err != nil {
		return nil, err
	}
	defer buf.Close()

	actCtx, stopActors := context.WithCancel(ctx)
	var wg sync.WaitGroup
	actorErr := make(chan error, cfg.Actors)
	defer func() {
		stopActors()
		wg.Wait()
	}()
	local := cfg.Actors
	if s.Remote {
		local = 0
	}
	for i := range local {
		a, err := newActor(cfg, s, i, obsSpace, actSpace, rng.Uint64())
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := a.run(actCtx, &cs); err != nil && actCtx.Err() == nil {
				actorErr <- fmt.Errorf("impala: actor %d: %w", i, err)
			}
		}()
	}
	sampleRng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	var waited time.Time
	for {
		select {
		case <-ctx.Done():
			return l, ctx.Err()
		case err := <-actorErr:
			return l, err
		default:
		}
		if !ready(buf, cfg) {
			cs.waiting.Store(true)
			if s.Remote && time.Since(waited) > 50*time.Millisecond {
				cluster.PublishStatus(s.Transport, s.Group, cluster.Status{Updates: l.updates, Steps: cs.steps.Load(), Waiting: true})
				waited = time.Now()
			}
			time.Sleep(2 * time.Millisecond)
			continue
		}
		cs.waiting.Store(false)
		smp, err := buf.Sample(ctx, cfg.BatchSize, sampleRng)
		if err != nil {
			if errors.Is(err, distributed.ErrDistributed) && ctx.Err() == nil {
				continue
			}
			return l, err
		}
		st, err := l.Update(smp.Batch)
		if err != nil {
			return l, err
		}
		cs.updates.Add(1)
		if l.updates%int64(cfg.PublishEvery) == 0 {
			if err := publish(params, l.Net, uint64(l.updates)+1); err != nil {
				return l, err
			}
		}
		if s.Remote {
			cluster.PublishStatus(s.Transport, s.Group, cluster.Status{Updates: l.updates, Steps: cs.steps.Load()})
		}
		p.Updates, p.EnvSteps, p.Unrolls = l.updates, cs.steps.Load(), cs.unrolls.Load()
		p.Loss, p.Missing = st["loss"], smp.Missing
		stop, err := s.After(l, p)
		if err != nil || stop {
			return l, err
		}
	}
}

// ready reports whether the learner may sample a batch: BatchSize unrolls
// are in the shards, or every live shard is full (fewer actors than
// BatchSize/QueueSize are left, after some left the run).
func ready(buf *distributed.Buffer, cfg Config) bool {
	n := buf.Len()
	if n >= cfg.BatchSize {
		return true
	}
	return n > 0 && n >= cfg.QueueSize*len(buf.Members())
}

func publish(p *cluster.ParamServer, net *actorcritic.Net, v uint64) error {
	var w bytes.Buffer
	if err := nn.Save(&w, net.Params(), nil); err != nil {
		return fmt.Errorf("impala: weights: %w", err)
	}
	return p.Publish(v, w.Bytes())
}

// actor collects unrolls with its copy of the network.
type actor struct {
	cfg     Config
	s       Setup
	net     *actorcritic.Net
	pol     *policy.Actor
	vec     vector.Env
	coll    *collector.Collector
	local   *buffer.Replay
	shard   *distributed.Buffer
	ver     uint64
	unrolls int64 // sent so far
	tp      tensor.Tape
	take    batch.Batch
	idx     []int // the local buffer's indices, 0 to Unroll−1

	// Scratch of row: the network's input (the taken observations) and
	// the row sent, over the slices below and the arrays rowCols
	// (observations, next observations, actions).
	in, out      *batch.Batch
	obsIn, actIn *nd.Array
	rowCols      [3]*nd.Array
	act, logp    []float32
	actT         *tensor.Tensor
	rews, sum    []float64
	terms, conts []bool
	// status is the learner's, for an actor in another process (nil in
	// the learner's); base is the learner's update count from which the
	// actor's share is counted: when it started, or, in another process,
	// when it last ran free.
	status *cluster.StatusFollower
	i      int
	base   int64
	based  bool
	sent   int64 // unrolls sent since base
}

// RunActor runs actor i of cfg.Actors in this process for a learner that
// runs elsewhere with s.Remote set, until ctx ends or the learner says the
// run is over (cluster.Status.Done). s.After and s.Restore are not used.
// An actor restarted with the same i rejoins as the same member, with an
// empty shard.
func RunActor(ctx context.Context, cfg Config, s Setup, i int) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if err := s.defaults(); err != nil {
		return err
	}
	if i < 0 || i >= cfg.Actors {
		return fmt.Errorf("%w: actor %d of %d", ErrConfig, i, cfg.Actors)
	}
	obsSpace, actSpace, err := s.spaces(i)
	if err != nil {
		return err
	}
	a, err := newActor(cfg, s, i, obsSpace, actSpace, rand.New(rand.NewPCG(s.Seed, 0x696d70616c61+uint64(i))).Uint64())
	if err != nil {
		return err
	}
	if a.status, err = cluster.FollowStatus(s.Transport, s.Group); err != nil {
		a.vec.Close()
		a.shard.Close()
		return err
	}
	defer a.status.Close()
	var cs counters
	err = a.run(ctx, &cs)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func newActor(cfg Config, s Setup, i int, obs, act env.Space, seed uint64) (*actor, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	net, err := actorcritic.NewNet(cfg.Net, obs, act, true, rng)
	if err != nil {
		return nil, err
	}
	pol, err := policy.NewActor(net.ActorNetwork(), net.Head(), act, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())), actorcritic.DefaultPolicy())
	if err != nil {
		return nil, err
	}
	e, err := s.MakeEnv(i)
	if err != nil {
		return nil, fmt.Errorf("impala: env of actor %d: %w", i, err)
	}
	vec, err := vector.New([]env.Env{e}, vector.Config{})
	if err != nil {
		e.Close()
		return nil, err
	}
	local, err := buffer.New(buffer.Config{Size: cfg.Unroll})
	if err != nil {
		vec.Close()
		return nil, err
	}
	coll, err := collector.New(collector.Config{Env: vec, Policy: pol, Buffer: local, Explore: true})
	if err != nil {
		vec.Close()
		return nil, err
	}
	queue, err := buffer.New(buffer.Config{Size: cfg.QueueSize})
	if err != nil {
		vec.Close()
		return nil, err
	}
	shard, err := distributed.New(s.Transport, distributed.Config{Group: s.Group, Member: fmt.Sprintf("actor-%d", i)}, queue)
	if err != nil {
		vec.Close()
		return nil, err
	}
	return &actor{cfg: cfg, s: s, i: i, net: net, pol: pol, vec: vec, coll: coll, local: local, shard: shard}, nil
}

// over reports whether the learner in another process said the run is
// over.
func (a *actor) over() bool {
	if a.status == nil {
		return false
	}
	st := a.status.Latest()
	return st != nil && st.Done
}

func (a *actor) run(ctx context.Context, cs *counters) error {
	if a.status == nil {
		a.base = cs.updates.Load()
	}
	defer a.vec.Close()
	defer a.shard.Close()
	fctx, stop := context.WithCancel(ctx)
	weights := cluster.Follow(fctx, a.s.Transport, a.s.Group, "net")
	defer weights.Wait()
	defer stop()
	a.pol.SetTrainingStep(true)
	first := true
	for ctx.Err() == nil && !a.over() {
		for a.held(cs) && ctx.Err() == nil && !a.over() {
			time.Sleep(500 * time.Microsecond)
		}
		w := weights.Latest()
		if w == nil {
			time.Sleep(2 * time.Millisecond)
			continue
		}
		if w.Version > a.ver {
			if _, err := nn.Load(bytes.NewReader(w.Blob), a.net.Params()); err != nil {
				return fmt.Errorf("weights version %d: %w", w.Version, err)
			}
			a.ver = w.Version
		}
		a.local.Reset()
		st, err := a.coll.Collect(ctx, collector.Request{NStep: a.cfg.Unroll, ResetBeforeCollect: first})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		first = false
		cs.steps.Add(int64(st.Steps))
		row, err := a.row()
		if err != nil {
			return err
		}
		if err := a.shard.Add(row); err != nil {
			return err
		}
		a.unrolls++
		cs.unrolls.Add(1)
		if a.status != nil {
			a.sent++
			cluster.PublishReport(a.s.Transport, a.s.Group, cluster.Report{Actor: a.i, Steps: int64(st.Steps), Unrolls: 1})
		}
	}
	return nil
}

// held reports whether the actor is more than its share of
// UnrollsPerUpdate per update, plus a full queue, ahead of the learner,
// counting the updates since it started (a restored learner's count starts
// above 0). The bound is per actor so that every shard fills before the
// first update. No actor is held while a learner that has updated waits
// for data.
//
// An actor in another process counts its unrolls and the learner's
// updates since the learner last waited for data, or since it joined.
func (a *actor) held(cs *counters) bool {
	if a.cfg.UnrollsPerUpdate <= 0 || (cs.waiting.Load() && cs.updates.Load() > 0) {
		return false
	}
	if a.status != nil {
		st := a.status.Latest()
		if st == nil {
			return false
		}
		if !a.based || st.Waiting {
			a.base, a.sent, a.based = st.Updates, 0, true
			return false
		}
		share := a.cfg.UnrollsPerUpdate * float64(st.Updates-a.base) / float64(a.cfg.Actors)
		return float64(a.sent-int64(a.cfg.QueueSize)) > share
	}
	share := a.cfg.UnrollsPerUpdate * float64(cs.updates.Load()-a.base) / float64(a.cfg.Actors)
	return float64(a.unrolls-int64(a.cfg.QueueSize)) > share
}

// row turns the collected unroll into one row of the shard, with the
// behaviour policy's log-probabilities of its actions. The row is the
// actor's scratch, rewritten by the next call: the shard copies what it
// adds (it has no journal whose acknowledgements would hand the row back).
//
// The local buffer holds Unroll transitions, reset before each unroll, so
// its chronological indices are 0 to Unroll−1: the actor keeps them
// instead of asking the buffer for a new list each time.
func (a *actor) row() (*batch.Batch, error) {
	if t := a.local.Len(); t != a.cfg.Unroll {
		return nil, fmt.Errorf("impala: collected %d steps for an unroll of %d", t, a.cfg.Unroll)
	}
	if len(a.idx) != a.cfg.Unroll {
		a.idx = make([]int, a.cfg.Unroll)
		for i := range a.idx {
			a.idx[i] = i
		}
	}
	if err := a.local.TakeTo(&a.take, a.idx); err != nil {
		return nil, err
	}
	var cols [3]*nd.Array
	for k, key := range [...]string{batch.KeyObs, batch.KeyObsNext, batch.KeyAct} {
		x, err := a.take.Array(key)
		if err != nil {
			return nil, err
		}
		cols[k] = x
	}
	if a.out == nil {
		if err := a.newRow(cols); err != nil {
			return nil, err
		}
	}
	if err := nd.CopyTo(a.actIn, cols[2]); err != nil {
		return nil, fmt.Errorf("impala: %s: %w", batch.KeyAct, err)
	}
	if a.obsIn != cols[0] {
		if err := a.in.Set(batch.KeyObs, cols[0]); err != nil {
			return nil, err
		}
		a.obsIn = cols[0]
	}
	tp := &a.tp
	tp.Reset()
	d, err := a.net.Dist(tp, a.in)
	if err != nil {
		return nil, err
	}
	copy(a.logp, d.LogProb(a.actT).Data())
	rew, term, done := a.local.Rew(), a.local.Terminated(), a.local.Done()
	sum := 0.0
	for k, g := range a.idx {
		a.rews[k] = rew[g]
		a.terms[k] = term[g]
		a.conts[k] = !done[g] && k < len(a.idx)-1
		sum += rew[g]
	}
	a.sum[0] = sum
	for k, dst := range a.rowCols {
		if err := nd.CopyTo(dst, cols[k]); err != nil {
			return nil, fmt.Errorf("impala: unroll row: %w", err)
		}
	}
	return a.out, nil
}

// newRow makes the actor's row for unrolls whose observations, next
// observations and actions have the shapes of cols.
func (a *actor) newRow(cols [3]*nd.Array) error {
	t := a.cfg.Unroll
	for k, x := range cols {
		a.rowCols[k] = nd.Zeros(x.DType(), append([]int{1}, x.Shape()...)...)
	}
	a.act, a.logp = make([]float32, t), make([]float32, t)
	a.rews, a.sum = make([]float64, t), make([]float64, 1)
	a.terms, a.conts = make([]bool, t), make([]bool, t)
	var errs [7]error
	var rews, logp, terms, conts, sum *nd.Array
	a.actIn, errs[0] = nd.FromSlice(a.act, t)
	a.actT, errs[1] = tensor.FromSlice(a.act, t)
	rews, errs[2] = nd.FromSlice(a.rews, 1, t)
	logp, errs[3] = nd.FromSlice(a.logp, 1, t)
	terms, errs[4] = nd.FromSlice(a.terms, 1, t)
	conts, errs[5] = nd.FromSlice(a.conts, 1, t)
	sum, errs[6] = nd.FromSlice(a.sum, 1)
	if err := errors.Join(errs[:]...); err != nil {
		return fmt.Errorf("impala: unroll row: %w", err)
	}
	in, err := batch.New(batch.KeyObs, cols[0])
	if err != nil {
		return err
	}
	out, err := batch.New(batch.KeyObs, a.rowCols[0], batch.KeyObsNext, a.rowCols[1], batch.KeyAct, a.rowCols[2],
		batch.KeyRew, sum, batch.KeyTerminated, []bool{false}, batch.KeyTruncated, []bool{false},
		KeyRews, rews, KeyLogP, logp, KeyTerms, terms, KeyConts, conts)
	if err != nil {
		return err
	}
	a.in, a.obsIn, a.out = in, cols[0], out
	return nil
}
