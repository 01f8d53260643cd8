package scores

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkBootstrap is one interval of the size gorl compare computes
// per algorithm and env: five seeds, the default 2000 resamples.
func BenchmarkBootstrap(b *testing.B) {
	x := [][]float64{{500, 480, 210, 500, 455}}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Bootstrap(x, IQM, BootstrapConfig{}, rng); err != nil {
			b.Fatal(err)
		}
	}
}
