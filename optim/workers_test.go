package optim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/internal/par"
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

// TestSmallNetsStayOnCaller: the 4→128→128→2 MLP's training step at batch
// 64 (CartPole's DQN) and its forward pass on 1 to 16 rows (acting), and the
// training step of the MinAtar paper's network (a 3×3 convolution of 16
// channels on 4×10×10, 1024→128→6) at batch 32, hand no work to the worker
// pool on 16 workers, so no worker count can slow them with hand-overs; the
// 64→256→256→18 MLP's step at batch 256 does, which shows that the count
// sees them.
func TestSmallNetsStayOnCaller(t *testing.T) {
	defer tensor.SetWorkers(0)
	tensor.SetWorkers(16)
	mlp := func(in int, hidden []int, out int) func(*rand.Rand) (nn.Layer, error) {
		return func(rng *rand.Rand) (nn.Layer, error) {
			return nn.NewMLP(nn.MLPConfig{In: in, Hidden: hidden, Out: out}, rng)
		}
	}
	minatar := func(rng *rand.Rand) (nn.Layer, error) {
		convs, features, err := nn.NewConvStack([]nn.ConvSpec{{Out: 16, Kernel: 3}}, []int{4, 10, 10}, rng)
		if err != nil {
			return nil, err
		}
		head, err := nn.NewMLP(nn.MLPConfig{In: features, Hidden: []int{128}, Out: 6}, rng)
		if err != nil {
			return nil, err
		}
		return append(convs, head), nil
	}
	handed := func(build func(*rand.Rand) (nn.Layer, error), shape []int, out int, train bool) int64 {
		rng := rand.New(rand.NewPCG(3, 4))
		net, err := build(rng)
		if err != nil {
			t.Fatal(err)
		}
		adam, err := optim.NewAdam(net.Params(), optim.DefaultAdamConfig())
		if err != nil {
			t.Fatal(err)
		}
		x, y := tensor.New(shape...), tensor.New(shape[0], out)
		x.FillNormal(rng, 0, 1)
		y.FillNormal(rng, 0, 1)
		var tp tensor.Tape
		tp.SetGradEnabled(train)
		step := func() {
			tp.Reset()
			p := net.Forward(&tp, x)
			if train {
				loss := tp.MSE(p, y)
				adam.ZeroGrad()
				tp.Backward(loss)
				adam.Step()
			}
		}
		step() // scratch memory sized
		before := par.Handed()
		for range 3 {
			step()
		}
		return par.Handed() - before
	}
	for _, batch := range []int{1, 8, 10, 16} {
		if n := handed(mlp(4, []int{128, 128}, 2), []int{batch, 4}, 2, false); n != 0 {
			t.Errorf("4→128→128→2 forward at batch %d handed %d Runs to the pool", batch, n)
		}
	}
	if n := handed(mlp(4, []int{128, 128}, 2), []int{64, 4}, 2, true); n != 0 {
		t.Errorf("4→128→128→2 step at batch 64 handed %d Runs to the pool", n)
	}
	if n := handed(minatar, []int{32, 4, 10, 10}, 6, true); n != 0 {
		t.Errorf("MinAtar's network's step at batch 32 handed %d Runs to the pool", n)
	}
	if n := handed(mlp(64, []int{256, 256}, 18), []int{256, 64}, 18, true); n == 0 {
		t.Error("64→256→256→18 step at batch 256 handed no Run to the pool; the count sees nothing")
	}
}
