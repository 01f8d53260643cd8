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
package par

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
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
	setting atomic.Int32 // workers set by SetWorkers, 0 for the default

	envOnce sync.Once
	envCap  int // the cap from EnvVar, 0 for none
	envErr  error

	startMu sync.Mutex
	started int // helper goroutines started
	handoff = make(chan *job)
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
// with SetWorkers, or else GOMAXPROCS capped by EnvVar.
func Workers() int {
	if n := setting.Load(); n > 0 {
		return int(n)
	}
	envOnce.Do(readEnv)
	n := runtime.GOMAXPROCS(0)
	if envCap > 0 {
		n = min(n, envCap)
	}
	return n
}

// SetWorkers sets the number of workers; n < 1 restores the default
// (GOMAXPROCS capped by EnvVar). The count may exceed GOMAXPROCS. Results do
// not depend on it.
func SetWorkers(n int) {
	setting.Store(int32(max(n, 0)))
}

// job is one Run in progress.
type job struct {
	tasks Tasks
	n     int
	next  atomic.Int64 // the next task to claim
	slot  atomic.Int64 // the next worker slot to hand out
	wg    sync.WaitGroup
}

var jobs Free[job]

// work claims and runs tasks until none is left.
func (j *job) work(w int) {
	for {
		i := int(j.next.Add(1)) - 1
		if i >= j.n {
			return
		}
		j.tasks.Task(i, w)
	}
}

func helper() {
	for j := range handoff {
		j.work(int(j.slot.Add(1)) - 1)
		j.wg.Done()
	}
}

// ensure starts helper goroutines up to n.
func ensure(n int) {
	startMu.Lock()
	for ; started < n; started++ {
		go helper()
	}
	startMu.Unlock()
}

// Run runs tasks 0 to n−1 of t on at most w goroutines (Workers() for the
// default; worker slots stay below w) and returns when all have run. With one
// worker, or one task, they run in order on the calling goroutine. Run does
// not allocate once the pool has started. A panicking task crashes the
// program when a helper runs it: check inputs before Run.
func Run(n, w int, t Tasks) {
	if w <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			t.Task(i, 0)
		}
		return
	}
	helpers := min(w, n) - 1
	ensure(w - 1)
	j := jobs.Get()
	j.tasks, j.n = t, n
	j.next.Store(0)
	j.slot.Store(1)
	for h := 0; h < helpers; h++ {
		j.wg.Add(1)
		select {
		case handoff <- j:
		default: // no helper idle: the caller runs what is left
			j.wg.Done()
			h = helpers
		}
	}
	j.work(0)
	j.wg.Wait()
	j.tasks = nil
	jobs.Put(j)
}

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
