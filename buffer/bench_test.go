package buffer_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
)

// The benchmarks use the reference shapes: CartPole-shaped
// transitions (obs float32[4]) in buffers of 100,000, as the Python
// reference was measured.
const benchSize = 100_000

func filledReplay(b *testing.B) *buffer.Replay {
	buf := mustReplay(b, buffer.Config{Size: benchSize})
	for i := range benchSize {
		mustAdd(b, buf, cartPoleStep(i, i%200 == 199), nil)
	}
	return buf
}

func BenchmarkAdd(b *testing.B) {
	buf := mustReplay(b, buffer.Config{Size: benchSize})
	data := cartPoleStep(1, false)
	steps := make([]buffer.Step, 0, 1)
	var err error
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if steps, err = buf.Add(data, nil, steps[:0]); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkSampleTo64(b *testing.B) {
	buf := filledReplay(b)
	dst := &batch.Batch{}
	idx := make([]int, 64)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := buf.SampleTo(dst, idx, rng); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}
