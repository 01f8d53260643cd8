package gymbridge_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// benchTransports are the pipes, the shared region with the default spin,
// and the shared region with no spinning (each wait sleeps on the pipe).
var benchTransports = []struct {
	name   string
	shared bool
	spin   time.Duration
}{{"pipe", false, 0}, {"shm", true, 0}, {"shm-nospin", true, -1}}

// BenchmarkStep measures a step of testdata/faulty.py's Null env, whose
// own step costs next to nothing, so the time is the bridge's round trip:
// with a CartPole-sized observation (4 float32) and an Atari frame stack
// (84×84×4 uint8); each over the pipes and over the shared region.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		name   string
		kwargs map[string]any
	}{
		{"obs=4xf32", nil},
		{"obs=84x84x4xu8", map[string]any{"shape": []int{84, 84, 4}, "dtype": "uint8"}},
	} {
		for _, tr := range benchTransports {
			b.Run(c.name+"/"+tr.name, func(b *testing.B) {
				cfg := config(b)
				cfg.Kwargs = c.kwargs
				cfg.SharedMemory, cfg.Spin = tr.shared, tr.spin
				e := serve(b, "faulty:Null", cfg)
				if _, _, err := e.Reset(env.NoSeed); err != nil {
					b.Fatal(err)
				}
				act := nd.MustNew(int64(1))
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if _, _, _, _, _, err := e.Step(act); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkVector measures a vector step of n Python workers stepping
// concurrently (vector.Async), per vector step.
func BenchmarkVector(b *testing.B) {
	for _, n := range []int{1, 4} {
		for _, tr := range benchTransports {
			b.Run(fmt.Sprintf("n=%d/%s", n, tr.name), func(b *testing.B) {
				cfg := config(b)
				cfg.SharedMemory, cfg.Spin = tr.shared, tr.spin
				envs := make([]env.Env, n)
				for i := range envs {
					envs[i] = serve(b, "faulty:Null", cfg)
				}
				v, err := vector.NewAsync(envs)
				if err != nil {
					b.Fatal(err)
				}
				defer v.Close()
				ctx := context.Background()
				if _, err := v.Reset(ctx, nil, nil); err != nil {
					b.Fatal(err)
				}
				acts := nd.Zeros(nd.Int64, n)
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if _, err := v.Step(ctx, nil, acts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
