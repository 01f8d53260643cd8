package buffer_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// modelEntry is one transition of the naive model.
type modelEntry struct {
	index      int
	obs        int64
	rew        float64
	term, trun bool
}

// modelSub is the naive model of one ring: the stored transitions oldest
// first, and the episode statistics.
type modelSub struct {
	off, size, next int
	list            []modelEntry
	epRet           float64
	epLen, epStart  int
}

func (m *modelSub) push(e modelEntry) int {
	e.index = m.off + m.next
	m.next = (m.next + 1) % m.size
	m.list = append(m.list, e)
	if len(m.list) > m.size {
		m.list = m.list[1:]
	}
	return e.index
}

// add pushes a transition and returns the Step Add must report.
func (m *modelSub) add(e modelEntry) buffer.Step {
	idx := m.push(e)
	m.epRet += e.rew
	m.epLen++
	s := buffer.Step{Index: idx, EpisodeStart: m.off + m.epStart}
	if e.term || e.trun {
		s.EpisodeReturn, s.EpisodeLen = m.epRet, m.epLen
		m.epRet, m.epLen, m.epStart = 0, 0, m.next
	}
	return s
}

// end ends the episode in progress, as EndEpisode must: the newest
// transition becomes truncated unless it is done.
func (m *modelSub) end() {
	if n := len(m.list); n > 0 && !m.list[n-1].term && !m.list[n-1].trun {
		m.list[n-1].trun = true
	}
	m.epRet, m.epLen, m.epStart = 0, 0, m.next
}

// model is a naive buffer: one modelSub per sub-buffer.
type model struct {
	subs  []*modelSub
	stack int
}

func newModel(sizes []int, stack int) *model {
	m := &model{stack: stack}
	off := 0
	for _, s := range sizes {
		m.subs = append(m.subs, &modelSub{off: off, size: s})
		off += s
	}
	return m
}

// find returns the sub and position of a global index.
func (m *model) find(g int) (*modelSub, int) {
	for _, s := range m.subs {
		for k, e := range s.list {
			if e.index == g {
				return s, k
			}
		}
	}
	return nil, -1
}

func (m *model) prev(g int) int {
	s, k := m.find(g)
	if k == 0 || s.list[k-1].term || s.list[k-1].trun {
		return g
	}
	return s.list[k-1].index
}

func (m *model) next(g int) int {
	s, k := m.find(g)
	e := s.list[k]
	if e.term || e.trun || k == len(s.list)-1 {
		return g
	}
	return s.list[k+1].index
}

func (m *model) obs(g int) int64 {
	s, k := m.find(g)
	return s.list[k].obs
}

func (m *model) all() []int {
	out := []int{}
	for _, s := range m.subs {
		for _, e := range s.list {
			out = append(out, e.index)
		}
	}
	return out
}

// check compares a buffer with its model.
func (m *model) check(t *testing.T, name string, b buffer.Buffer, ignoreObsNext bool, rng *rand.Rand) {
	t.Helper()
	all := m.all()
	if got := b.SampleIndices(0, nil); !slices.Equal(got, all) {
		t.Fatalf("%s: SampleIndices(0) = %v, model %v", name, got, all)
	}
	if b.Len() != len(all) {
		t.Fatalf("%s: Len = %d, model %d", name, b.Len(), len(all))
	}
	var unfinished []int
	for _, s := range m.subs {
		if n := len(s.list); n > 0 && !s.list[n-1].term && !s.list[n-1].trun {
			unfinished = append(unfinished, s.list[n-1].index)
		}
	}
	if got := b.UnfinishedIndex(); !slices.Equal(got, unfinished) && !(len(got) == 0 && len(unfinished) == 0) {
		t.Fatalf("%s: UnfinishedIndex = %v, model %v", name, got, unfinished)
	}
	if len(all) == 0 {
		return
	}
	prev, next := make([]int, len(all)), make([]int, len(all))
	b.PrevTo(prev, all)
	b.NextTo(next, all)
	for k, g := range all {
		if prev[k] != m.prev(g) || next[k] != m.next(g) {
			t.Fatalf("%s: index %d: Prev %d Next %d, model %d %d", name, g, prev[k], next[k], m.prev(g), m.next(g))
		}
	}
	// A sample: every drawn index is stored, and its frames and obs_next
	// are the model's.
	dst := &batch.Batch{}
	idx := make([]int, 5)
	if err := b.SampleTo(dst, idx, rng); err != nil {
		t.Fatal(err)
	}
	obs, err := dst.Array("obs")
	if err != nil {
		t.Fatal(err)
	}
	obsNext, err := dst.Array("obs_next")
	if err != nil {
		t.Fatal(err)
	}
	frames := func(g int) []int64 {
		out := make([]int64, m.stack)
		for k := m.stack - 1; k >= 0; k-- {
			out[k] = m.obs(g)
			g = m.prev(g)
		}
		return out
	}
	for k, g := range idx {
		if _, p := m.find(g); p < 0 {
			t.Fatalf("%s: drew index %d, not stored", name, g)
		}
		wantNext := m.obs(g) + 1000 // stored obs_next
		if ignoreObsNext {
			wantNext = m.obs(m.next(g))
		}
		var gotObs, gotNext []int64
		if m.stack > 1 {
			gotObs = nd.ToSlice[int64](obs.Index(nd.I(k)))
			gotNext = nd.ToSlice[int64](obsNext.Index(nd.I(k)))
			wantStack := frames(g)
			if !slices.Equal(gotObs, wantStack) {
				t.Fatalf("%s: frames of %d = %v, model %v", name, g, gotObs, wantStack)
			}
			if ignoreObsNext {
				if w := frames(m.next(g)); !slices.Equal(gotNext, w) {
					t.Fatalf("%s: obs_next frames of %d = %v, model %v", name, g, gotNext, w)
				}
			}
			continue
		}
		if o := obs.At(k).(int64); o != m.obs(g) {
			t.Fatalf("%s: obs of %d = %d, model %d", name, g, o, m.obs(g))
		}
		if o := obsNext.At(k).(int64); o != wantNext {
			t.Fatalf("%s: obs_next of %d = %d, model %d", name, g, o, wantNext)
		}
	}
}

