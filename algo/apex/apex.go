package apex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// Progress is what the learner reports after each update.
type Progress struct {
	// Updates is the number of gradient steps so far.
	Updates int64
	// EnvSteps is the number of env steps all actors took so far.
	EnvSteps int64
	// Episodes and LastReturn count the actors' finished episodes and give
	// the return of the newest.
	Episodes   int64
	LastReturn float64
	// Loss is the last update's loss.
	Loss float64
	// Missing names the members a sample missed, if any.
	Missing []string
}

// Setup is what Run needs besides the configuration.
type Setup struct {
	// Transport connects learner and actors; all of them use it.
	Transport cluster.Transport
	// Group names the run's subjects; runs sharing a deployment need
	// distinct groups. Default "apex".
	Group string
	// MakeEnv returns actor i's env.
	MakeEnv func(actor int) (env.Env, error)
	// Seed seeds every network and random stream.
	Seed uint64
	// After is called after every update with the learner's DQN; it stops
	// the run by returning true or an error. Required.
	After func(d *dqn.DQN, p Progress) (stop bool, err error)
	// ChunkSize is the largest weight message; default 1 MiB less 1 KiB.
	ChunkSize int
	// Remote starts no actors in this process: they run RunActor in other
	// processes, report their counts over the transport, and are told the
	// learner's (cluster.Report, cluster.Status).
	Remote bool
	// Restore, if set, is called once with the new learner before its
	// first weights are published: it loads a saved state into it and
	// returns the counts to continue from.
	Restore func(d *dqn.DQN) (Progress, error)
}

// Run trains Ape-X DQN until s.After stops it or ctx ends, and returns the
// learner's DQN.
func Run(ctx context.Context, cfg Config, s Setup) (*dqn.DQN, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if s.Transport == nil || s.MakeEnv == nil || s.After == nil {
		return nil, fmt.Errorf("%w: Setup needs Transport, MakeEnv and After", ErrConfig)
	}
	c := dqnCore(cfg, s)
	c.after = func(a agent, p Progress) (bool, error) { return s.After(a.(dqnAgent).DQN, p) }
	if s.Restore != nil {
		c.restore = func(a agent) (Progress, error) { return s.Restore(a.(dqnAgent).DQN) }
	}
	l, err := c.run(ctx)
	if l == nil {
		return nil, err
	}
	return l.(dqnAgent).DQN, err
}

// RunActor runs actor i of cfg.Actors (its ε is ActorEps's) in this
// process for a learner that runs elsewhere with s.Remote set, until ctx
// ends or the learner says the run is over (cluster.Status.Done). s.After
// and s.Restore are not used. The actor waits for the learner's first
// weights, feeds its shard of the group's buffer, and reports its counts;
// an actor restarted with the same i rejoins as the same member, with an
// empty shard.
func RunActor(ctx context.Context, cfg Config, s Setup, i int) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if s.Transport == nil || s.MakeEnv == nil {
		return fmt.Errorf("%w: Setup needs Transport and MakeEnv", ErrConfig)
	}
	if i < 0 || i >= cfg.Actors {
		return fmt.Errorf("%w: actor %d of %d", ErrConfig, i, cfg.Actors)
	}
	c := dqnCore(cfg, s)
	return c.runActor(ctx, i)
}

// dqnCore returns the Ape-X loop of Ape-X DQN, without its after and
// restore.
func dqnCore(cfg Config, s Setup) core[int64] {
	st := loopSettings{
		actors: cfg.Actors, bufferSize: cfg.BufferSize, batchSize: cfg.BatchSize,
		learningStarts: cfg.LearningStarts, flushEvery: cfg.FlushEvery, publishEvery: cfg.PublishEvery,
		syncEvery: cfg.SyncEvery, nstep: max(1, cfg.DQN.NStep), gamma: cfg.DQN.Gamma,
		priorityAlpha: cfg.PriorityAlpha, priorityBeta: cfg.PriorityBeta, stepsPerUpdate: cfg.StepsPerUpdate,
	}
	c := core[int64]{st: st, s: common{Transport: s.Transport, Group: s.Group, MakeEnv: s.MakeEnv, Seed: s.Seed, ChunkSize: s.ChunkSize, Remote: s.Remote}}
	c.newLearner = func(obs, act env.Space, rng *rand.Rand) (agent, error) {
		d, err := dqn.New(cfg.DQN, obs, act, rng)
		if err != nil {
			return nil, err
		}
		return dqnAgent{d}, nil
	}
	c.newActor = func(i int, obs, act env.Space, rng *rand.Rand) (agent, actionReader[int64], error) {
		dc := cfg.DQN
		dc.EpsTrain = ActorEps(cfg.Eps, cfg.EpsAlpha, i, cfg.Actors)
		dc.EpsDecaySteps = 0
		dc.TargetUpdateFreq, dc.Tau = 0, 0 // priorities from the actor's one network
		d, err := dqn.New(dc, obs, act, rng)
		if err != nil {
			return nil, nil, err
		}
		return dqnAgent{d}, discreteAction(), nil
	}
	return c
}

