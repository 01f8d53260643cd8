// Package par runs a fixed list of independent tasks on a pool of worker
// goroutines, the caller included.
//
// The tasks are fixed by the caller (from the sizes of its data, never from
// the number of workers), and each task writes its own part of the result;
// the workers only decide who runs which task. So a computation split with
// par gives the same bits on any number of workers, as long as the tasks do
// not depend on the order in which they run. Sums across tasks go through
// per-task partial results that the caller combines in task order.
//
// The pool has Workers() − 1 helper goroutines, started on first use. A Run
// hands its tasks to the helpers that are idle at that moment and runs the
// rest itself, so nested or concurrent Runs from several goroutines never
// wait for one another: with no helper free, the caller runs every task.
// The tasks are cut into one block per worker slot, and each worker runs its
// own block in order before it takes tasks from the others': a helper that
// keeps its slot from Run to Run then works on the same parts of the data
// each time, which stay in its core's cache.
// A helper that ran tasks looks for the next Run for as long as those tasks
// took (within bounds) before it parks, and a caller waits for its helpers'
// last tasks a while before it parks.
package par

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// EnvVar names the environment variable that caps the number of workers
// (GORL_WORKERS=1 keeps every computation on the calling goroutine).
const EnvVar = "GORL_WORKERS"

// Tasks is a list of independent tasks. Task runs task i on worker slot w,
// which is unique among the goroutines running the same Run at that moment
// and below the Run's worker count: it indexes per-worker scratch memory.
type Tasks interface {
	Task(i, w int)
}

var (
	setting  atomic.Int32 // workers set by SetWorkers, 0 for the default
	reserved atomic.Int32 // processors held by Reserve

	envOnce sync.Once
	envCap  int // the cap from EnvVar, 0 for none
	envErr  error

	startMu sync.Mutex
	pool    atomic.Pointer[[]*helper] // the helpers started, in order
)

func readEnv() {
	v := os.Getenv(EnvVar)
	if v == "" {
		return
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		envErr = fmt.Errorf("par: %s=%q is not a positive integer; ignored", EnvVar, v)
		return
	}
	envCap = n
}

// EnvError reports a malformed EnvVar (which is then ignored), or nil.
func EnvError() error {
	envOnce.Do(readEnv)
	return envErr
}

// Workers returns the number of goroutines a Run uses at most: the count set
// with SetWorkers, or else GOMAXPROCS capped by EnvVar, less the processors
// held by Reserve, and at least 1.
func Workers() int {
	if n := setting.Load(); n > 0 {
		return int(n)
	}
	envOnce.Do(readEnv)
	n := runtime.GOMAXPROCS(0)
	if envCap > 0 {
		n = min(n, envCap)
	}
	return max(n-int(reserved.Load()), 1)
}

// Reserve holds n processors for goroutines that run beside the pool's
// callers (a collector beside a learner) until release is called: the
// default worker count shrinks by n, so that a Run does not hand tasks to
// helpers that would wait for a processor those goroutines keep busy. A
// count set with SetWorkers is not changed. Results do not depend on it.
// Reserve panics if n < 0; calling release again does nothing.
func Reserve(n int) (release func()) {
	if n < 0 {
		panic("par: Reserve of a negative count")
	}
	reserved.Add(int32(n))
	var once sync.Once
	return func() { once.Do(func() { reserved.Add(-int32(n)) }) }
}

// SetWorkers sets the number of workers; n < 1 restores the default
// (GOMAXPROCS capped by EnvVar). The count may exceed GOMAXPROCS. Results do
// not depend on it.
func SetWorkers(n int) {
	setting.Store(int32(max(n, 0)))
}

// How long a Run's caller waits for its helpers' last tasks before it
// parks, and the bounds of how long a helper that ran tasks looks for the
// next Run before it parks: as long as its tasks took, within
// [spinHelperMin, spinHelperMax]. A parked goroutine's wake-up goes through
// the scheduler and, on an idle processor, the operating system, which on
// some virtual machines costs as much as a large task; a training step
// hands work over many times in a row with short gaps between. Tying the
// helper's wait to its work keeps the processor time it spends looking at
// most its useful time, so a step of small tasks does not pay for waits
// that a step of large ones earns back.
const (
	spinCaller    = time.Millisecond
	spinHelperMin = 20 * time.Microsecond
	spinHelperMax = time.Millisecond
)

