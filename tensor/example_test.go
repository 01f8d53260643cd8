package tensor_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

func ExampleTensor() {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	fmt.Println(x, x.Shape(), x.Len())
	w := tensor.New(3, 2).SetRequiresGrad(true) // a parameter
	w.FillKaimingUniform(rand.New(rand.NewPCG(1, 2)), math.Sqrt(5))
	fmt.Println(w.RequiresGrad(), w.Grad() == nil)
	// Output:
	// [[1 2 3] [4 5 6]] [2 3] 6
	// true true
}

func ExampleTape_Backward() {
	// y = Σ (w·x)² = 3² + (−1)², so dy/dw = 2·(w·x)·x = [18, −1].
	w := tensor.MustFromSlice([]float32{1, -2}, 2).SetRequiresGrad(true)
	x := tensor.MustFromSlice([]float32{3, 0.5}, 2)
	var tp tensor.Tape
	y := tp.Sum(tp.Pow(tp.Mul(w, x), 2))
	tp.Backward(y)
	fmt.Printf("y = %.3f, dy/dw = %.3f\n", y.Item(), w.Grad())
	// Gradients accumulate until ZeroGrad, as in PyTorch.
	tp.Backward(y)
	fmt.Printf("after a second Backward: %.3f\n", w.Grad())
	w.ZeroGrad()
	fmt.Println(w.Grad() == nil)
	// Output:
	// y = 10.000, dy/dw = [18.000 -1.000]
	// after a second Backward: [36.000 -2.000]
	// true
}

// Example_trainingStep shows a training step that allocates nothing once the
// first step has sized the tape's buffers: the tape is Reset at the start of
// each step, parameters keep their gradient memory across steps, and the
// optimizer updates Data in place from Grad.
func Example_trainingStep() {
	rng := rand.New(rand.NewPCG(1, 1))
	// Fit y = 2x − 1 with a one-unit linear layer.
	w := tensor.New(1, 1).SetRequiresGrad(true)
	b := tensor.New(1).SetRequiresGrad(true)
	x, y := tensor.New(32, 1), tensor.New(32, 1)
	for i := range x.Data() {
		v := float32(rng.NormFloat64())
		x.Data()[i], y.Data()[i] = v, 2*v-1
	}
	params := []*tensor.Tensor{w, b}

	var tp tensor.Tape
	step := func() float32 {
		tp.Reset() // reuse last step's buffers
		loss := tp.MSE(tp.Linear(x, w, b), y)
		for _, p := range params {
			p.ZeroGrad()
		}
		tp.Backward(loss)
		for _, p := range params { // plain SGD
			for i, g := range p.Grad() {
				p.Data()[i] -= 0.1 * g
			}
		}
		return loss.Item() // read results before the next Reset
	}
	for i := 0; i < 100; i++ {
		step()
	}
	fmt.Printf("loss %.4f, w %.3f, b %.3f\n", step(), w.Data()[0], b.Data()[0])
	// Output: loss 0.0000, w 2.000, b -1.000
}

// ExampleTape_Gather computes a DQN loss: Q(s, a) of the actions taken
// against a bootstrapped target from a network that is not trained (no
// gradient is recorded for it).
func ExampleTape_Gather() {
	var tp tensor.Tape
	q := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2).SetRequiresGrad(true) // Q(s, ·) of two states
	qNext := tensor.MustFromSlice([]float32{0.5, 1, 2, 0}, 2, 2)                 // target network on s′
	actions := []int{1, 0}
	reward := tensor.MustFromSlice([]float32{1, 0}, 2)

	// target = r + 0.9·max Q(s′, ·) = [1.9, 1.8]; the Huber loss of the
	// errors [0.1, 1.2] is (0.005 + 0.7)/2.
	tp.SetGradEnabled(false)
	target := tp.Add(reward, tp.MulScalar(tp.MaxAxis(qNext, 1, false), 0.9))
	tp.SetGradEnabled(true)
	loss := tp.Huber(tp.Gather(q, 1, actions), target, 1)
	tp.Backward(loss)
	fmt.Printf("Q(s,a) %v, target %.3f, loss %.3f, dL/dQ %.3f\n", tp.Gather(q, 1, actions), target.Data(), loss.Item(), q.Grad())
	// Output: Q(s,a) [2 3], target [1.900 1.800], loss 0.353, dL/dQ [0.000 0.050 0.500 0.000]
}

func ExampleArgMaxTo() {
	q := tensor.MustFromSlice([]float32{0.1, 0.7, 0.2, 0.9, 0.3, 0.4}, 2, 3)
	fmt.Println(tensor.ArgMaxTo(make([]int, 2), q, 1))
	// Output: [1 0]
}

func ExampleTape_SetGradEnabled() {
	// Acting: no recording, one tape reused every step.
	w := tensor.MustFromSlice([]float32{1, 2}, 1, 2).SetRequiresGrad(true)
	var act tensor.Tape
	act.SetGradEnabled(false)
	for _, obs := range [][]float32{{1, 1}, {2, 0}} {
		act.Reset()
		o, _ := act.FromND(nd.MustNew([][]float32{obs}))
		out := act.Linear(o, w, nil)
		fmt.Println(out.Data(), out.RequiresGrad())
	}
	// Output:
	// [3] false
	// [2] false
}

func ExampleFromND() {
	frames := nd.MustNew([][]uint8{{0, 128}, {255, 64}}) // e.g. an Atari observation
	x, err := tensor.FromND(frames)
	if err != nil {
		panic(err)
	}
	fmt.Println(x, x.ND().DType())
	// Output: [[0 128] [255 64]] float32
}

func ExampleBLASName() {
	// BLASName says which implementation computes matrix products; it
	// depends on the machine, so this example prints only whether it is
	// known.
	fmt.Println(tensor.BLASName() != "")
	// Output: true
}