// dqnAgent is a DQN as the Ape-X loop sees it: it publishes its online
// network.
type dqnAgent struct{ *dqn.DQN }

func (d dqnAgent) Weights() nn.Params { return d.Policy().Params() }

// discreteAction reads a discrete policy's action: the env gets it as a
// 0-d int64 array, the transition stores the index.
func discreteAction() actionReader[int64] {
	envAct := nd.Zeros(nd.Int64)
	return func(out *batch.Batch, store []int64) (any, error) {
		a, err := out.Array(batch.KeyAct)
		if err != nil {
			return nil, err
		}
		act := nd.ToSlice[int64](a)[0]
		store[0] = act
		nd.Data[int64](envAct)[0] = act
		return envAct, nil
	}
}

// agent is what the Ape-X loop needs of an algorithm, the learner's and
// each actor's: DQN's and DDPG's.
type agent interface {
	// Policy acts; the actors' explore.
	Policy() policy.Policy
	// Weights are the parameters the learner publishes and the actors
	// load.
	Weights() nn.Params
	// NextValues stores the bootstrap values of the observations under
	// "obs" of next.
	NextValues(dst []float32, next *batch.Batch) error
	// TDErrorsTo stores |G − Q(s, a)| of b's rows, b holding "returns".
	TDErrorsTo(dst []float64, b *batch.Batch) error
	// Update makes one learner step on a sampled batch with its
	// importance weights; TD then returns the rows' TD errors.
	Update(b *batch.Batch) (map[string]float64, error)
	TD() []float64
}

// actionReader reads the action of row 0 of a policy's output: it writes
// the values a transition stores into store and returns what the env's
// Step takes, memory of the reader reused by its next call.
type actionReader[A int64 | float32] func(out *batch.Batch, store []A) (any, error)

// loopSettings are the settings the Ape-X loop shares between its
// algorithms (see Config for each).
type loopSettings struct {
	actors, bufferSize, batchSize, learningStarts      int
	flushEvery, publishEvery, syncEvery, nstep         int
	gamma, priorityAlpha, priorityBeta, stepsPerUpdate float64
}

// common is the algorithm-free part of a Setup.
type common struct {
	Transport cluster.Transport
	Group     string
	MakeEnv   func(actor int) (env.Env, error)
	Seed      uint64
	ChunkSize int
	Remote    bool
}

// defaults fills s's defaults.
func (s *common) defaults() {
	if s.Group == "" {
		s.Group = "apex"
	}
	if s.ChunkSize <= 0 {
		s.ChunkSize = 1<<20 - 1024
	}
}

// spaces returns the observation and action spaces of actor i's env.
func (s *common) spaces(i int) (obs, act env.Space, err error) {
	probe, err := s.MakeEnv(i)
	if err != nil {
		return nil, nil, fmt.Errorf("apex: env of actor %d: %w", i, err)
	}
	defer probe.Close()
	return probe.ObservationSpace(), probe.ActionSpace(), nil
}

// core is the Ape-X loop: actors of their own agents feed a distributed
// prioritized buffer, one learner agent samples it and publishes its
// weights. A is the element type of the stored actions.
type core[A int64 | float32] struct {
	st         loopSettings
	s          common
	newLearner func(obs, act env.Space, rng *rand.Rand) (agent, error)
	newActor   func(i int, obs, act env.Space, rng *rand.Rand) (agent, actionReader[A], error)
	after      func(agent, Progress) (bool, error)
	// restore, if set, loads a saved state into the new learner and
	// returns the counts to continue from.
	restore func(agent) (Progress, error)
}

