package distributed_test

import (
	"context"
	"testing"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
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
