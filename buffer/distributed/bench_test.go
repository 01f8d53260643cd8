package distributed_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/internal/testrand"
)

// BenchmarkSample64 samples 64 prioritized transitions from 3 members in
// one process (one embedded server), through the learner that holds none.
func BenchmarkSample64(b *testing.B) {
	tr := transport(b)
	for i, name := range []string{"a", "b", "c"} {
		local, err := buffer.NewPrioritized(buffer.Config{Size: 10_000}, buffer.DefaultPriorityConfig())
		if err != nil {
			b.Fatal(err)
		}
		m, err := distributed.NewPrioritized(tr, distributed.Config{Group: "bench", Member: name, Heartbeat: beat}, local, 0.4)
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		if _, err := m.Add(rows(10_000*i, 10_000), nil); err != nil {
			b.Fatal(err)
		}
	}
	learner, err := distributed.NewPrioritized(tr, distributed.Config{Group: "bench", Member: "learner", Heartbeat: beat}, nil, 0.4)
	if err != nil {
		b.Fatal(err)
	}
	defer learner.Close()
	waitFor(b, "the members", func() bool { return learner.Len() == 30_000 })
	rng := testrand.New(b, 1)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := learner.Sample(ctx, 64, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIngest measures transitions into a learner with 1, 2 and 4
// actors in one process (one embedded server): each actor adds a batch of
// 16 CartPole-sized transitions to its shard every millisecond (free
// running actors would take every core from the learner) while the
// learner samples 256 at a time from all shards; one op is one learner
// sample. It reports the learner's intake (sampled transitions/s) and the
// actors' adds (added transitions/s) over the same time; the allocations
// are the whole process's, the actors' adds included. With journal=true
// the adds go through a JetStream stream in memory on the embedded server
// (Config.Journal) and acked/s counts the acknowledged ones.
func BenchmarkIngest(b *testing.B) {
	for _, journal := range []bool{false, true} {
		for _, actors := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("journal=%v/actors=%d", journal, actors), func(b *testing.B) { benchIngest(b, actors, journal) })
		}
	}
}

func benchIngest(b *testing.B, actors int, journal bool) {
	node, err := cluster.Start(cluster.Options{JetStream: journal, StoreDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer node.Close()
	tr := node.Transport()
	var cfg distributed.Config
	var acked atomic.Int64
	if journal {
		st, err := cluster.OpenStream(node, cluster.StreamConfig{Name: "ingest", Subjects: distributed.JournalSubjects("ingest"), Memory: true, MaxMsgsPerSubject: 10_000})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		cfg.Journal = st
		cfg.Acked = func(d *batch.Batch, err error) {
			if err == nil {
				n, _ := d.Len()
				acked.Add(int64(n))
			}
		}
	}
	var added atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range actors {
		c := cfg
		c.Group, c.Member, c.Heartbeat = "ingest", fmt.Sprint("actor", i), beat
		m, err := distributed.New(tr, c, replay(b, 100_000))
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		if err := m.Add(cartPoleRows(0, 256)); err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows := cartPoleRows(0, 16)
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				if m.Add(rows) == nil {
					added.Add(16)
				}
			}
		}()
	}
	defer wg.Wait()
	defer close(stop)
	learner, err := distributed.New(tr, distributed.Config{Group: "ingest", Member: "learner", Heartbeat: beat}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer learner.Close()
	waitFor(b, "the actors", func() bool { return len(learner.Members()) == actors && learner.Len() >= 256*actors })
	rng := testrand.New(b, 1)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	start, before, ackedBefore := time.Now(), added.Load(), acked.Load()
	sampled, failed := 0, 0
	for i := 0; i < b.N; i++ {
		s, err := learner.Sample(ctx, 256, rng)
		if err != nil {
			// On a loaded machine a member may miss its heartbeats and
			// drop out of the learner's table until the next one.
			failed++
			waitFor(b, "the actors", func() bool { return len(learner.Members()) == actors })
			continue
		}
		n, _ := s.Batch.Len()
		sampled += n
	}
	sec := time.Since(start).Seconds()
	b.StopTimer()
	b.ReportMetric(float64(sampled)/sec, "sampled/s")
	b.ReportMetric(float64(added.Load()-before)/sec, "added/s")
	if journal {
		b.ReportMetric(float64(acked.Load()-ackedBefore)/sec, "acked/s")
	}
	if failed > 0 {
		b.Logf("%d of %d samples found no live member", failed, b.N)
	}
}

// cartPoleRows returns n transitions shaped as CartPole's: obs and
// obs_next [n, 4] float32, act int64, rew float64, flags.
func cartPoleRows(first, n int) *batch.Batch {
	obs := make([][]float32, n)
	act := make([]int64, n)
	rew := make([]float64, n)
	flags := make([]bool, n)
	for i := range n {
		x := float32(first + i)
		obs[i] = []float32{x, x, x, x}
		act[i] = int64(i % 2)
		rew[i] = 1
	}
	return batch.MustNew("obs", obs, "act", act, "rew", rew, "terminated", flags, "truncated", flags, "obs_next", obs)
}

// BenchmarkAdd measures one actor adding batches of 16 CartPole-sized
// transitions as fast as it can, to its shard or through a JetStream
// stream in memory on the embedded server; the journal case waits at the
// end until every add is acknowledged, so it times acknowledged adds. One
// op is one Add; adds refused by back-pressure are tried again.
func BenchmarkAdd(b *testing.B) {
	for _, journal := range []bool{false, true} {
		b.Run(fmt.Sprintf("journal=%v", journal), func(b *testing.B) {
			node, err := cluster.Start(cluster.Options{JetStream: journal, StoreDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer node.Close()
			cfg := distributed.Config{Group: "add", Member: "actor", Heartbeat: beat}
			var st *cluster.Stream
			if journal {
				st, err = cluster.OpenStream(node, cluster.StreamConfig{Name: "add", Subjects: distributed.JournalSubjects("add"), Memory: true, MaxMsgsPerSubject: 10_000})
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				cfg.Journal = st
			}
			m, err := distributed.New(node.Transport(), cfg, replay(b, 100_000))
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			rows := cartPoleRows(0, 16)
			refused := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for m.Add(rows) != nil {
					refused++
					time.Sleep(100 * time.Microsecond)
				}
			}
			if st != nil {
				c, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				if err := st.Wait(c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(16*b.N)/b.Elapsed().Seconds(), "transitions/s")
			if refused > 0 {
				b.Logf("%d adds refused by back-pressure and tried again", refused)
			}
		})
	}
}
