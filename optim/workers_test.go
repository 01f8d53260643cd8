package optim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// TestWorkerCountBitIdentical runs the same two training steps (forward, MSE,
// backward, Adam) on 1, 2, 4, 8 and 16 workers and requires bit-identical
// parameters. The networks and batches are large enough for every split
// path: the Nature CNN at batch 8 (convolutions in ranges of rows, the
// filter gradients in sample groups and tiles, the input gradients by
// sample, the fc layer's products in tiles, its 1.6 million weights' update
// in pieces) and the 64→256→256→18 MLP at batch 256 (tiled products).
func TestWorkerCountBitIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the Nature CNN five times")
	}
	defer tensor.SetWorkers(0)
	for _, c := range []struct {
		name  string
		build func(rng *rand.Rand) nn.Layer
		x     []int
		out   int
	}{
		{"nature-cnn", func(rng *rand.Rand) nn.Layer { return nn.NewNatureCNN(4, 6, rng) }, []int{8, 4, 84, 84}, 6},
		{"mlp", func(rng *rand.Rand) nn.Layer {
			m, err := nn.NewMLP(nn.MLPConfig{In: 64, Hidden: []int{256, 256}, Out: 18}, rng)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}, []int{256, 64}, 18},
	} {
		var want [][]float32
		for _, workers := range []int{1, 2, 4, 8, 16} {
			tensor.SetWorkers(workers)
			rng := rand.New(rand.NewPCG(7, 7))
			net := c.build(rng)
			x := tensor.New(c.x...)
			x.FillUniform(rng, 0, 255)
			y := tensor.New(c.x[0], c.out)
			y.FillNormal(rng, 0, 1)
			opt, err := optim.NewAdam(net.Params(), optim.DefaultAdamConfig())
			if err != nil {
				t.Fatal(err)
			}
			var tp tensor.Tape
			for step := 0; step < 2; step++ {
				tp.Reset()
				loss := tp.MSE(net.Forward(&tp, x), y)
				opt.ZeroGrad()
				tp.Backward(loss)
				opt.Step()
			}
			var got [][]float32
			for _, p := range net.Params() {
				got = append(got, append([]float32(nil), p.Tensor.Data()...))
			}
			if want == nil {
				want = got
				continue
			}
			for i := range want {
				for j := range want[i] {
					if math.Float32bits(got[i][j]) != math.Float32bits(want[i][j]) {
						t.Fatalf("%s: parameter %d element %d is %v on %d workers, %v on one", c.name, i, j, got[i][j], workers, want[i][j])
					}
				}
			}
		}
	}
}