// The states of a helper.
const (
	helperBusy   = iota // claimed by a Run, or running its tasks
	helperIdle          // looking for work (spinning)
	helperParked        // blocked on its wake channel
)

// helper is one helper goroutine: a Run claims it by moving its state to
// helperBusy, then hands it the job (and wakes it if it was parked).
type helper struct {
	state atomic.Int32
	slot  int // the worker slot of the job handed over, set before job
	job   atomic.Pointer[job]
	wake  chan struct{}
}

// job is one Run in progress. It returns to the free list when the caller
// and every helper claimed for it have left it.
type job struct {
	tasks   Tasks
	n       int
	blocks  []block      // one per worker slot of the Run
	done    atomic.Int64 // tasks finished
	refs    atomic.Int32 // the caller and the helpers claimed, until they leave
	waiting atomic.Int32 // 1 while the caller is parked, 2 once woken
	wake    chan struct{}
}

// block is the tasks lo to hi−1 of a job, claimed in order through next,
// the count claimed so far; padded to keep blocks' counters on separate
// cache lines.
type block struct {
	next   atomic.Int64
	lo, hi int
	_      [104]byte
}

var jobs Free[job]

// work claims and runs tasks until none is left, its own block's first,
// then the following blocks' in turn, and wakes the parked caller after
// the last one. A helper h is marked idle once it finds no task left, before
// it counts its last task as done: a caller that starts its next Run as
// soon as this one is done finds the helper free.
func (j *job) work(w int, h *helper) {
	k := 0
	i := j.claim(w, &k)
	if i < 0 && h != nil {
		h.state.Store(helperIdle)
	}
	for i >= 0 {
		j.tasks.Task(i, w)
		i = j.claim(w, &k)
		if i < 0 && h != nil {
			h.state.Store(helperIdle)
		}
		if int(j.done.Add(1)) == j.n && j.waiting.CompareAndSwap(1, 2) {
			j.wake <- struct{}{}
		}
	}
}

// cut divides j's n tasks into a block for each of slots worker slots.
func (j *job) cut(slots int) {
	if cap(j.blocks) < slots {
		j.blocks = make([]block, slots)
	}
	j.blocks = j.blocks[:slots]
	for b := range j.blocks {
		j.blocks[b].next.Store(0)
		j.blocks[b].lo, j.blocks[b].hi = b*j.n/slots, (b+1)*j.n/slots
	}
}

// claim returns the next task for worker slot w from block (w+*k) mod the
// blocks on, advancing *k past the blocks it finds empty, or −1 when every
// block is.
func (j *job) claim(w int, k *int) int {
	for ; *k < len(j.blocks); *k++ {
		b := &j.blocks[(w+*k)%len(j.blocks)]
		if i := b.lo + int(b.next.Add(1)) - 1; i < b.hi {
			return i
		}
	}
	return -1
}

// wait returns once every task has run: it spins for spinCaller, then
// parks until the last task's runner wakes it.
func (j *job) wait() {
	n := int64(j.n)
	start := time.Now()
	for i := 0; j.done.Load() != n; i++ {
		if i%16 == 15 && time.Since(start) > spinCaller {
			j.waiting.Store(1)
			if j.done.Load() == n && j.waiting.CompareAndSwap(1, 0) {
				return
			}
			<-j.wake // sent by the last task's runner (it saw waiting = 1)
			j.waiting.Store(0)
			return
		}
		runtime.Gosched()
	}
}

// leave drops one reference to j; the last one returns it to the free list.
func (j *job) leave() {
	if j.refs.Add(-1) == 0 {
		j.tasks = nil
		jobs.Put(j)
	}
}

