package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

// record counts the runs of each task and checks the worker slots.
type record struct {
	t     *testing.T
	w     int
	runs  []atomic.Int32
	busy  []atomic.Int32 // goroutines on each slot
	inner int            // tasks of a nested Run per task, 0 for none
	sub   []*record
}

func newRecord(t *testing.T, n, w, inner int) *record {
	r := &record{t: t, w: w, runs: make([]atomic.Int32, n), busy: make([]atomic.Int32, w), inner: inner}
	if inner > 0 {
		r.sub = make([]*record, n)
		for i := range r.sub {
			r.sub[i] = newRecord(t, inner, w, 0)
		}
	}
	return r
}

func (r *record) Task(i, w int) {
	if w < 0 || w >= r.w {
		r.t.Errorf("task %d on slot %d, want below %d", i, w, r.w)
		return
	}
	if r.busy[w].Add(1) != 1 {
		r.t.Errorf("slot %d used by two goroutines at once", w)
	}
	r.runs[i].Add(1)
	if r.inner > 0 {
		Run(r.inner, r.w, r.sub[i])
	}
	for j := 0; j < 100; j++ { // give other goroutines a chance to overlap
		runtime.Gosched()
	}
	r.busy[w].Add(-1)
}

func (r *record) check(name string) {
	for i := range r.runs {
		if got := r.runs[i].Load(); got != 1 {
			r.t.Errorf("%s: task %d ran %d times, want 1", name, i, got)
		}
	}
	for _, s := range r.sub {
		s.check(name + " (nested)")
	}
}

func TestRunEachTaskOnce(t *testing.T) {
	for _, c := range []struct {
		name        string
		n, w, inner int
	}{
		{"no tasks", 0, 4, 0},
		{"one task", 1, 4, 0},
		{"one worker", 9, 1, 0},
		{"fewer tasks than workers", 3, 8, 0},
		{"more tasks than workers", 37, 3, 0},
		{"nested", 6, 3, 5},
	} {
		r := newRecord(t, c.n, c.w, c.inner)
		Run(c.n, c.w, r)
		r.check(c.name)
	}
}

func TestRunConcurrentCallers(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := 0; rep < 20; rep++ {
				r := newRecord(t, 11, 3, 0)
				Run(11, 3, r)
				r.check("concurrent")
			}
		}()
	}
	wg.Wait()
}

// TestClaimOrder: a worker takes its own block's tasks in order, then the
// following blocks' (wrapping around), from where the others left them.
func TestClaimOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		n      int
		slots  int
		claims []int // the slot of each claim, in turn
		want   []int // the task each gets, −1 for none
	}{
		// Blocks [0,3) [3,6) [6,10).
		{"slot 0 alone", 10, 3, []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1}},
		{"slot 1 alone", 10, 3, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []int{3, 4, 5, 6, 7, 8, 9, 0, 1, 2, -1}},
		{"slot 2 alone", 10, 3, []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, []int{6, 7, 8, 9, 0, 1, 2, 3, 4, 5, -1}},
		{"slot 0 takes over block 1", 10, 3, []int{1, 0, 0, 0, 0, 1, 0}, []int{3, 0, 1, 2, 4, 5, 6}},
		// Blocks [0,2) [2,5).
		{"two slots", 5, 2, []int{1, 0, 1, 0, 0, 1, 0}, []int{2, 0, 3, 1, 4, -1, -1}},
	} {
		j := &job{n: c.n}
		j.cut(c.slots)
		k := make([]int, c.slots)
		for s, w := range c.claims {
			if got := j.claim(w, &k[w]); got != c.want[s] {
				t.Errorf("%s: claim %d (slot %d) = %d, want %d", c.name, s, w, got, c.want[s])
			}
		}
	}
}

