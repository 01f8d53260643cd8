package buffer_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

// The benchmarks use the reference shapes: CartPole-shaped
// transitions (obs float32[4]) in buffers of 100,000, as the Python
// reference (Tianshou 2.0.1) was measured. Each reports cpu-ns/op, the
// process CPU time per operation, next to the wall-clock ns/op, which a
// loaded machine inflates.
const benchSize = 100_000

var (
	sinkSteps []buffer.Step
	sinkBatch *batch.Batch
	sinkBytes []byte
)

func filledReplay(b *testing.B) *buffer.Replay {
	buf := mustReplay(b, buffer.Config{Size: benchSize})
	for i := range benchSize {
		mustAdd(b, buf, cartPoleStep(i, i%200 == 199), nil)
	}
	return buf
}

// BenchmarkAdd stores one CartPole transition (Python: 16.3 µs).
func BenchmarkAdd(b *testing.B) {
	buf := mustReplay(b, buffer.Config{Size: benchSize})
	data := cartPoleStep(1, false)
	steps := mustAdd(b, buf, data, nil)
	var err error
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		if steps, err = buf.Add(data, nil, steps[:0]); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report()
	sinkSteps = steps
}

// BenchmarkSample64 draws 64 transitions from a full buffer (Python:
// 32.4 µs): Sample allocates the batch, SampleTo reuses one.
func BenchmarkSample64(b *testing.B) {
	buf := filledReplay(b)
	rng := rand.New(rand.NewPCG(1, 2))
	b.Run("Sample", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Start(b)
		for i := 0; i < b.N; i++ {
			got, _, err := buf.Sample(64, rng)
			if err != nil {
				b.Fatal(err)
			}
			sinkBatch = got
		}
		cpu.Report()
	})
	b.Run("SampleToReuse", func(b *testing.B) {
		dst := &batch.Batch{}
		idx := make([]int, 64)
		b.ReportAllocs()
		cpu := cputime.Start(b)
		for i := 0; i < b.N; i++ {
			if err := buf.SampleTo(dst, idx, rng); err != nil {
				b.Fatal(err)
			}
		}
		cpu.Report()
		sinkBatch = dst
	})
}