// FuzzReplayOps runs random sequences of Add (Replay and Vector, with
// buffer ids), Update, Reset, EndEpisode and sampling against the naive
// model.
func FuzzReplayOps(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{7, 3, 2, 1, 0x11, 0x22, 0x33, 0x44, 0x52, 0x61, 0x70, 0x83, 0x90, 0xa1, 0x02, 0x14, 0x25, 0x36})
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 0x40, 0x20, 0x30, 0x20, 0x40})
	f.Add([]byte{4, 2, 1, 0, 0x01, 0x02, 0x60, 0xc7, 0x61, 0x03, 0x62, 0x65, 0x04, 0xc1, 0xe0, 0x05, 0xe0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) < 4 {
			t.Skip()
		}
		size := 1 + int(ops[0]%8)
		num := 1 + int(ops[1]%3)
		stack := 1 + int(ops[2]%3)
		ignore := ops[3]&1 == 1
		cfg := buffer.Config{Size: size, StackNum: stack, IgnoreObsNext: ignore}
		a := mustReplay(t, cfg)
		src := mustReplay(t, buffer.Config{Size: 1 + int(ops[3]>>1)%6})
		v, err := buffer.NewVector(buffer.Config{Size: size * num, StackNum: stack, IgnoreObsNext: ignore}, num)
		if err != nil {
			t.Fatal(err)
		}
		ma, msrc := newModel([]int{size}, stack), newModel([]int{src.Cap()}, 1)
		sizes := make([]int, num)
		for i := range sizes {
			sizes[i] = size
		}
		mv := newModel(sizes, stack)
		rng := rand.New(rand.NewPCG(uint64(len(ops)), 1))
		counter := int64(0)
		entry := func(op byte) modelEntry {
			counter++
			return modelEntry{obs: counter, rew: float64(op & 3), term: op&4 != 0, trun: op&8 != 0}
		}
		stepOf := func(e modelEntry) *batch.Batch {
			return batch.MustNew("obs", e.obs, "act", e.obs, "rew", e.rew, "terminated", e.term, "truncated", e.trun, "obs_next", e.obs+1000)
		}
		for _, op := range ops[4:] {
			switch op >> 5 {
			case 0, 1: // Add to a
				e := entry(op)
				want := ma.subs[0].add(e)
				got, err := a.Add(stepOf(e), nil, nil)
				if err != nil || len(got) != 1 || got[0] != want {
					t.Fatalf("a.Add: %+v %v, model %+v", got, err, want)
				}
			case 2: // Add to src
				e := entry(op)
				msrc.subs[0].add(e)
				mustAdd(t, src, stepOf(e), nil)
			case 3, 4: // Add rows to v for some ids (duplicates allowed)
				n := 1 + int(op&3)
				var ids []int
				var rows []*batch.Batch
				var want []buffer.Step
				for k := range n {
					id := (int(op>>2) + k*k) % num
					e := entry(op + byte(k)*5)
					ids = append(ids, id)
					rows = append(rows, stepOf(e))
					want = append(want, mv.subs[id].add(e))
				}
				data, err := batch.Stack(0, rows...)
				if err != nil {
					t.Fatal(err)
				}
				got, err := v.Add(data, ids, nil)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("v.Add(%v): %+v %v, model %+v", ids, got, err, want)
				}
			case 5: // a.Update(src)
				to, err := a.Update(src)
				if err != nil {
					t.Fatal(err)
				}
				var want []int
				for _, e := range msrc.subs[0].list {
					want = append(want, ma.subs[0].push(e))
				}
				if len(to) != len(want) || len(want) > 0 && !slices.Equal(to, want) {
					t.Fatalf("Update returned %v, model %v", to, want)
				}
			case 6:
				if op&1 == 0 { // Reset src
					src.Reset()
					msrc = newModel([]int{src.Cap()}, 1)
					continue
				}
				// End the episodes of a and of some of v's sub-buffers.
				a.EndEpisode([]int{0})
				ma.subs[0].end()
				var ids []int
				for id := range num {
					if op>>(1+id)&1 == 1 {
						ids = append(ids, id)
						mv.subs[id].end()
					}
				}
				v.EndEpisode(ids)
			case 7: // check everything
				ma.check(t, "a", a, ignore, rng)
				mv.check(t, "v", v, ignore, rng)
				msrc.check(t, "src", src, false, rng)
			}
		}
		ma.check(t, "a", a, ignore, rng)
		mv.check(t, "v", v, ignore, rng)
	})
}
