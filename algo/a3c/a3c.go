package a3c

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nn"
)

// Progress is what the holder reports after each update.
type Progress struct {
	// Updates is the number of gradients applied so far.
	Updates int64
	// EnvSteps is the number of env steps all workers took so far.
	EnvSteps int64
	// Episodes and LastReturn count the workers' finished episodes and give
	// the return of the newest.
	Episodes   int64
	LastReturn float64
	// Staleness is the number of versions published between the weights
	// the last gradient was computed on and the ones it was applied to.
	Staleness uint64
}

// Setup is what Run needs besides the configuration.
type Setup struct {
	// Transport connects the holder and the workers.
	Transport cluster.Transport
	// Group names the run's subjects; runs sharing a deployment need
	// distinct groups. Default "a3c".
	Group string
	// MakeEnv returns worker i's env.
	MakeEnv func(worker int) (env.Env, error)
	// Seed seeds every network and random stream.
	Seed uint64
	// After is called after every update with the shared model; it stops
	// the run by returning true or an error. Required.
	After func(a *a2c.A2C, p Progress) (stop bool, err error)
	// ChunkSize is the largest weight or gradient message; default 1 MiB
	// less 1 KiB.
	ChunkSize int
	// Remote starts no workers in this process: they run RunWorker in
	// other processes, report their counts over the transport, and are
	// told the holder's (cluster.Report, cluster.Status).
	Remote bool
	// Restore, if set, is called once with the new shared model before its
	// first weights are published: it loads a saved state into it (the
	// A2C's, whose optimizer is the shared one) and returns the counts to
	// continue from.
	Restore func(a *a2c.A2C) (Progress, error)
}

// Subject names under Setup.Group.
const (
	weightsName = "weights"
	gradsName   = "grads"
)

// errStopped answers the gradients that arrive after the run stopped.
var errStopped = errors.New("a3c: the run has stopped")

// Run trains A3C until s.After stops it or ctx ends, and returns the
// shared model.
func Run(ctx context.Context, cfg Config, s Setup) (*a2c.A2C, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if s.Transport == nil || s.MakeEnv == nil || s.After == nil {
		return nil, fmt.Errorf("%w: Setup needs Transport, MakeEnv and After", ErrConfig)
	}
	if s.Group == "" {
		s.Group = "a3c"
	}
	if s.ChunkSize <= 0 {
		s.ChunkSize = 1<<20 - 1024
	}
	probe, err := s.MakeEnv(0)
	if err != nil {
		return nil, fmt.Errorf("a3c: env of worker 0: %w", err)
	}
	obsSpace, actSpace := probe.ObservationSpace(), probe.ActionSpace()
	probe.Close()

	rng := rand.New(rand.NewPCG(s.Seed, 0x613363))
	h, err := newHolder(cfg, s, obsSpace, actSpace, rng)
	if err != nil {
		return nil, err
	}
	if s.Restore != nil {
		if err := h.restore(s.Restore); err != nil {
			return nil, err
		}
	}
	params, err := cluster.ServeParams(s.Transport, s.Group, weightsName, s.ChunkSize)
	if err != nil {
		return nil, err
	}
	defer params.Close()
	w, err := h.weights()
	if err != nil {
		return nil, err
	}
	if err := params.Publish(h.version, w); err != nil {
		return nil, err
	}
	if s.Remote {
		stop, err := cluster.SubscribeReports(s.Transport, s.Group, h.stats.add)
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	grads, err := cluster.ServeGrads(s.Transport, s.Group, gradsName, params, cluster.GradConfig{MaxStale: cfg.MaxStale}, h.apply)
	if err != nil {
		return nil, err
	}
	defer grads.Close()

	wctx, stopWorkers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	workerErr := make(chan error, cfg.Workers)
	defer func() {
		stopWorkers()
		wg.Wait()
	}()
	local := cfg.Workers
	if s.Remote {
		local = 0
	}
	for i := range local {
		wk, err := newWorker(cfg, s, i, obsSpace, actSpace, rng.Uint64())
		if err != nil {
			return h.a, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := wk.run(wctx, &h.stats); err != nil && wctx.Err() == nil {
				workerErr <- fmt.Errorf("a3c: worker %d: %w", i, err)
			}
		}()
	}
	select {
	case <-ctx.Done():
		h.stop(nil)
		return h.a, ctx.Err()
	case err := <-workerErr:
		select {
		case <-h.done: // the worker's push was refused because the run stopped
			return h.a, h.err
		default:
		}
		h.stop(nil)
		return h.a, err
	case <-h.done:
		return h.a, h.err
	}
}

// stats are counters the workers share with the holder.
type stats struct {
	steps, episodes atomic.Int64
	last            atomic.Uint64 // math.Float64bits of the newest return
}

// add counts a report of a worker in another process.
func (s *stats) add(r cluster.Report) {
	s.steps.Add(r.Steps)
	if r.Episodes > 0 {
		s.episodes.Add(r.Episodes)
		s.last.Store(math.Float64bits(r.LastReturn))
	}
}

// holder is the shared model: an A2C whose optimizer, shared by the
// workers, trains its networks with their gradients.
type holder struct {
	cfg   Config
	after func(*a2c.A2C, Progress) (bool, error)
	a     *a2c.A2C
	ps    nn.Params // the trainable parameters, in the gradients' order
	stats stats

	mu      sync.Mutex
	prog    Progress
	version uint64 // of the weights published last
	grad    []float32
	out     bytes.Buffer
	stopped bool
	err     error
	done    chan struct{}
}

func newHolder(cfg Config, s Setup, obs, act env.Space, rng *rand.Rand) (*holder, error) {
	a, err := a2c.New(cfg.A2C, obs, act, rng)
	if err != nil {
		return nil, err
	}
	return &holder{cfg: cfg, after: s.After, a: a, ps: a.Net.Params().Trainable(), version: 1, done: make(chan struct{})}, nil
}

// restore loads a saved state into the shared model with load and goes on
// from its counts: the versions it publishes go on from the updates.
func (h *holder) restore(load func(*a2c.A2C) (Progress, error)) error {
	p, err := load(h.a)
	if err != nil {
		return err
	}
	h.prog = p
	h.version = uint64(p.Updates) + 1
	h.stats.steps.Store(p.EnvSteps)
	h.stats.episodes.Store(p.Episodes)
	h.stats.last.Store(math.Float64bits(p.LastReturn))
	return nil
}

// weights returns the shared networks' parameters, serialized, in memory
// of the holder valid until the next call.
func (h *holder) weights() ([]byte, error) {
	h.out.Reset()
	if err := nn.Save(&h.out, h.a.Net.Params(), nil); err != nil {
		return nil, fmt.Errorf("a3c: weights: %w", err)
	}
	return h.out.Bytes(), nil
}

// apply is the cluster.GradApply of the shared model: one Adam step on a
// worker's gradient, then After.
func (h *holder) apply(base uint64, blob []byte) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil, errStopped
	}
	var err error
	if h.grad, err = decodeGrad(h.grad, blob, h.ps.Count()); err != nil {
		return nil, err
	}
	off := 0
	for _, p := range h.ps {
		n := p.Tensor.Len()
		p.Tensor.SetGrad(h.grad[off : off+n])
		off += n
	}
	h.a.Opt.Apply()
	h.a.Counters.Updates++
	h.version++
	h.prog.Updates++
	h.prog.Staleness = h.version - 1 - min(base, h.version-1)
	h.prog.EnvSteps = h.stats.steps.Load()
	h.prog.Episodes = h.stats.episodes.Load()
	h.prog.LastReturn = math.Float64frombits(h.stats.last.Load())
	stop, err := h.after(h.a, h.prog)
	if err != nil || stop {
		h.stopLocked(err)
	}
	return h.weights()
}