// BenchmarkPrioritizedSampleUpdate64 draws 64 transitions by priority
// into a reused batch and updates their priorities (Python: 97.2 µs).
func BenchmarkPrioritizedSampleUpdate64(b *testing.B) {
	buf := mustPrioritized(b, buffer.Config{Size: benchSize}, buffer.DefaultPriorityConfig())
	for i := range benchSize {
		mustAdd(b, buf, cartPoleStep(i, i%200 == 199), nil)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dst := &batch.Batch{}
	idx := make([]int, 64)
	prios := make([]float64, 64)
	for k := range prios {
		prios[k] = rng.Float64() * 10
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		if err := buf.SampleTo(dst, idx, rng); err != nil {
			b.Fatal(err)
		}
		if err := buf.UpdateWeight(idx, prios); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report()
	sinkBatch = dst
}

// BenchmarkVectorAdd8 stores one vector step of 8 environments into a
// Vector of 8 sub-buffers (Python: 58.8 µs).
func BenchmarkVectorAdd8(b *testing.B) {
	buf, err := buffer.NewVector(buffer.Config{Size: benchSize}, 8)
	if err != nil {
		b.Fatal(err)
	}
	obs := make([][]float32, 8)
	for i := range obs {
		obs[i] = []float32{1, 2, 3, 4}
	}
	data := batch.MustNew("obs", obs, "act", make([]int64, 8), "rew", make([]float64, 8),
		"terminated", make([]bool, 8), "truncated", make([]bool, 8), "obs_next", obs)
	steps := mustAdd(b, buf, data, nil)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		if steps, err = buf.Add(data, nil, steps[:0]); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report()
	sinkSteps = steps
}

// The frame-stacking benchmarks use Atari-shaped observations: 84×84
// uint8 frames, 4 stacked, obs_next derived, only the last frame stored,
// in a buffer of 50,000 transitions (353 MB of frames, far beyond the
// caches, as 100,000 would be).
const (
	atariSize  = 50_000
	frameBytes = 84 * 84
	stackNum   = 4
)

func atariStep(i int, stack *nd.Array) *batch.Batch {
	return batch.MustNew("obs", stack, "act", int64(i%6), "rew", 0.0, "terminated", i%1000 == 999, "truncated", false, "obs_next", stack)
}

func atariBuffer(tb testing.TB, size int) *buffer.Replay {
	buf := mustReplay(tb, buffer.Config{Size: size, StackNum: stackNum, IgnoreObsNext: true, SaveOnlyLastObs: true})
	stack := nd.Zeros(nd.Uint8, stackNum, 84, 84)
	frames := nd.Data[uint8](stack)
	var steps []buffer.Step
	var err error
	for i := range size {
		frames[(stackNum-1)*frameBytes] = uint8(i)
		if steps, err = buf.Add(atariStep(i, stack), nil, steps[:0]); err != nil {
			tb.Fatal(err)
		}
	}
	return buf
}

// BenchmarkFrameStackSample32 samples 32 transitions with stacked obs and
// obs_next (Python: 480 µs); compare with BenchmarkCopyFrameBytes32.
func BenchmarkFrameStackSample32(b *testing.B) {
	buf := atariBuffer(b, atariSize)
	rng := rand.New(rand.NewPCG(1, 2))
	dst := &batch.Batch{}
	idx := make([]int, 32)
	b.SetBytes(32 * 2 * stackNum * frameBytes)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		if err := buf.SampleTo(dst, idx, rng); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report()
	sinkBatch = dst
}

// BenchmarkCopyFrameBytes32 copies the bytes a frame-stacked Sample(32)
// moves — 32 × (obs, obs_next) × 4 frames of 84×84 from random rows of
// storage of the same size — with plain copy calls: the floor the
// sampler is measured against.
func BenchmarkCopyFrameBytes32(b *testing.B) {
	storage := make([]byte, atariSize*frameBytes)
	dst := make([]byte, 32*2*stackNum*frameBytes)
	rng := rand.New(rand.NewPCG(1, 2))
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		o := 0
		for range 32 {
			r := rng.IntN(atariSize - stackNum - 1)
			for k := range 2 * stackNum {
				src := (r + k%stackNum + k/stackNum) * frameBytes
				o += copy(dst[o:], storage[src:src+frameBytes])
			}
		}
	}
	cpu.Report()
	sinkBytes = dst
}

// TestAtariMemory measures the storage of an Atari-shaped buffer: bytes
// per stored transition must be at most 1.05 × (one frame + the scalar
// fields act int64, rew float64 and three flags).
func TestAtariMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 70 MB")
	}
	const size = 10_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	buf := atariBuffer(t, size)
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / size
	floor := float64(frameBytes + 8 + 8 + 3)
	t.Logf("%.1f bytes per transition (frame + scalar fields: %.0f; ratio %.4f)", per, floor, per/floor)
	if per > 1.05*floor {
		t.Errorf("%.1f bytes per transition > 1.05 × %.0f", per, floor)
	}
	runtime.KeepAlive(buf)
}

// BenchmarkNextTo64 steps 64 indices forward within their episodes, the
// inner loop of n-step returns.
func BenchmarkNextTo64(b *testing.B) {
	buf := filledReplay(b)
	rng := rand.New(rand.NewPCG(1, 2))
	idx := buf.SampleIndices(64, rng)
	dst := make([]int, 64)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		buf.NextTo(dst, idx)
	}
	cpu.Report()
}

// BenchmarkMemorySampleBatch64 samples seed 004's transitions from a
// Machin memory of 100,000 with concatenation.
func BenchmarkMemorySampleBatch64(b *testing.B) {
	m, err := buffer.NewMemory(benchSize, buffer.DefaultRequired...)
	if err != nil {
		b.Fatal(err)
	}
	tr := machinTransition(b, nil)
	for range benchSize {
		if _, err := m.Append(tr); err != nil {
			b.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	attrs := []string{"state", "action", "reward", "next_state", "terminal", "*"}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		if _, _, err := m.SampleBatch(64, true, buffer.SampleRandomUnique, attrs, nil, rng); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report()
}
