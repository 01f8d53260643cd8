package trainer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
)

// overlap is the state of the off-policy trainer's overlapped mode
// (Config.Overlap): the collecting copy of the algorithm, the stage its
// collector writes into, and the collector's random source.
type overlap struct {
	actor    algo.Algorithm
	dst, src nn.Params // the actor's and the learner's policy parameters
	stage    stage
	pcg      *rand.PCG
	rng      *rand.Rand
	every    int   // Config.OverlapSync
	since    int64 // updates since the last synchronisation
}

// collected is what the collector goroutine hands back.
type collected struct {
	cs  collector.Stats
	err error
}

// newOverlap checks s.Actor against alg and returns the overlapped mode's
// state, with the actor's parameters set to alg's.
func newOverlap(alg algo.Algorithm, s Setup, every int) (*overlap, error) {
	a := s.Actor
	switch {
	case a == nil:
		return nil, configError("overlap needs Setup.Actor, a second algorithm made with the same configuration")
	case reflect.TypeOf(a) != reflect.TypeOf(alg):
		return nil, configError("Setup.Actor is a %T, the trained algorithm a %T", a, alg)
	}
	o := &overlap{actor: a, dst: a.Policy().Params(), src: alg.Policy().Params(), every: every,
		pcg: rand.NewPCG(s.Seed, 0xc011ec7)}
	if (reflect.TypeOf(a).Comparable() && a == alg) || shareTensors(o.dst, o.src) {
		return nil, configError("Setup.Actor is the trained algorithm itself, or shares its networks; it must be a second one")
	}
	o.rng = rand.New(o.pcg)
	if err := nn.Copy(o.dst, o.src); err != nil {
		return nil, configError("Setup.Actor's policy cannot take the trained policy's parameters: %v", err)
	}
	a.Policy().SetTrainingStep(true)
	return o, nil
}

// shareTensors reports whether a and b have a tensor in common.
func shareTensors(a, b nn.Params) bool {
	for _, p := range a {
		for _, q := range b {
			if p.Tensor == q.Tensor {
				return true
			}
		}
	}
	return false
}

// sync copies the learner's policy parameters into the actor's.
func (o *overlap) sync() {
	_ = nn.Copy(o.dst, o.src) // the structures were matched by newOverlap
	o.since = 0
}

// schedule tells a Scheduled actor the number of env steps so far.
func (o *overlap) schedule(envSteps int64) {
	if s, ok := o.actor.(algo.Scheduled); ok {
		s.Schedule(envSteps)
	}
}

// work runs the collections the trainer asks for on next, one at a time,
// and hands each back on done.
func work(ctx context.Context, c *collector.Collector, req collector.Request, next <-chan struct{}, done chan<- collected) {
	for {
		if _, ok := await(next); !ok {
			return
		}
		cs, err := c.Collect(ctx, req)
		done <- collected{cs, err}
	}
}

// spinWait is how long the trainer and its collector goroutine poll for
// each other's hand-off before they block on it. A blocked goroutine is
// woken through the scheduler and, when the other processor is idle, the
// operating system, which on some virtual machines takes as long as a
// collection of ten CartPole steps; the two hand over several thousand
// times a second.
const spinWait = time.Millisecond

// await returns the next value of c (ok false when c is closed), polling
// c for up to spinWait before it blocks. While it polls it gives way to
// other goroutines.
func await[T any](c <-chan T) (v T, ok bool) {
	start := time.Now()
	for i := 0; ; i++ {
		select {
		case v, ok = <-c:
			return v, ok
		default:
		}
		if i%16 == 15 && time.Since(start) > spinWait {
			v, ok = <-c
			return v, ok
		}
		runtime.Gosched()
	}
}

// overlapEpoch is an epoch of the off-policy trainer in the overlapped
// mode. It begins at a synchronisation point (the actor takes the
// learner's parameters); then, while the learner makes the updates owed to
// collection i, the collector goroutine gathers collection i+1 into the
// stage. The trainer takes collection i+1 over only when those updates are
// done: it starts collection i+2, then replays collection i+1 from the
// stage into the buffer (beside the new collection, which the stage
// records apart) and makes its updates. Collection runs at most one
// collection ahead of the updates, and the updates never use data the
// sequential loop would not have had.
func (k *offPolicy) overlapEpoch(ctx context.Context, t *Trainer, epoch int) error {
	o := t.ov
	o.sync()
	// The collector goroutine keeps a processor busy: the learner's
	// computations split over the others only.
	defer par.Reserve(1)()
	req := collector.Request{NStep: t.cfg.StepPerCollect, NEpisode: t.cfg.EpisodePerCollect}
	next, done := make(chan struct{}, 1), make(chan collected, 1)
	go work(ctx, t.train, req, next, done)
	busy := false
	defer func() {
		if busy {
			// Nothing may touch the envs, the collector or the stage
			// after the epoch returns.
			<-done
			o.stage.record = false
			o.stage.n = 0
		}
		o.stage.np = 0
		close(next)
	}()
	start := func() {
		if t.setup.TrainHook != nil {
			t.setup.TrainHook(epoch, t.st.EnvSteps)
		}
		t.schedule()
		o.schedule(t.st.EnvSteps)
		o.stage.record = true
		busy = true
		next <- struct{}{}
	}
	var steps int64
	grad0 := t.st.GradSteps
	start()
	for busy {
		r, _ := await(done)
		busy = false
		o.stage.record = false
		o.stage.swap()
		cs := r.cs
		t.res.CollectTime += cs.Duration
		t.st.EnvSteps += int64(cs.Steps)
		steps += int64(cs.Steps)
		if r.err != nil {
			return errors.Join(o.stage.flush(), r.err)
		}
		if solved, err := t.collected(ctx, epoch, cs, steps); solved || err != nil {
			return errors.Join(o.stage.flush(), err)
		}
		if steps < int64(t.cfg.StepPerEpoch) {
			if o.since >= int64(o.every) {
				o.sync()
			}
			start()
		}
		// The replay runs beside the next collection: the collector
		// goroutine writes only the stage's other list.
		if err := o.stage.flush(); err != nil {
			return err
		}
		uStart := time.Now()
		before := t.st.GradSteps
		if err := k.update(ctx, t, cs); err != nil {
			return err
		}
		o.since += t.st.GradSteps - before
		t.res.UpdateTime += time.Since(uStart)
		if t.setup.Progress != nil {
			t.setup.Progress.SetUpdates(t.st.GradSteps - grad0)
		}
		if err := t.maybeLog(cs); err != nil {
			return err
		}
	}
	return nil
}