// stop ends the run with err (nil for a normal end).
func (h *holder) stop(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopLocked(err)
}

func (h *holder) stopLocked(err error) {
	if h.stopped {
		return
	}
	h.stopped, h.err = true, err
	close(h.done)
}

// encodeGrad appends the gradients of ps to dst as little-endian float32
// values, zeros for a tensor that has none.
func encodeGrad(dst []byte, ps nn.Params) []byte {
	for _, p := range ps {
		g := p.Tensor.Grad()
		for i := range p.Tensor.Len() {
			var x float32
			if g != nil {
				x = g[i]
			}
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(x))
		}
	}
	return dst
}

// decodeGrad reads n float32 values from blob into dst (resized).
func decodeGrad(dst []float32, blob []byte, n int) ([]float32, error) {
	if len(blob) != 4*n {
		return dst, fmt.Errorf("a3c: a gradient of %d bytes, want %d for %d parameters", len(blob), 4*n, n)
	}
	dst = append(dst[:0], make([]float32, n)...)
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(blob[4*i:]))
	}
	return dst, nil
}

// worker collects with its own env and copy of the networks and pushes
// gradients.
type worker struct {
	cfg     Config
	s       Setup
	i       int
	a       *a2c.A2C
	ps      nn.Params
	vec     vector.Env
	coll    *collector.Collector
	buf     *buffer.Replay
	learner algo.Learner
	push    *cluster.GradPusher
	version uint64
	grad    []byte
	// remote sends the holder in another process the worker's counts
	// after each gradient (cluster.Report).
	remote bool
}

func newWorker(cfg Config, s Setup, i int, obs, act env.Space, seed uint64) (*worker, error) {
	a, err := a2c.New(cfg.A2C, obs, act, rand.New(rand.NewPCG(seed, uint64(i))))
	if err != nil {
		return nil, err
	}
	e, err := s.MakeEnv(i)
	if err != nil {
		return nil, fmt.Errorf("a3c: env of worker %d: %w", i, err)
	}
	vec, err := vector.New([]env.Env{e}, vector.Config{})
	if err != nil {
		e.Close()
		return nil, err
	}
	buf, err := buffer.New(buffer.Config{Size: cfg.NSteps})
	if err != nil {
		vec.Close()
		return nil, err
	}
	coll, err := collector.New(collector.Config{Env: vec, Policy: a.Policy(), Buffer: buf, Explore: true})
	if err != nil {
		vec.Close()
		return nil, err
	}
	push, err := cluster.NewGradPusher(s.Transport, s.Group, gradsName, uint64(i)+1, s.ChunkSize, 0)
	if err != nil {
		vec.Close()
		return nil, err
	}
	return &worker{cfg: cfg, s: s, i: i, a: a, ps: a.Net.Params().Trainable(), vec: vec, coll: coll, buf: buf, push: push}, nil
}