func (h *helper) loop() {
	<-h.wake // started parked
	for {
		j := h.job.Load()
		for j == nil { // claimed, the job on its way
			runtime.Gosched()
			j = h.job.Load()
		}
		h.job.Store(nil)
		begin := time.Now()
		j.work(h.slot, h) // leaves h idle: a Run may claim it from here on
		j.leave()
		start := time.Now()
		spin := min(max(start.Sub(begin), spinHelperMin), spinHelperMax)
		for i := 0; h.state.Load() != helperBusy; i++ {
			if i%16 == 15 && time.Since(start) > spin {
				if h.state.CompareAndSwap(helperIdle, helperParked) {
					<-h.wake
				}
				break
			}
			runtime.Gosched()
		}
	}
}

// helpers returns the first n helpers, started on first use.
func helpers(n int) []*helper {
	if hs := pool.Load(); hs != nil && len(*hs) >= n {
		return (*hs)[:n]
	}
	startMu.Lock()
	defer startMu.Unlock()
	var hs []*helper
	if p := pool.Load(); p != nil {
		hs = *p
	}
	for len(hs) < n {
		h := &helper{wake: make(chan struct{}, 1)}
		h.state.Store(helperParked)
		go h.loop()
		hs = append(hs, h)
	}
	pool.Store(&hs)
	return hs[:n]
}

// Run runs tasks 0 to n−1 of t on at most w goroutines (Workers() for the
// default; worker slots stay below w) and returns when all have run. With one
// worker, or one task, they run in order on the calling goroutine. Run does
// not allocate once the pool has started. A panicking task crashes the
// program when a helper runs it: check inputs before Run.
//
// The caller claims helpers that are idle (the ones that ran tasks last
// first, which may still be spinning), runs tasks itself meanwhile, and
// returns once every task has run, without waiting for a helper that
// arrives after the last task was claimed.
func Run(n, w int, t Tasks) {
	if w <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			t.Task(i, 0)
		}
		return
	}
	handed.Add(1)
	slots := min(w, n)
	j := jobs.Get()
	if j.wake == nil {
		j.wake = make(chan struct{}, 1)
	}
	j.tasks, j.n = t, n
	j.cut(slots)
	j.done.Store(0)
	j.refs.Store(1)
	slot := 1
	for _, h := range helpers(w - 1) {
		if slot == slots {
			break
		}
		s := h.state.Load()
		if s == helperBusy || !h.state.CompareAndSwap(s, helperBusy) {
			continue
		}
		j.refs.Add(1)
		h.slot = slot
		slot++
		h.job.Store(j)
		if s == helperParked {
			h.wake <- struct{}{}
		}
	}
	j.work(0, nil)
	j.wait()
	j.leave()
}

// handed counts the Runs that offered tasks to helpers.
var handed atomic.Int64

// Handed returns the number of Runs so far that offered tasks to helpers
// (more than one task and more than one worker), whether or not a helper
// took any: a computation that must stay on its caller at any worker count
// can be checked with it.
func Handed() int64 { return handed.Load() }

// Chunks returns the number of chunks of at least grain elements (and at
// most limit chunks) into which n elements are cut, and the chunk length, a
// multiple of 16 except for the last chunk. The cut depends on n, grain and
// limit only.
func Chunks(n, grain, limit int) (count, size int) {
	if n <= 0 {
		return 0, 0
	}
	count = max(1, min(limit, n/max(grain, 1)))
	size = (n + count - 1) / count
	size = (size + 15) &^ 15
	count = (n + size - 1) / size
	return count, size
}

// Free is a list of reusable values, safe for concurrent use, for the task
// structures that Run's callers hand over. Unlike a sync.Pool it keeps its
// values across garbage collections and does not tie them to the processor
// that put them back: a goroutine that moved to another processor between
// Put and Get would get a new value from a sync.Pool, an allocation in a
// steady-state step.
type Free[T any] struct {
	mu    sync.Mutex
	items []*T
}

// Get returns a value from the list, or a new zero value when it is empty.
func (f *Free[T]) Get() *T {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.items); n > 0 {
		t := f.items[n-1]
		f.items = f.items[:n-1]
		return t
	}
	return new(T)
}

// Put returns t to the list.
func (f *Free[T]) Put(t *T) {
	f.mu.Lock()
	f.items = append(f.items, t)
	f.mu.Unlock()
}
