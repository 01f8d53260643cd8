package sumtree

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
)

// benchSize is the leaf count of the benchmarks: a 100,000-transition
// replay buffer, a common size in DQN setups and too large for the float64
// sum array (2 MiB) to fit in a 1 MiB L2 cache.
const benchSize = 100000

// benchTree returns a tree of benchSize leaves with exponentially
// distributed values, like the |TD error| priorities of a replay buffer.
func benchTree[F Float](rng *rand.Rand) *Tree[F] {
	tr := New[F](benchSize)
	for i := 0; i < benchSize; i++ {
		_ = tr.Set(i, F(rng.ExpFloat64()))
	}
	return tr
}

var sinkInt int

func BenchmarkSet(b *testing.B) {
	b.Run("float32", benchSet[float32])
	b.Run("float64", benchSet[float64])
}

func benchSet[F Float](b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := benchTree[F](rng)
	const n = 4096
	idx, vs := make([]int, n), make([]F, n)
	for k := range idx {
		idx[k], vs[k] = rng.IntN(benchSize), F(rng.ExpFloat64())
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		_ = tr.Set(idx[i%n], vs[i%n])
	}
	cpu.Report()
}

// BenchmarkSetMany64 updates the priorities of one sampled batch of 64.
func BenchmarkSetMany64(b *testing.B) {
	b.Run("float32", benchSetMany[float32])
	b.Run("float64", benchSetMany[float64])
}

func benchSetMany[F Float](b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := benchTree[F](rng)
	const batches = 64
	idx, vs := make([]int, 64*batches), make([]F, 64*batches)
	for k := range idx {
		idx[k], vs[k] = rng.IntN(benchSize), F(rng.ExpFloat64())
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		j := i % batches * 64
		_ = tr.SetMany(idx[j:j+64], vs[j:j+64])
	}
	cpu.Report()
}

func BenchmarkFindPrefixSum(b *testing.B) {
	b.Run("float32", benchFind[float32])
	b.Run("float64", benchFind[float64])
}

func benchFind[F Float](b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := benchTree[F](rng)
	const n = 4096
	xs := make([]F, n)
	for k := range xs {
		xs[k] = F(rng.Float64()) * tr.Sum()
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		sinkInt += tr.FindPrefixSum(xs[i%n])
	}
	cpu.Report()
}

// BenchmarkFindPrefixSumTo64 samples one batch of 64 indices.
func BenchmarkFindPrefixSumTo64(b *testing.B) {
	b.Run("float32", benchFindTo[float32])
	b.Run("float64", benchFindTo[float64])
}

func benchFindTo[F Float](b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := benchTree[F](rng)
	const batches = 64
	xs := make([]F, 64*batches)
	for k := range xs {
		xs[k] = F(rng.Float64()) * tr.Sum()
	}
	dst := make([]int, 64)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Start(b)
	for i := 0; i < b.N; i++ {
		j := i % batches * 64
		tr.FindPrefixSumTo(dst, xs[j:j+64])
	}
	cpu.Report()
	sinkInt += dst[0]
}