func TestChunks(t *testing.T) {
	// Expected values worked out by hand from the rule: count = n/grain
	// capped by limit (at least 1), then the length rounded up to 16.
	for _, c := range []struct {
		n, grain, limit int
		count, size     int
	}{
		{0, 16, 4, 0, 0},
		{10, 16, 4, 1, 16},
		{100, 16, 4, 4, 32},     // 25 rounded up to 32: 4 chunks
		{1000, 100, 64, 9, 112}, // 100 rounded up to 112 leaves 9 chunks
		{1 << 20, 1 << 16, 64, 16, 1 << 16},
		{1 << 20, 1 << 16, 8, 8, 1 << 17},
		{50, 0, 100, 4, 16}, // grain < 1 counts as 1; 50 → 4 chunks of 16
	} {
		count, size := Chunks(c.n, c.grain, c.limit)
		if count != c.count || size != c.size {
			t.Errorf("Chunks(%d, %d, %d) = %d, %d; want %d, %d", c.n, c.grain, c.limit, count, size, c.count, c.size)
		}
		if c.n > 0 && (count-1)*size >= c.n || count*size < c.n {
			t.Errorf("Chunks(%d, %d, %d): %d chunks of %d do not cover exactly", c.n, c.grain, c.limit, count, size)
		}
	}
}

func TestWorkers(t *testing.T) {
	defer SetWorkers(0)
	SetWorkers(5)
	if got := Workers(); got != 5 {
		t.Errorf("after SetWorkers(5): Workers() = %d", got)
	}
	SetWorkers(0)
	want := runtime.GOMAXPROCS(0)
	if envCap > 0 {
		want = min(want, envCap)
	}
	if got := Workers(); got != want {
		t.Errorf("default Workers() = %d, want %d", got, want)
	}
}

func TestReadEnv(t *testing.T) {
	for _, c := range []struct {
		val    string
		cap    int
		hasErr bool
	}{
		{"", 0, false},
		{"3", 3, false},
		{"0", 0, true},
		{"x", 0, true},
	} {
		t.Setenv(EnvVar, c.val)
		envCap, envErr = 0, nil
		readEnv()
		if envCap != c.cap || (envErr != nil) != c.hasErr {
			t.Errorf("%s=%q: cap %d, error %v; want %d, error %t", EnvVar, c.val, envCap, envErr, c.cap, c.hasErr)
		}
	}
	envCap, envErr = 0, nil
}

type nop struct{}

func (nop) Task(int, int) {}

func TestRunDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	var tk nop
	Run(8, 2, &tk)
	if a := testing.AllocsPerRun(100, func() { Run(8, 2, &tk) }); a != 0 {
		t.Errorf("Run allocates %v times per call", a)
	}
}

// BenchmarkRun measures the hand-off of 2 and 8 empty tasks.
func BenchmarkRun(b *testing.B) {
	var tk nop
	for _, n := range []int{2, 8} {
		b.Run("tasks="+string(rune('0'+n)), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Run(n, Workers(), &tk)
			}
		})
	}
}

// spin is a task of fixed CPU work (about a microsecond per unit on
// current x86 cores), kept from being optimized away.
type spin struct {
	units int
	sink  [64]float64 // one cache line per worker slot, 8 slots
}

func (s *spin) Task(i, w int) {
	x := float64(i + 1)
	for j := 0; j < s.units*300; j++ {
		x = x*0.999999 + 1e-9
	}
	s.sink[(w%8)*8] = x
}

// BenchmarkRunPhases measures what a training step's pattern costs: 20
// Runs in a row, each of 16 tasks of 6,000 dependent multiply-adds, so that the
// hand-off and wake-up between phases shows against the work; run it with
// -cpu 1,2,4,8,16 and compare with the one-worker time.
func BenchmarkRunPhases(b *testing.B) {
	s := &spin{units: 20}
	cpu := cputime.Start(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for p := 0; p < 20; p++ {
			Run(16, Workers(), s)
		}
	}
	cpu.Report()
}

// TestReserve: Reserve shrinks the default worker count by the processors
// it holds, never below 1, leaves a SetWorkers count alone, and release
// gives them back once however often it is called.
func TestReserve(t *testing.T) {
	defer SetWorkers(0)
	base := Workers()
	for _, c := range []struct {
		set, reserve, want int
	}{
		{0, 0, base},
		{0, 1, max(base-1, 1)},
		{0, base + 3, 1},
		{3, 1, 3}, // an explicit count is kept
	} {
		SetWorkers(c.set)
		release := Reserve(c.reserve)
		if got := Workers(); got != c.want {
			t.Errorf("SetWorkers(%d), Reserve(%d): Workers() = %d, want %d", c.set, c.reserve, got, c.want)
		}
		release()
		release()
		SetWorkers(0)
		if got := Workers(); got != base {
			t.Errorf("after release of Reserve(%d): Workers() = %d, want %d", c.reserve, got, base)
		}
	}
}