// gradientsOnly is an A2C whose update computes the gradients and stops
// there, for algo.Learner.StepAll.
type gradientsOnly struct{ *a2c.A2C }

func (g gradientsOnly) UpdateRepeat(b *batch.Batch, _, _ int) (map[string]float64, error) {
	return g.Gradients(b)
}

// fetch loads the newest weights of a version above after.
func (w *worker) fetch(ctx context.Context, after uint64) error {
	v, blob, err := cluster.FetchParams(ctx, w.s.Transport, w.s.Group, weightsName, after)
	if err != nil {
		return err
	}
	if _, err := nn.Load(bytes.NewReader(blob), w.a.Net.Params()); err != nil {
		return fmt.Errorf("weights version %d: %w", v, err)
	}
	w.version = v
	return nil
}

func (w *worker) run(ctx context.Context, st *stats) error {
	defer w.vec.Close()
	w.a.Policy().SetTrainingStep(true) // sample from the distribution
	if err := w.coll.Reset(ctx, []env.Seed{env.SeedOf(w.s.Seed + uint64(w.i)*1_000_003)}); err != nil {
		return err
	}
	if err := w.fetch(ctx, 0); err != nil {
		return err
	}
	for ctx.Err() == nil {
		w.buf.Reset()
		cs, err := w.coll.Collect(ctx, collector.Request{NStep: w.cfg.NSteps})
		if err != nil {
			return err
		}
		st.steps.Add(int64(cs.Steps))
		for _, r := range cs.Returns {
			st.episodes.Add(1)
			st.last.Store(math.Float64bits(r))
		}
		if w.remote {
			r := cluster.Report{Actor: w.i, Steps: int64(cs.Steps), Episodes: int64(len(cs.Returns))}
			if n := len(cs.Returns); n > 0 {
				r.LastReturn = cs.Returns[n-1]
			}
			cluster.PublishReport(w.s.Transport, w.s.Group, r)
		}
		if _, err := w.learner.StepAll(gradientsOnly{w.a}, w.buf, 0, 1); err != nil {
			return err
		}
		w.grad = encodeGrad(w.grad[:0], w.ps)
		v, err := w.push.Push(ctx, w.version, w.grad)
		if err != nil && !errors.Is(err, cluster.ErrGradStale) {
			return err
		}
		// The version the holder published after the push, or its current
		// one: lower than the worker's when the holder restarted from a
		// checkpoint.
		if err := w.fetch(ctx, v-1); err != nil {
			return err
		}
	}
	return nil
}

// RunWorker runs worker i of cfg.Workers in this process for a holder
// that runs elsewhere with s.Remote set, until ctx ends or the holder says
// the run is over (cluster.Status.Done). s.After and s.Restore are not
// used. The worker waits for the holder's first weights.
func RunWorker(ctx context.Context, cfg Config, s Setup, i int) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if s.Transport == nil || s.MakeEnv == nil {
		return fmt.Errorf("%w: Setup needs Transport and MakeEnv", ErrConfig)
	}
	if i < 0 || i >= cfg.Workers {
		return fmt.Errorf("%w: worker %d of %d", ErrConfig, i, cfg.Workers)
	}
	if s.Group == "" {
		s.Group = "a3c"
	}
	if s.ChunkSize <= 0 {
		s.ChunkSize = 1<<20 - 1024
	}
	probe, err := s.MakeEnv(i)
	if err != nil {
		return fmt.Errorf("a3c: env of worker %d: %w", i, err)
	}
	obsSpace, actSpace := probe.ObservationSpace(), probe.ActionSpace()
	probe.Close()
	w, err := newWorker(cfg, s, i, obsSpace, actSpace, rand.New(rand.NewPCG(s.Seed, 0x613363+uint64(i))).Uint64())
	if err != nil {
		return err
	}
	w.remote = true
	status, err := cluster.FollowStatus(s.Transport, s.Group)
	if err != nil {
		w.vec.Close()
		return err
	}
	defer status.Close()
	over := func() bool { st := status.Latest(); return st != nil && st.Done }
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for !over() {
			select {
			case <-wctx.Done():
				return
			case <-tick.C:
			}
		}
		stop()
	}()
	var st stats
	err = w.run(wctx, &st)
	if ctx.Err() != nil || over() {
		return nil
	}
	if err != nil {
		// A push refused because the run stopped comes before the
		// holder's last status.
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) && ctx.Err() == nil {
			if over() {
				return nil
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return err
}
