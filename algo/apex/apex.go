package apex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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

// defaults fills s's defaults and checks its required fields.
func (s *Setup) defaults() error {
	if s.Transport == nil || s.MakeEnv == nil {
		return fmt.Errorf("%w: Setup needs Transport and MakeEnv", ErrConfig)
	}
	if s.Group == "" {
		s.Group = "apex"
	}
	if s.ChunkSize <= 0 {
		s.ChunkSize = 1<<20 - 1024
	}
	return nil
}

// spaces returns the observation and action spaces of actor i's env.
func (s *Setup) spaces(i int) (obs, act env.Space, err error) {
	probe, err := s.MakeEnv(i)
	if err != nil {
		return nil, nil, fmt.Errorf("apex: env of actor %d: %w", i, err)
	}
	defer probe.Close()
	return probe.ObservationSpace(), probe.ActionSpace(), nil
}

// Run trains Ape-X DQN until s.After stops it or ctx ends, and returns the
// learner's DQN.
func Run(ctx context.Context, cfg Config, s Setup) (*dqn.DQN, error) {
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

	rng := rand.New(rand.NewPCG(s.Seed, 0x61706578))
	learner, err := dqn.New(cfg.DQN, obsSpace, actSpace, rng)
	if err != nil {
		return nil, err
	}
	var prog Progress
	var stats runStats
	if s.Restore != nil {
		if prog, err = s.Restore(learner); err != nil {
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
	buf, err := distributed.NewPrioritized(s.Transport, distributed.Config{Group: s.Group, Member: "learner"}, nil, cfg.PriorityBeta)
	if err != nil {
		return nil, err
	}
	defer buf.Close()

	actCtx, stopActors := context.WithCancel(ctx)
	var wg sync.WaitGroup
	actorErr := make(chan error, cfg.Actors)
	local := cfg.Actors
	if s.Remote {
		local = 0
	}
	for i := range local {
		a, err := newActor(cfg, s, i, obsSpace, actSpace, rng.Uint64())
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
	var returns []float32
	var waited time.Time
	for {
		select {
		case <-ctx.Done():
			return learner, ctx.Err()
		case err := <-actorErr:
			return learner, err
		default:
		}
		if buf.Len() < cfg.LearningStarts {
			stats.waiting.Store(true)
			if s.Remote && time.Since(waited) > 50*time.Millisecond {
				cluster.PublishStatus(s.Transport, s.Group, cluster.Status{Updates: prog.Updates, Steps: stats.steps.Load(), Waiting: true})
				waited = time.Now()
			}
			time.Sleep(2 * time.Millisecond)
			continue
		}
		stats.waiting.Store(false)
		smp, err := buf.Sample(ctx, cfg.BatchSize, sampleRng)
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
		if returns, err = nstepReturns(learner, b, returns[:0], n); err != nil {
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
		if prog.Updates%int64(cfg.PublishEvery) == 0 {
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
		prog.Loss = st["loss"]
		prog.Missing = smp.Missing
		stop, err := s.After(learner, prog)
		if err != nil || stop {
			return learner, err
		}
	}
}

// nstepReturns stores in b under "returns" the targets of its n-step
// transitions, rew + γᵏ·(1 − terminated)·V(obs_next), V the learner's
// bootstrap value (NextValues).
func nstepReturns(d *dqn.DQN, b *batch.Batch, dst []float32, n int) ([]float32, error) {
	next, err := b.Array(batch.KeyObsNext)
	if err != nil {
		return dst, fmt.Errorf("apex: %w", err)
	}
	dst = append(dst[:0], make([]float32, n)...)
	if err := d.NextValues(dst, batch.MustNew(batch.KeyObs, next)); err != nil {
		return dst, err
	}
	rew, err := floats(b, batch.KeyRew)
	if err != nil {
		return dst, err
	}
	disc, err := floats(b, KeyDiscount)
	if err != nil {
		return dst, err
	}
	term, err := b.Array(batch.KeyTerminated)
	if err != nil {
		return dst, fmt.Errorf("apex: %w", err)
	}
	tb := nd.ToSlice[bool](term)
	for k := range dst {
		v := dst[k]
		if tb[k] {
			v = 0
		}
		dst[k] = float32(rew[k] + disc[k]*float64(v))
	}
	ret, err := nd.FromSlice(dst, n)
	if err != nil {
		return dst, err
	}
	return dst, b.Set(batch.KeyReturns, ret)
}

func floats(b *batch.Batch, key string) ([]float64, error) {
	a, err := b.Array(key)
	if err != nil {
		return nil, fmt.Errorf("apex: %w", err)
	}
	f, err := a.AsType(nd.Float64)
	if err != nil {
		return nil, fmt.Errorf("apex: %s: %w", key, err)
	}
	return nd.ToSlice[float64](f), nil
}

// publish sends d's online parameters as version v.
func publish(p *cluster.ParamServer, d *dqn.DQN, v uint64) error {
	var w bytes.Buffer
	if err := nn.Save(&w, d.Policy().Params(), nil); err != nil {
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

// actor explores with its own ε and network copy and feeds its shard.
type actor struct {
	cfg     Config
	s       Setup
	i       int
	e       env.Env
	d       *dqn.DQN
	shard   *distributed.Prioritized
	steps   *nstep
	prios   []float64
	ver     uint64
	weights *cluster.Follower
	// status is the learner's, for an actor in another process (nil in
	// the learner's); sent holds the counts reported to it so far.
	status *cluster.StatusFollower
	sent   struct{ steps, episodes int64 }
}

// RunActor runs actor i of cfg.Actors (its ε is ActorEps's) in this
// process for a learner that runs elsewhere with s.Remote set, until ctx
// ends or the learner says the run is over (cluster.Status.Done). s.After
// and s.Restore are not used. The actor waits for the
// learner's first weights, feeds its shard of the group's buffer, and
// reports its counts; an actor restarted with the same i rejoins as the
// same member, with an empty shard.
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
	a, err := newActor(cfg, s, i, obsSpace, actSpace, rand.New(rand.NewPCG(s.Seed, 0x61706578+uint64(i))).Uint64())
	if err != nil {
		return err
	}
	if a.status, err = cluster.FollowStatus(s.Transport, s.Group); err != nil {
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
func (a *actor) over() bool {
	if a.status == nil {
		return false
	}
	st := a.status.Latest()
	return st != nil && st.Done
}

// report sends the learner the counts since the last report.
func (a *actor) report(stats *runStats) {
	if a.status == nil {
		return
	}
	steps, eps := stats.steps.Load(), stats.episodes.Load()
	r := cluster.Report{Actor: a.i, Steps: steps - a.sent.steps, Episodes: eps - a.sent.episodes, LastReturn: stats.lastReturn()}
	if cluster.PublishReport(a.s.Transport, a.s.Group, r) == nil {
		a.sent.steps, a.sent.episodes = steps, eps
	}
}

func newActor(cfg Config, s Setup, i int, obsSpace, actSpace env.Space, seed uint64) (*actor, error) {
	e, err := s.MakeEnv(i)
	if err != nil {
		return nil, fmt.Errorf("apex: env of actor %d: %w", i, err)
	}
	dc := cfg.DQN
	dc.EpsTrain = ActorEps(cfg.Eps, cfg.EpsAlpha, i, cfg.Actors)
	dc.EpsDecaySteps = 0
	dc.TargetUpdateFreq, dc.Tau = 0, 0 // priorities from the actor's one network
	d, err := dqn.New(dc, obsSpace, actSpace, rand.New(rand.NewPCG(seed, uint64(i))))
	if err != nil {
		e.Close()
		return nil, err
	}
	local, err := buffer.NewPrioritized(buffer.Config{Size: cfg.BufferSize}, buffer.PriorityConfig{Alpha: cfg.PriorityAlpha, Beta: cfg.PriorityBeta})
	if err != nil {
		e.Close()
		return nil, err
	}
	shard, err := distributed.NewPrioritized(s.Transport, distributed.Config{Group: s.Group, Member: fmt.Sprintf("actor-%d", i)}, local, cfg.PriorityBeta)
	if err != nil {
		e.Close()
		return nil, err
	}
	box, ok := obsSpace.(*env.Box)
	if !ok {
		e.Close()
		shard.Close()
		return nil, fmt.Errorf("%w: Ape-X needs a Box observation space, not %v", ErrConfig, obsSpace)
	}
	return &actor{cfg: cfg, s: s, i: i, e: e, d: d, shard: shard, steps: newNStep(max(1, cfg.DQN.NStep), cfg.DQN.Gamma, box.Shape())}, nil
}

// sync loads the newest weights if they are newer than the actor's.
func (a *actor) sync() error {
	w := a.weights.Latest()
	if w == nil || w.Version <= a.ver {
		return nil
	}
	if _, err := nn.Load(bytes.NewReader(w.Blob), a.d.Policy().Params()); err != nil {
		return fmt.Errorf("weights version %d: %w", w.Version, err)
	}
	a.ver = w.Version
	return nil
}

func (a *actor) run(ctx context.Context, stats *runStats) error {
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
	actOut := nd.Zeros(nd.Int64) // the env action, a 0-d array
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
		actArr, err := out.Array(batch.KeyAct)
		if err != nil {
			return err
		}
		act := nd.ToSlice[int64](actArr)[0]
		nd.Data[int64](actOut)[0] = act
		next, r, term, trunc, _, err := a.e.Step(actOut)
		if err != nil {
			return err
		}
		if err := readObs(nextBuf, next); err != nil {
			return err
		}
		a.steps.push(obsBuf, act, r, nextBuf, term, trunc)
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
		if a.steps.pending() >= a.cfg.FlushEvery {
			if err := a.flush(); err != nil {
				return err
			}
			a.report(stats)
		}
		if step%a.cfg.SyncEvery == 0 {
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
// another process counts from the learner's last status: the
// steps reported to it plus its own not yet reported, and runs while the
// learner waits for data.
func (a *actor) held(stats *runStats) bool {
	if a.cfg.StepsPerUpdate <= 0 {
		return false
	}
	slack := a.cfg.LearningStarts + a.cfg.Actors*(a.cfg.FlushEvery+max(1, a.cfg.DQN.NStep))
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
	return ahead > a.cfg.StepsPerUpdate*float64(updates)
}

// flush computes the pending transitions' priorities with the actor's
// network and adds them to its shard.
func (a *actor) flush() error {
	b, err := a.steps.take()
	if err != nil {
		return err
	}
	n, err := b.Len()
	if err != nil {
		return err
	}
	if _, err := nstepReturns(a.d, b, nil, n); err != nil {
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
