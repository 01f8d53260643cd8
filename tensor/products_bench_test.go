package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor/internal/blas"
)

// BenchmarkLinearProducts compares the selected BLAS with the tile kernels
// on Linear's three products for the layers of a DQN update on CartPole
// (batch 64, hidden layers of 128, 2 actions), acting for 4 to 24 envs with
// weights of 128 × 64 to 1024 × 128, and larger batches: the forward
// y = x·wᵀ + b, and in backward dx = g·w and dw = gᵀ·x.
func BenchmarkLinearProducts(b *testing.B) {
	if !haveTileKernel {
		b.Skip("no tile kernel on this CPU")
	}
	for _, s := range [][3]int{{64, 4, 128}, {64, 128, 128}, {64, 128, 2}, {10, 128, 128}, {8, 128, 128}, {16, 128, 128}, {24, 128, 128}, {8, 256, 256}, {16, 256, 256}, {8, 1024, 128}, {8, 64, 256}, {8, 128, 64}, {4, 128, 128}, {10, 4, 128}, {10, 128, 2}, {128, 256, 256}, {256, 256, 256}} {
		rows, in, out := s[0], s[1], s[2]
		rng := rand.New(rand.NewPCG(1, 2))
		fill := func(n int) []float32 {
			v := make([]float32, n)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			return v
		}
		x, w, bias, g := fill(rows*in), fill(out*in), fill(out), fill(rows*out)
		y, dx, dw := make([]float32, rows*out), make([]float32, rows*in), make([]float32, out*in)
		var n node
		name := fmt.Sprintf("%dx%dx%d", rows, in, out)
		b.Run(name+"/forward/blas", func(b *testing.B) {
			b.ReportAllocs()
			cputime.Measure(b, func() {
				for r := 0; r < rows; r++ {
					copy(y[r*out:(r+1)*out], bias)
				}
				blas.Gemm(false, true, rows, out, in, 1, x, in, w, in, 1, y, out)
			})
		})
		b.Run(name+"/forward/tiles", func(b *testing.B) {
			b.ReportAllocs()
			cputime.Measure(b, func() { linearTiles(&n, x, w, bias, y, rows, in, out) })
		})
		if rows < linearBatchRows {
			continue
		}
		b.Run(name+"/backward/blas", func(b *testing.B) {
			b.ReportAllocs()
			cputime.Measure(b, func() {
				if in%8 == 0 {
					blas.Gemm(false, false, rows, in, out, 1, g, out, w, in, 0, dx, in)
				}
				blas.Gemm(true, false, out, in, rows, 1, g, out, x, in, 0, dw, in)
			})
		})
		if in%8 == 0 {
			b.Run(name+"/backward/tiles", func(b *testing.B) {
				b.ReportAllocs()
				cputime.Measure(b, func() { linearBackTiles(&n, x, w, g, dx, dw, false, false, rows, in, out) })
			})
		}
	}
}
