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
type Learner struct {
	cfg   Config
	Net   *actorcritic.Net
	Actor *policy.Actor
	opt   *actorcritic.Optimizer
	tp    tensor.Tape
	space env.Space

	updates int64
	stats   map[string]float64
	// scratch, float64 per step
	values, next, rews, logRho, vs, adv []float64
	terms, conts                        []bool
	act, vs32, adv32                    []float32
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
	return &Learner{cfg: cfg, Net: net, Actor: pol, opt: opt, space: act,
		stats: map[string]float64{"loss": 0, "actor_loss": 0, "vf_loss": 0, "entropy": 0}}, nil
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

// flat returns key's array of b reshaped from [B, T, …] to [B·T, …].
func flat(b *batch.Batch, key string) (*nd.Array, error) {
	a, err := b.Array(key)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	sh := a.Shape()
	if len(sh) < 2 {
		return nil, fmt.Errorf("impala: %s of shape %v, want [unrolls, steps, …]", key, sh)
	}
	out, err := a.Reshape(append([]int{sh[0] * sh[1]}, sh[2:]...)...)
	if err != nil {
		return nil, fmt.Errorf("impala: %s: %w", key, err)
	}
	return out, nil
}

func float64s(a *nd.Array, dst []float64) ([]float64, error) {
	f, err := a.AsType(nd.Float64)
	if err != nil {
		return dst, err
	}
	return append(dst[:0], nd.ToSlice[float64](f)...), nil
}

// Update takes one gradient step on b, whose rows are unrolls (see the
// package's Invariants), and returns the loss and its terms, a map owned by
// the learner.
func (l *Learner) Update(b *batch.Batch) (map[string]float64, error) {
	obs, err := flat(b, batch.KeyObs)
	if err != nil {
		return nil, err
	}
	next, err := flat(b, batch.KeyObsNext)
	if err != nil {
		return nil, err
	}
	actA, err := flat(b, batch.KeyAct)
	if err != nil {
		return nil, err
	}
	ra, err := b.Array(KeyRews)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	unrolls, steps := ra.Shape()[0], ra.Shape()[1]
	n := unrolls * steps
	acts, err := float64s(actA, nil)
	if err != nil {
		return nil, err
	}
	l.act = l.act[:0]
	for _, a := range acts {
		l.act = append(l.act, float32(a))
	}
	if l.rews, err = float64s(ra, l.rews); err != nil {
		return nil, err
	}
	la, err := b.Array(KeyLogP)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	if l.logRho, err = float64s(la, l.logRho); err != nil {
		return nil, err
	}
	ta, err := b.Array(KeyTerms)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	ca, err := b.Array(KeyConts)
	if err != nil {
		return nil, fmt.Errorf("impala: %w", err)
	}
	l.terms, l.conts = nd.ToSlice[bool](ta), nd.ToSlice[bool](ca)
	if len(l.act) != n || len(l.rews) != n || len(l.logRho) != n || len(l.terms) != n || len(l.conts) != n {
		return nil, fmt.Errorf("impala: an unroll batch of %d × %d steps with columns of other lengths", unrolls, steps)
	}

	tp := &l.tp
	tp.Reset()
	d, v, err := l.Net.DistValue(tp, batch.MustNew(batch.KeyObs, obs))
	if err != nil {
		return nil, err
	}
	actT, err := tensor.FromSlice(l.act, n)
	if err != nil {
		return nil, err
	}
	logp := d.LogProb(actT)
	vn, err := l.Net.Value(tp, batch.MustNew(batch.KeyObs, next))
	if err != nil {
		return nil, err
	}
	l.values, l.next = l.values[:0], l.next[:0]
	for k, x := range v.Data() {
		l.values = append(l.values, float64(x))
		l.next = append(l.next, float64(vn.Data()[k]))
		l.logRho[k] = float64(logp.Data()[k]) - l.logRho[k]
	}
	l.vs = append(l.vs[:0], make([]float64, n)...)
	l.adv = append(l.adv[:0], make([]float64, n)...)
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
	l.vs32, l.adv32 = l.vs32[:0], l.adv32[:0]
	for k := range n {
		l.vs32 = append(l.vs32, float32(l.vs[k]))
		l.adv32 = append(l.adv32, float32(l.adv[k]))
	}
	vsT, err := tensor.FromSlice(l.vs32, n)
	if err != nil {
		return nil, err
	}
	advT, err := tensor.FromSlice(l.adv32, n)
	if err != nil {
		return nil, err
	}
	actorLoss := tp.Neg(tp.Mean(tp.Mul(logp, advT)))
	vfLoss := tp.MSE(v, vsT)
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
	act     []float32
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
// behaviour policy's log-probabilities of its actions.
func (a *actor) row() (*batch.Batch, error) {
	idx := a.local.SampleIndices(0, nil)
	t := len(idx)
	if t != a.cfg.Unroll {
		return nil, fmt.Errorf("impala: collected %d steps for an unroll of %d", t, a.cfg.Unroll)
	}
	if err := a.local.TakeTo(&a.take, idx); err != nil {
		return nil, err
	}
	obs, err := a.take.Array(batch.KeyObs)
	if err != nil {
		return nil, err
	}
	actA, err := a.take.Array(batch.KeyAct)
	if err != nil {
		return nil, err
	}
	acts, err := float64s(actA, nil)
	if err != nil {
		return nil, err
	}
	a.act = a.act[:0]
	for _, x := range acts {
		a.act = append(a.act, float32(x))
	}
	tp := &a.tp
	tp.Reset()
	d, err := a.net.Dist(tp, batch.MustNew(batch.KeyObs, obs))
	if err != nil {
		return nil, err
	}
	actT, err := tensor.FromSlice(a.act, t)
	if err != nil {
		return nil, err
	}
	logp := append([]float32(nil), d.LogProb(actT).Data()...)
	rew := slices64(a.local.Rew(), idx)
	terms, conts := make([]bool, t), make([]bool, t)
	sum := 0.0
	for k, g := range idx {
		terms[k] = a.local.Terminated()[g]
		conts[k] = !a.local.Done()[g] && k < t-1
		sum += rew[k]
	}
	one := func(key string) (*nd.Array, error) {
		x, err := a.take.Array(key)
		if err != nil {
			return nil, err
		}
		x = x.Copy()
		return x.Reshape(append([]int{1}, x.Shape()...)...)
	}
	o, err := one(batch.KeyObs)
	if err != nil {
		return nil, err
	}
	on, err := one(batch.KeyObsNext)
	if err != nil {
		return nil, err
	}
	ac, err := one(batch.KeyAct)
	if err != nil {
		return nil, err
	}
	mk := func(v any) *nd.Array {
		x, _ := nd.New(v)
		y, _ := x.Reshape(1, t)
		return y
	}
	return batch.New(batch.KeyObs, o, batch.KeyObsNext, on, batch.KeyAct, ac,
		batch.KeyRew, []float64{sum}, batch.KeyTerminated, []bool{false}, batch.KeyTruncated, []bool{false},
		KeyRews, mk(rew), KeyLogP, mk(logp), KeyTerms, mk(terms), KeyConts, mk(conts))
}

func slices64(src []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for k, g := range idx {
		out[k] = src[g]
	}
	return out
}