// stage is the training collector's buffer in the overlapped mode. While a
// collection runs beside the updates it records the collector's writes
// (copies of the transitions, episode ends) instead of storing them, so the
// learner samples the replay buffer without a lock. When the trainer takes
// the collection over, swap sets the recorded writes aside, and flush
// replays them into the buffer, in order, while the collector goroutine
// may record the next collection. Otherwise (resets, the prefill) it
// writes through.
type stage struct {
	buf    buffer.Buffer
	record bool
	// The collector goroutine's: the writes it records (the first n of
	// ops) and its scratch rows.
	ops  []stageOp
	n    int
	rows []int
	// The trainer's: the writes set aside for flush (the first np of
	// pend) and its scratch steps.
	pend  []stageOp
	np    int
	steps []buffer.Step
}

// stageOp is one recorded write: an Add of data to ids, or, with data
// nil, an EndEpisode of ids.
type stageOp struct {
	data *batch.Batch
	ids  []int
	end  bool
}

func (s *stage) BufferNum() int { return s.buf.BufferNum() }

// Add stores data, or records a copy of it. The steps of a recorded Add
// have Index −1: where the transitions go is known only when they are
// replayed.
func (s *stage) Add(data *batch.Batch, ids []int, steps []buffer.Step) ([]buffer.Step, error) {
	if !s.record {
		return s.buf.Add(data, ids, steps)
	}
	op := s.op()
	op.end = false
	op.ids = append(op.ids[:0], ids...)
	if op.data == nil || !sameLayout(op.data, data) {
		op.data = data.Clone()
	} else {
		for len(s.rows) < len(ids) {
			s.rows = append(s.rows, len(s.rows))
		}
		batch.TakeTo(op.data, data, s.rows[:len(ids)])
	}
	for range ids {
		steps = append(steps, buffer.Step{Index: -1, EpisodeStart: -1})
	}
	return steps, nil
}

// EndEpisode ends the episodes of ids, or records that it must.
func (s *stage) EndEpisode(ids []int) {
	if !s.record {
		s.buf.EndEpisode(ids)
		return
	}
	op := s.op()
	op.end = true
	op.ids = append(op.ids[:0], ids...)
}

// op returns the next free recorded write.
func (s *stage) op() *stageOp {
	if s.n == len(s.ops) {
		s.ops = append(s.ops, stageOp{})
	}
	s.n++
	return &s.ops[s.n-1]
}

// swap sets the recorded writes aside for flush, which must have replayed
// those set aside before, and starts an empty record. It must not run
// beside a collection.
func (s *stage) swap() {
	if s.np != 0 {
		panic("trainer: stage swapped before its last flush") // a bug of the trainer's loop
	}
	s.ops, s.pend = s.pend, s.ops
	s.n, s.np = 0, s.n
}

// flush replays the writes set aside by swap into the buffer.
func (s *stage) flush() error {
	n := s.np
	s.np = 0
	for i := range n {
		op := &s.pend[i]
		if op.end {
			s.buf.EndEpisode(op.ids)
			continue
		}
		var err error
		if s.steps, err = s.buf.Add(op.data, op.ids, s.steps[:0]); err != nil {
			return fmt.Errorf("collector: buffer: %w", err)
		}
	}
	return nil
}

// sameLayout reports whether batch.TakeTo can copy all of s's rows into d:
// the same keys holding arrays of the same dtypes and shapes, or batches of
// the same layout. Other values (scalars, custom leaves) are not reused.
func sameLayout(d, s *batch.Batch) bool {
	if d.NumKeys() != s.NumKeys() {
		return false
	}
	for key, sv := range s.Items() {
		dv, ok := d.Get(key)
		if !ok {
			return false
		}
		switch sv := sv.(type) {
		case nil:
			if dv != nil {
				return false
			}
		case *nd.Array:
			da, ok := dv.(*nd.Array)
			if !ok || da.DType() != sv.DType() || da.Ndim() != sv.Ndim() || sv.Ndim() == 0 {
				return false
			}
			for i := range sv.Ndim() {
				if da.Dim(i) != sv.Dim(i) {
					return false
				}
			}
		case *batch.Batch:
			db, ok := dv.(*batch.Batch)
			if !ok || !sameLayout(db, sv) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
