package tensor_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// TestConv2dSplitNaive checks the forward pass and the three gradients of
// convolutions large enough to be cut for the worker pool (product rows
// that do not end on a sample, filter-gradient groups, tiles of the filter
// gradient, one sample per input-gradient task) against the definition in
// float64, on 1, 3 and 16 workers, and requires the same bits on each.
// 32 output channels go through the tile kernels where the CPU has them,
// 12 through the BLAS.
func TestConv2dSplitNaive(t *testing.T) {
	defer tensor.SetWorkers(0)
	for _, c := range []struct {
		n, c, h, oc, k, stride, pad int
	}{
		{16, 16, 20, 32, 3, 1, 1}, // 29.5 million multiply-adds per product
		{16, 16, 20, 12, 3, 1, 0}, // 9.3 million
	} {
		rng := rand.New(rand.NewPCG(3, uint64(c.oc)))
		x := randn(rng, c.n, c.c, c.h, c.h).SetRequiresGrad(true)
		f := randn(rng, c.oc, c.c, c.k, c.k).SetRequiresGrad(true)
		b := randn(rng, c.oc).SetRequiresGrad(true)
		o := (c.h+2*c.pad-c.k)/c.stride + 1
		g := randn(rng, c.n, c.oc, o, o)
		var first [4][]float32
		for _, workers := range []int{1, 3, 16} {
			tensor.SetWorkers(workers)
			x.ZeroGrad()
			f.ZeroGrad()
			b.ZeroGrad()
			var tp tensor.Tape
			y := tp.Conv2d(x, f, b, c.stride, c.pad)
			tp.Backward(tp.Sum(tp.Mul(y, g)))
			got := [4][]float32{y.Data(), x.Grad(), f.Grad(), b.Grad()}
			if first[0] == nil {
				for i := range got {
					first[i] = append([]float32(nil), got[i]...)
				}
				checkConvNaive(t, c.n, c.c, c.h, c.oc, c.k, c.stride, c.pad, x.Data(), f.Data(), b.Data(), g.Data(), got)
				continue
			}
			for i := range got {
				for j := range got[i] {
					if math.Float32bits(got[i][j]) != math.Float32bits(first[i][j]) {
						t.Fatalf("oc=%d, %d workers: result %d element %d is %v, %v on one worker", c.oc, workers, i, j, got[i][j], first[i][j])
					}
				}
			}
		}
	}
}

// checkConvNaive compares y, dx, dW and db (in got) with the definition of
// the convolution and its adjoints for the result gradient g.
func checkConvNaive(t *testing.T, n, c, h, oc, k, stride, pad int, x, f, b, g []float32, got [4][]float32) {
	t.Helper()
	o := (h+2*pad-k)/stride + 1
	y := make([]float64, n*oc*o*o)
	dx := make([]float64, len(x))
	dw := make([]float64, len(f))
	db := make([]float64, oc)
	for s := 0; s < n; s++ {
		for oc0 := 0; oc0 < oc; oc0++ {
			for oy := 0; oy < o; oy++ {
				for ox := 0; ox < o; ox++ {
					yi := ((s*oc+oc0)*o+oy)*o + ox
					gv := float64(g[yi])
					v := float64(b[oc0])
					db[oc0] += gv
					for ci := 0; ci < c; ci++ {
						for i := 0; i < k; i++ {
							for j := 0; j < k; j++ {
								iy, ix := oy*stride-pad+i, ox*stride-pad+j
								if iy < 0 || iy >= h || ix < 0 || ix >= h {
									continue
								}
								xi, fi := ((s*c+ci)*h+iy)*h+ix, ((oc0*c+ci)*k+i)*k+j
								v += float64(x[xi]) * float64(f[fi])
								dx[xi] += gv * float64(f[fi])
								dw[fi] += gv * float64(x[xi])
							}
						}
					}
					y[yi] = v
				}
			}
		}
	}
	for i, want := range [4][]float64{y, dx, dw, db} {
		for j, w := range want {
			// float32 sums of up to 6,400 terms of size about 1.
			if d := math.Abs(float64(got[i][j]) - w); d > 1e-3*(1+math.Sqrt(math.Abs(w))) && d > 1e-4*math.Abs(w) {
				t.Fatalf("result %d element %d is %v, want %v", i, j, got[i][j], w)
			}
		}
	}
}

// TestConv2dGradSubsets checks a split convolution's backward pass when only
// some of its operands need a gradient, and when the gradients accumulate
// (the convolution applied twice): each wanted gradient must have the bits it
// has when all three are wanted (fresh) or be twice it up to rounding
// (accumulated), the others must stay absent, and 1 and 3 workers must give
// the same bits.
func TestConv2dGradSubsets(t *testing.T) {
	defer tensor.SetWorkers(0)
	const n, c, h, oc, k = 16, 16, 20, 32, 3
	rng := rand.New(rand.NewPCG(5, 5))
	x, f, b := randn(rng, n, c, h, h), randn(rng, oc, c, k, k), randn(rng, oc)
	g := randn(rng, n, oc, h, h)
	run := func(wantX, wantW, wantB, twice bool) [3][]float32 {
		x.SetRequiresGrad(wantX)
		f.SetRequiresGrad(wantW)
		b.SetRequiresGrad(wantB)
		x.ZeroGrad()
		f.ZeroGrad()
		b.ZeroGrad()
		var tp tensor.Tape
		loss := tp.Sum(tp.Mul(tp.Conv2d(x, f, b, 1, 1), g))
		if twice {
			loss = tp.Add(loss, tp.Sum(tp.Mul(tp.Conv2d(x, f, b, 1, 1), g)))
		}
		tp.Backward(loss)
		var out [3][]float32
		for i, p := range []*tensor.Tensor{x, f, b} {
			if p.Grad() != nil {
				out[i] = append([]float32(nil), p.Grad()...)
			}
		}
		return out
	}
	tensor.SetWorkers(1)
	all := run(true, true, true, false) // checked against the definition in TestConv2dSplitNaive
	for _, tc := range []struct {
		name         string
		wantX, wantW bool
		wantB, twice bool
	}{
		{"filters", false, true, false, false},
		{"bias", false, false, true, false},
		{"input", true, false, false, false},
		{"input and bias", true, false, true, false},
		{"all, twice", true, true, true, true},
		{"bias, twice", false, false, true, true},
	} {
		var first [3][]float32
		for _, workers := range []int{1, 3} {
			tensor.SetWorkers(workers)
			got := run(tc.wantX, tc.wantW, tc.wantB, tc.twice)
			for i, want := range []bool{tc.wantX, tc.wantW, tc.wantB} {
				if !want {
					if got[i] != nil {
						t.Fatalf("%s: gradient %d present", tc.name, i)
					}
					continue
				}
				for j, v := range got[i] {
					w := all[i][j]
					if tc.twice {
						if math.Abs(float64(v)-2*float64(w)) > 1e-5*(1+math.Abs(2*float64(w))) {
							t.Fatalf("%s, %d workers: gradient %d element %d is %v, want about %v", tc.name, workers, i, j, v, 2*w)
						}
					} else if math.Float32bits(v) != math.Float32bits(w) {
						t.Fatalf("%s, %d workers: gradient %d element %d is %v, %v with all gradients", tc.name, workers, i, j, v, w)
					}
					if first[i] != nil && math.Float32bits(v) != math.Float32bits(first[i][j]) {
						t.Fatalf("%s: gradient %d element %d is %v on %d workers, %v on one", tc.name, i, j, v, workers, first[i][j])
					}
				}
			}
			if first[0] == nil && first[1] == nil && first[2] == nil {
				first = got
			}
		}
	}
}
