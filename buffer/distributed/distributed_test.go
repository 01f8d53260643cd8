package distributed_test

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/nd"
)

const beat = 50 * time.Millisecond

func transport(t testing.TB) cluster.Transport {
	t.Helper()
	n, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n.Transport()
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

// rows returns n transitions whose obs (and act) are first, first+1, ….
func rows(first, n int) *batch.Batch {
	obs := make([]float32, n)
	act := make([]int64, n)
	rew := make([]float64, n)
	flags := make([]bool, n)
	for i := range n {
		obs[i] = float32(first + i)
		act[i] = int64(first + i)
	}
	return batch.MustNew("obs", obs, "act", act, "rew", rew, "terminated", flags, "truncated", flags, "obs_next", obs)
}

func replay(t testing.TB, size int) *buffer.Replay {
	b, err := buffer.New(buffer.Config{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func column(t testing.TB, b *batch.Batch, key string) []float64 {
	t.Helper()
	a, err := b.Array(key)
	if err != nil {
		t.Fatal(err)
	}
	f, err := a.AsType(nd.Float64)
	if err != nil {
		t.Fatal(err)
	}
	return nd.ToSlice[float64](f)
}

// TestThreeMembersSampleEachOther: members a, b, c hold 100, 200 and 300
// transitions (obs in [0,100), [1000,1200), [2000,2300)); every member's
// samples come from all three in proportion to their sizes (chi-squared,
// fixed seed), whole rows (act = obs) and from the right ranges.
func TestThreeMembersSampleEachOther(t *testing.T) {
	tr := transport(t)
	sizes := []int{100, 200, 300}
	names := []string{"a", "b", "c"}
	var ms []*distributed.Buffer
	for i, name := range names {
		m, err := distributed.New(tr, distributed.Config{Group: "g", Member: name, Heartbeat: beat}, replay(t, 1000))
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if err := m.Add(rows(1000*i, sizes[i])); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	for _, m := range ms {
		waitFor(t, "members to hear each other", func() bool { return m.Len() == 600 })
		if got := m.Members(); !slices.Equal(got, names) {
			t.Fatalf("Members() = %v, want %v", got, names)
		}
	}
	rng := testrand.New(t, 3)
	for mi, m := range ms {
		counts := make([]float64, 3)
		const draws, per = 60, 100
		for range draws {
			s, err := m.Sample(ctx(t), per, rng)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Missing) > 0 {
				t.Fatalf("missing %v", s.Missing)
			}
			obs, act := column(t, s.Batch, "obs"), column(t, s.Batch, "act")
			if len(obs) != per {
				t.Fatalf("sample of %d rows, want %d", len(obs), per)
			}
			for k, o := range obs {
				if act[k] != o {
					t.Fatalf("row %d: act %v ≠ obs %v: rows were mixed", k, act[k], o)
				}
				src := int(o) / 1000
				if src > 2 || int(o)%1000 >= sizes[src] {
					t.Fatalf("obs %v is no stored transition", o)
				}
				counts[src]++
			}
		}
		chi2 := 0.0
		for i, c := range counts {
			e := float64(draws*per) * float64(sizes[i]) / 600
			chi2 += (c - e) * (c - e) / e
		}
		if crit := (distuv.ChiSquared{K: 2}).Quantile(0.999); chi2 > crit {
			t.Errorf("member %s: chi² = %.2f > %.2f: counts %v, expected ∝ %v", names[mi], chi2, crit, counts, sizes)
		}
	}
}

// TestPrioritizedAcrossShards: three shards of 4 transitions with
// priorities 1…12; each transition is drawn with probability
// (pᵢ+ε)^α / Σ (chi-squared, 11 df, fixed seed), and its weight is
// ((pᵢ+ε)/(p_min+ε))^(−αβ) with p_min = 1 the global minimum (shard a's),
// not its own shard's.
func TestPrioritizedAcrossShards(t *testing.T) {
	const alpha, beta = 0.6, 0.4
	const eps = 1.0 / (1 << 23)
	tr := transport(t)
	var learner *distributed.Prioritized
	for i, name := range []string{"a", "b", "c"} {
		local, err := buffer.NewPrioritized(buffer.Config{Size: 4}, buffer.PriorityConfig{Alpha: alpha, Beta: beta})
		if err != nil {
			t.Fatal(err)
		}
		m, err := distributed.NewPrioritized(tr, distributed.Config{Group: "p", Member: name, Heartbeat: beat}, local, beta)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		prios := []float64{float64(4*i + 1), float64(4*i + 2), float64(4*i + 3), float64(4*i + 4)}
		if _, err := m.Add(rows(1000*i, 4), prios); err != nil {
			t.Fatal(err)
		}
	}
	learner, err := distributed.NewPrioritized(tr, distributed.Config{Group: "p", Member: "learner", Heartbeat: beat}, nil, beta)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()
	waitFor(t, "the learner to hear the shards", func() bool { return learner.Len() == 12 })

	want := map[int]float64{}
	total := 0.0
	for i := range 3 {
		for k := range 4 {
			p := math.Pow(float64(4*i+k+1)+eps, alpha)
			want[1000*i+k] = p
			total += p
		}
	}
	minLeaf := math.Pow(1+eps, alpha)
	counts := map[int]float64{}
	rng := testrand.New(t, 5)
	const draws, per = 200, 100
	for range draws {
		s, err := learner.Sample(ctx(t), per, rng)
		if err != nil {
			t.Fatal(err)
		}
		obs, w := column(t, s.Batch, "obs"), column(t, s.Batch, batch.KeyWeight)
		if len(s.Handles) != per {
			t.Fatalf("%d handles for %d rows", len(s.Handles), per)
		}
		for k, o := range obs {
			counts[int(o)]++
			wantW := math.Pow(want[int(o)]/minLeaf, -beta)
			if math.Abs(w[k]-wantW) > 1e-6 {
				t.Fatalf("obs %v: weight %v, want %v (global minimum)", o, w[k], wantW)
			}
			if h := s.Handles[k]; h.Member != string(rune('a'+int(o)/1000)) || h.Index != int(o)%1000 {
				t.Fatalf("obs %v has handle %+v", o, h)
			}
		}
	}
	chi2 := 0.0
	for o, p := range want {
		e := draws * per * p / total
		chi2 += (counts[o] - e) * (counts[o] - e) / e
	}
	if crit := (distuv.ChiSquared{K: 11}).Quantile(0.999); chi2 > crit {
		t.Errorf("chi² = %.2f > %.2f: counts %v, expected ∝ %v", chi2, crit, counts, want)
	}
}

// TestStaleHandleIsDropped: a priority update for a slot overwritten since
// it was sampled leaves the new transition's priority alone; one for a
// slot still holding its transition is applied.
func TestStaleHandleIsDropped(t *testing.T) {
	const alpha = 1.0
	tr := transport(t)
	local, err := buffer.NewPrioritized(buffer.Config{Size: 2}, buffer.PriorityConfig{Alpha: alpha, Beta: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	actor, err := distributed.NewPrioritized(tr, distributed.Config{Group: "s", Member: "actor", Heartbeat: beat}, local, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	defer actor.Close()
	learner, err := distributed.NewPrioritized(tr, distributed.Config{Group: "s", Member: "learner", Heartbeat: beat}, nil, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()
	if _, err := actor.Add(rows(0, 2), []float64{1, 1}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the learner to hear the actor", func() bool { return learner.Len() == 2 })
	s, err := learner.Sample(ctx(t), 8, testrand.New(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	// Overwrite slot 0 (the ring holds 2) with a transition of priority 5.
	if _, err := actor.Add(rows(100, 1), []float64{5}); err != nil {
		t.Fatal(err)
	}
	prios := make([]float64, len(s.Handles))
	for k := range prios {
		prios[k] = 50
	}
	if err := learner.UpdatePriority(s.Handles, prios); err != nil {
		t.Fatal(err)
	}
	// With α = 1 and β = 0.4, slot 1 updated to 50 and slot 0 keeping the
	// new transition's 5, the weights are 1 for obs 100 (the minimum) and
	// ((50+ε)/(5+ε))^(−0.4) for obs 1; had the stale update been applied,
	// both would be 1.
	eps := 1.0 / (1 << 23)
	wantObs1 := math.Pow((50+eps)/(5+eps), -0.4)
	weights := map[float64]float64{}
	waitFor(t, "the update to arrive", func() bool {
		s, err := learner.Sample(ctx(t), 16, testrand.New(t, 9))
		if err != nil {
			t.Fatal(err)
		}
		obs, w := column(t, s.Batch, "obs"), column(t, s.Batch, batch.KeyWeight)
		for k, o := range obs {
			weights[o] = w[k]
		}
		return math.Abs(weights[1]-wantObs1) < 1e-6
	})
	time.Sleep(3 * beat)
	s, err = learner.Sample(ctx(t), 64, testrand.New(t, 10))
	if err != nil {
		t.Fatal(err)
	}
	obs, w := column(t, s.Batch, "obs"), column(t, s.Batch, batch.KeyWeight)
	for k, o := range obs {
		want := map[float64]float64{1: wantObs1, 100: 1}[o]
		if math.Abs(w[k]-want) > 1e-6 {
			t.Errorf("obs %v: weight %v, want %v (the stale update to slot 0 must be dropped)", o, w[k], want)
		}
	}
}

// TestMissingMemberDoesNotBlock: a member that announces itself but never
// answers is reported missing after the deadline, and the sample is drawn
// from the others.
func TestMissingMemberDoesNotBlock(t *testing.T) {
	tr := transport(t)
	good, err := distributed.New(tr, distributed.Config{Group: "d", Member: "good", Heartbeat: beat}, replay(t, 100))
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	if err := good.Add(rows(0, 50)); err != nil {
		t.Fatal(err)
	}
	// The silent member: serves its subject without replying and
	// announces a large shard.
	stop, err := tr.Serve("gorl.d.buf.silent.sample", func([]byte, func([]byte) error) {})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// The announcement: not leaving, size 1000, sum 1000, min 1, name.
	hb := []byte{0}
	hb = binary.LittleEndian.AppendUint64(hb, 1000)
	hb = binary.LittleEndian.AppendUint64(hb, math.Float64bits(1000))
	hb = binary.LittleEndian.AppendUint64(hb, math.Float64bits(1))
	hb = append(hb, "silent"...)
	learner, err := distributed.New(tr, distributed.Config{Group: "d", Member: "learner", Heartbeat: beat, Deadline: 200 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()
	waitFor(t, "both members", func() bool {
		tr.Publish("gorl.d.buf.hb", hb)
		return len(learner.Members()) == 2
	})
	start := time.Now()
	s, err := learner.Sample(ctx(t), 64, testrand.New(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("sample took %v with a 200 ms deadline", el)
	}
	if !slices.Equal(s.Missing, []string{"silent"}) {
		t.Errorf("Missing = %v, want [silent]", s.Missing)
	}
	if n, _ := s.Batch.Len(); n != 64 {
		t.Errorf("sample of %d rows, want 64 from the member that answered", n)
	}
}

func TestJoinAndLeave(t *testing.T) {
	tr := transport(t)
	learner, err := distributed.New(tr, distributed.Config{Group: "j", Member: "learner", Heartbeat: beat}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()
	if _, err := learner.Sample(ctx(t), 4, testrand.New(t, 1)); !errors.Is(err, distributed.ErrDistributed) {
		t.Fatalf("sampling an empty group: %v, want ErrDistributed", err)
	}
	a, err := distributed.New(tr, distributed.Config{Group: "j", Member: "a", Heartbeat: beat}, replay(t, 10))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Add(rows(0, 3)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a to join", func() bool { return learner.Len() == 3 })
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a to leave", func() bool { return learner.Len() == 0 })
}

func TestBadConfig(t *testing.T) {
	tr := transport(t)
	for _, cfg := range []distributed.Config{{Member: "a"}, {Group: "g"}, {Group: "g.x", Member: "a"}, {Group: "g", Member: "a b"}} {
		if _, err := distributed.New(tr, cfg, nil); !errors.Is(err, distributed.ErrDistributed) {
			t.Errorf("config %+v: %v, want ErrDistributed", cfg, err)
		}
	}
	p, _ := buffer.NewPrioritized(buffer.Config{Size: 2}, buffer.DefaultPriorityConfig())
	if _, err := distributed.New(tr, distributed.Config{Group: "g", Member: "a"}, p); err == nil {
		t.Error("a prioritized shard in a plain buffer was accepted")
	}
	v, _ := buffer.NewVector(buffer.Config{Size: 4}, 2)
	if _, err := distributed.New(tr, distributed.Config{Group: "g", Member: "a"}, v); err == nil {
		t.Error("a shard of 2 sub-buffers was accepted")
	}
}