func (c *core[A]) run(ctx context.Context) (agent, error) {
	s := &c.s
	s.defaults()
	obsSpace, actSpace, err := s.spaces(0)
	if err != nil {
		return nil, err
	}

	rng := rand.New(rand.NewPCG(s.Seed, 0x61706578))
	learner, err := c.newLearner(obsSpace, actSpace, rng)
	if err != nil {
		return nil, err
	}
	var prog Progress
	var stats runStats
	if c.restore != nil {
		if prog, err = c.restore(learner); err != nil {
			return nil, err
		}
		stats.steps.Store(prog.EnvSteps)
		stats.episodes.Store(prog.Episodes)
		stats.updates.Store(prog.Updates)
		stats.last = prog.LastReturn
	}
	params, err := cluster.ServeParams(s.Transport, s.Group, "q", s.ChunkSize)
	if err != nil {
		return nil, err
	}
	defer params.Close()
	// A version is the number of updates behind the weights plus one, so
	// that a learner restarted from a checkpoint goes on numbering them.
	if err := publish(params, learner, uint64(prog.Updates)+1); err != nil {
		return nil, err
	}
	if s.Remote {
		stop, err := cluster.SubscribeReports(s.Transport, s.Group, func(r cluster.Report) {
			stats.steps.Add(r.Steps)
			if r.Episodes > 0 {
				stats.episodes.Add(r.Episodes - 1)
				stats.episode(r.LastReturn)
			}
		})
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	buf, err := distributed.NewPrioritized(s.Transport, distributed.Config{Group: s.Group, Member: "learner"}, nil, c.st.priorityBeta)
	if err != nil {
		return nil, err
	}
	defer buf.Close()

	actCtx, stopActors := context.WithCancel(ctx)
	var wg sync.WaitGroup
	actorErr := make(chan error, c.st.actors)
	local := c.st.actors
	if s.Remote {
		local = 0
	}
	for i := range local {
		a, err := c.newActorLoop(i, obsSpace, actSpace, rng.Uint64())
		if err != nil {
			stopActors()
			wg.Wait()
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := a.run(actCtx, &stats); err != nil && actCtx.Err() == nil {
				actorErr <- fmt.Errorf("apex: actor %d: %w", i, err)
			}
		}()
	}
	defer func() {
		stopActors()
		wg.Wait()
	}()

	sampleRng := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	var tg targets
	var waited time.Time
	for {
		select {
		case <-ctx.Done():
			return learner, ctx.Err()
		case err := <-actorErr:
			return learner, err
		default:
		}
		if buf.Len() < c.st.learningStarts {
			stats.waiting.Store(true)
			if s.Remote && time.Since(waited) > 50*time.Millisecond {
				cluster.PublishStatus(s.Transport, s.Group, cluster.Status{Updates: prog.Updates, Steps: stats.steps.Load(), Waiting: true})
				waited = time.Now()
			}
			time.Sleep(2 * time.Millisecond)
			continue
		}
		stats.waiting.Store(false)
		smp, err := buf.Sample(ctx, c.st.batchSize, sampleRng)
		if err != nil {
			if errors.Is(err, distributed.ErrDistributed) && ctx.Err() == nil {
				continue // every shard went away for now; actors rejoin
			}
			return learner, err
		}
		b := smp.Batch
		n, err := b.Len()
		if err != nil {
			return learner, err
		}
		if err := tg.set(learner, b, n); err != nil {
			return learner, err
		}
		st, err := learner.Update(b)
		if err != nil {
			return learner, err
		}
		if err := buf.UpdatePriority(smp.Handles, learner.TD()); err != nil {
			return learner, err
		}
		prog.Updates++
		stats.updates.Add(1)
		if prog.Updates%int64(c.st.publishEvery) == 0 {
			if err := publish(params, learner, uint64(prog.Updates)+1); err != nil {
				return learner, err
			}
		}
		if s.Remote {
			cluster.PublishStatus(s.Transport, s.Group, cluster.Status{Updates: prog.Updates, Steps: stats.steps.Load()})
		}
		prog.EnvSteps = stats.steps.Load()
		prog.Episodes = stats.episodes.Load()
		prog.LastReturn = stats.lastReturn()
		prog.Loss = lossOf(st)
		prog.Missing = smp.Missing
		stop, err := c.after(learner, prog)
		if err != nil || stop {
			return learner, err
		}
	}
}

// lossOf returns an update's "loss", or the sum of its "loss/…" terms.
func lossOf(st map[string]float64) float64 {
	if l, ok := st["loss"]; ok {
		return l
	}
	sum := 0.0
	for k, v := range st {
		if strings.HasPrefix(k, "loss/") {
			sum += v
		}
	}
	return sum
}

// targets computes the targets of n-step transitions; its scratch is
// reused from call to call, so that a learner's update allocates nothing
// here once the batch size is fixed.
type targets struct {
	next           *batch.Batch // obs_next under "obs", NextValues's input
	v              []float32
	rew, disc, ret *nd.Array // float64, float64, float32 [n]
	term           *nd.Array // bool [n]
}

// set stores in b under "returns" the targets of its n transitions,
// rew + γᵏ·(1 − terminated)·V(obs_next), V the agent's bootstrap value
// (NextValues). The returns are memory of t, overwritten by the next call.
func (t *targets) set(d agent, b *batch.Batch, n int) error {
	next, err := b.Array(batch.KeyObsNext)
	if err != nil {
		return fmt.Errorf("apex: %w", err)
	}
	if t.next == nil {
		t.next = &batch.Batch{}
	}
	if err := t.next.Set(batch.KeyObs, next); err != nil {
		return err
	}
	if len(t.v) != n {
		t.v = make([]float32, n)
		t.rew, t.disc = nd.Zeros(nd.Float64, n), nd.Zeros(nd.Float64, n)
		t.ret, t.term = nd.Zeros(nd.Float32, n), nd.Zeros(nd.Bool, n)
	}
	if err := d.NextValues(t.v, t.next); err != nil {
		return err
	}
	for _, c := range [...]struct {
		key string
		dst *nd.Array
	}{{batch.KeyRew, t.rew}, {KeyDiscount, t.disc}, {batch.KeyTerminated, t.term}} {
		a, err := b.Array(c.key)
		if err != nil {
			return fmt.Errorf("apex: %w", err)
		}
		if err := nd.CopyTo(c.dst, a); err != nil {
			return fmt.Errorf("apex: %s: %w", c.key, err)
		}
	}
	rew, disc, term := nd.Data[float64](t.rew), nd.Data[float64](t.disc), nd.Data[bool](t.term)
	ret := nd.Data[float32](t.ret)
	for k, v := range t.v {
		if term[k] {
			v = 0
		}
		ret[k] = float32(rew[k] + disc[k]*float64(v))
	}
	return b.Set(batch.KeyReturns, t.ret)
}

// publish sends d's weights as version v.
func publish(p *cluster.ParamServer, d agent, v uint64) error {
	var w bytes.Buffer
	if err := nn.Save(&w, d.Weights(), nil); err != nil {
		return fmt.Errorf("apex: weights: %w", err)
	}
	return p.Publish(v, w.Bytes())
}

// runStats are counters the actors share with the learner.
type runStats struct {
	steps, episodes, updates atomic.Int64
	// waiting is set while the learner waits for LearningStarts
	// transitions: no actor is then held.
	waiting atomic.Bool
	mu      sync.Mutex
	last    float64
}

func (s *runStats) episode(ret float64) {
	s.episodes.Add(1)
	s.mu.Lock()
	s.last = ret
	s.mu.Unlock()
}

func (s *runStats) lastReturn() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// actor explores with its own agent and feeds its shard.
type actor[A int64 | float32] struct {
	st      loopSettings
	s       common
	i       int
	e       env.Env
	d       agent
	read    actionReader[A]
	shard   *distributed.Prioritized
	steps   *nstep[A]
	act     []A
	prios   []float64
	targets targets
	ver     uint64
	weights *cluster.Follower
	// status is the learner's, for an actor in another process (nil in
	// the learner's); sent holds the counts reported to it so far.
	status *cluster.StatusFollower
	sent   struct{ steps, episodes int64 }
}

// runActor runs actor i in this process for a learner in another one,
// until ctx ends or the learner says the run is over.
func (c *core[A]) runActor(ctx context.Context, i int) error {
	c.s.defaults()
	obsSpace, actSpace, err := c.s.spaces(i)
	if err != nil {
		return err
	}
	a, err := c.newActorLoop(i, obsSpace, actSpace, rand.New(rand.NewPCG(c.s.Seed, 0x61706578+uint64(i))).Uint64())
	if err != nil {
		return err
	}
	if a.status, err = cluster.FollowStatus(c.s.Transport, c.s.Group); err != nil {
		a.e.Close()
		a.shard.Close()
		return err
	}
	defer a.status.Close()
	var stats runStats
	err = a.run(ctx, &stats)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// over reports whether the learner in another process said the run is
// over.
func (a *actor[A]) over() bool {
	if a.status == nil {
		return false
	}
	st := a.status.Latest()
	return st != nil && st.Done
}

// report sends the learner the counts since the last report.
func (a *actor[A]) report(stats *runStats) {
	if a.status == nil {
		return
	}
	steps, eps := stats.steps.Load(), stats.episodes.Load()
	r := cluster.Report{Actor: a.i, Steps: steps - a.sent.steps, Episodes: eps - a.sent.episodes, LastReturn: stats.lastReturn()}
	if cluster.PublishReport(a.s.Transport, a.s.Group, r) == nil {
		a.sent.steps, a.sent.episodes = steps, eps
	}
}

func (c *core[A]) newActorLoop(i int, obsSpace, actSpace env.Space, seed uint64) (*actor[A], error) {
	box, ok := obsSpace.(*env.Box)
	if !ok {
		return nil, fmt.Errorf("%w: Ape-X needs a Box observation space, not %v", ErrConfig, obsSpace)
	}
	d, read, err := c.newActor(i, obsSpace, actSpace, rand.New(rand.NewPCG(seed, uint64(i))))
	if err != nil {
		return nil, err
	}
	var actShape []int
	if ab, ok := actSpace.(*env.Box); ok {
		actShape = ab.Shape()
	}
	e, err := c.s.MakeEnv(i)
	if err != nil {
		return nil, fmt.Errorf("apex: env of actor %d: %w", i, err)
	}
	local, err := buffer.NewPrioritized(buffer.Config{Size: c.st.bufferSize}, buffer.PriorityConfig{Alpha: c.st.priorityAlpha, Beta: c.st.priorityBeta})
	if err != nil {
		e.Close()
		return nil, err
	}
	shard, err := distributed.NewPrioritized(c.s.Transport, distributed.Config{Group: c.s.Group, Member: fmt.Sprintf("actor-%d", i)}, local, c.st.priorityBeta)
	if err != nil {
		e.Close()
		return nil, err
	}
	steps := newNStep[A](c.st.nstep, c.st.gamma, box.Shape(), actShape)
	return &actor[A]{st: c.st, s: c.s, i: i, e: e, d: d, read: read, shard: shard, steps: steps, act: make([]A, steps.actSize)}, nil
}

// sync loads the newest weights if they are newer than the actor's.
func (a *actor[A]) sync() error {
	w := a.weights.Latest()
	if w == nil || w.Version <= a.ver {
		return nil
	}
	if _, err := nn.Load(bytes.NewReader(w.Blob), a.d.Weights()); err != nil {
		return fmt.Errorf("weights version %d: %w", w.Version, err)
	}
	a.ver = w.Version
	return nil
}

func (a *actor[A]) run(ctx context.Context, stats *runStats) error {
	defer a.e.Close()
	defer a.shard.Close()
	fctx, stop := context.WithCancel(ctx)
	a.weights = cluster.Follow(fctx, a.s.Transport, a.s.Group, "q")
	defer a.weights.Wait()
	defer stop()
	for a.weights.Latest() == nil {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
	if err := a.sync(); err != nil {
		return err
	}
	pol := a.d.Policy()
	pol.SetTrainingStep(true)
	size := a.steps.size
	obsBuf := make([]float32, size)
	nextBuf := make([]float32, size)
	obsArr, err := nd.FromSlice(obsBuf, append([]int{1}, a.steps.shape...)...)
	if err != nil {
		return err
	}
	in := batch.MustNew(batch.KeyObs, obsArr)
	out := &batch.Batch{}
	seed := env.SeedOf(a.s.Seed + uint64(a.i)*1_000_003)
	obs, _, err := a.e.Reset(seed)
	if err != nil {
		return err
	}
	if err := readObs(obsBuf, obs); err != nil {
		return err
	}
	ret := 0.0
	for step := 1; ctx.Err() == nil && !a.over(); step++ {
		for a.held(stats) && ctx.Err() == nil && !a.over() {
			time.Sleep(500 * time.Microsecond)
		}
		if err := pol.Act(out, in, nil, true); err != nil {
			return err
		}
		envAct, err := a.read(out, a.act)
		if err != nil {
			return err
		}
		next, r, term, trunc, _, err := a.e.Step(envAct)
		if err != nil {
			return err
		}
		if err := readObs(nextBuf, next); err != nil {
			return err
		}
		a.steps.push(obsBuf, a.act, r, nextBuf, term, trunc)
		stats.steps.Add(1)
		ret += r
		if term || trunc {
			stats.episode(ret)
			ret = 0
			if obs, _, err = a.e.Reset(env.NoSeed); err != nil {
				return err
			}
			if err := readObs(obsBuf, obs); err != nil {
				return err
			}
		} else {
			copy(obsBuf, nextBuf)
		}
		if a.steps.pending() >= a.st.flushEvery {
			if err := a.flush(); err != nil {
				return err
			}
			a.report(stats)
		}
		if step%a.st.syncEvery == 0 {
			if err := a.sync(); err != nil {
				return err
			}
		}
	}
	return nil
}

// held reports whether the actors are StepsPerUpdate env steps per update
// ahead of the learner, with a slack of what the actors may hold back
// unflushed (FlushEvery + NStep steps each), so that LearningStarts
// transitions reach the shards before anything is held.
//
// No actor is held while a learner that has updated waits for data (after
// a restart from a checkpoint, the shards are empty but the counts are
// not; before the first update the slack lets the shards fill). An actor in
// another process counts from the learner's last status: the steps
// reported to it plus its own not yet reported, and runs while the learner
// waits for data.
func (a *actor[A]) held(stats *runStats) bool {
	if a.st.stepsPerUpdate <= 0 {
		return false
	}
	slack := a.st.learningStarts + a.st.actors*(a.st.flushEvery+a.st.nstep)
	steps, updates, waiting := stats.steps.Load(), stats.updates.Load(), stats.waiting.Load()
	if a.status != nil {
		st := a.status.Latest()
		if st == nil {
			return false
		}
		steps, updates, waiting = st.Steps+steps-a.sent.steps, st.Updates, st.Waiting
	}
	if waiting && updates > 0 {
		return false
	}
	ahead := float64(steps - int64(slack))
	return ahead > a.st.stepsPerUpdate*float64(updates)
}

// flush computes the pending transitions' priorities with the actor's
// agent and adds them to its shard.
func (a *actor[A]) flush() error {
	b, err := a.steps.take()
	if err != nil {
		return err
	}
	n, err := b.Len()
	if err != nil {
		return err
	}
	if err := a.targets.set(a.d, b, n); err != nil {
		return err
	}
	a.prios = append(a.prios[:0], make([]float64, n)...)
	if err := a.d.TDErrorsTo(a.prios, b); err != nil {
		return err
	}
	b.Delete(batch.KeyReturns)
	_, err = a.shard.Add(b, a.prios)
	return err
}

// readObs copies an env observation (a float array) into dst.
func readObs(dst []float32, obs any) error {
	a, ok := obs.(*nd.Array)
	if !ok {
		return fmt.Errorf("apex: observation %T, want an array", obs)
	}
	f, err := a.AsType(nd.Float32)
	if err != nil {
		return err
	}
	src := nd.ToSlice[float32](f)
	if len(src) != len(dst) {
		return fmt.Errorf("apex: observation of %d values, want %d", len(src), len(dst))
	}
	copy(dst, src)
	return nil
}
