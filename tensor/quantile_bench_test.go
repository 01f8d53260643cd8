package tensor_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/tensor"
)

// BenchmarkQuantileHuber measures the loss and its backward pass at the
// sizes of the quantile algorithms' CartPole tests: batch 64 with QR-DQN's
// 200 quantiles against 200 targets, FQF's 32 × 32 and IQN's 8 × 8.
func BenchmarkQuantileHuber(b *testing.B) {
	for _, n := range []int{200, 32, 8} {
		b.Run(fmt.Sprintf("batch=64/quantiles=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			pred := tensor.New(64, n).SetRequiresGrad(true)
			pred.FillNormal(rng, 0, 2)
			target := tensor.New(64, n)
			target.FillNormal(rng, 0, 2)
			tau := tensor.New(n)
			tau.FillUniform(rng, 0, 1)
			var tp tensor.Tape
			measure(b, func() {
				tp.Reset()
				l := tp.Mean(tp.QuantileHuber(pred, target, tau, 1))
				tp.Backward(l)
				sinkF = l.Item()
			})
		})
	}
}

// BenchmarkCosines measures the cosine features of IQN's embedding (64 per
// fraction) and their backward pass for FQF's update: 64 states × 32
// fractions.
func BenchmarkCosines(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	tau := tensor.New(64, 32).SetRequiresGrad(true)
	tau.FillUniform(rng, 0, 1)
	var tp tensor.Tape
	measure(b, func() {
		tp.Reset()
		l := tp.Sum(tp.Cosines(tau, 64))
		tp.Backward(l)
		sinkF = l.Item()
	})
}
