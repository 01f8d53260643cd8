package nn_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

func ExampleMLP() {
	rng := rand.New(rand.NewPCG(1, 2))
	q, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{128, 128}, Out: 2}, rng)
	if err != nil {
		panic(err)
	}
	for name, p := range q.Params().All() {
		fmt.Println(name, p.Shape())
	}
	fmt.Println("parameters:", q.Params().Count())

	// Acting: a no-grad tape, reset before each forward pass.
	var tp tensor.Tape
	tp.SetGradEnabled(false)
	obs := tensor.MustFromSlice([]float32{0.01, -0.02, 0.03, 0.04}, 1, 4)
	out := q.Forward(&tp, obs)
	fmt.Println(out.Shape())
	// Output:
	// 0.weight [128 4]
	// 0.bias [128]
	// 2.weight [128 128]
	// 2.bias [128]
	// 4.weight [2 128]
	// 4.bias [2]
	// parameters: 17410
	// [1 2]
}

func ExampleLinear() {
	l := &nn.Linear{
		Weight: tensor.MustFromSlice([]float32{1, 2, 3, 4}, 2, 2),
		Bias:   tensor.MustFromSlice([]float32{0.5, -0.5}),
	}
	x := tensor.MustFromSlice([]float32{1, 1}, 1, 2)
	fmt.Println(l.Forward(nil, x)) // [1+2+0.5, 3+4−0.5]
	// Output: [[3.5 6.5]]
}

func ExampleSequential() {
	rng := rand.New(rand.NewPCG(1, 1))
	net := nn.Sequential{nn.NewLinear(3, 8, rng), nn.Tanh, nn.NewLinear(8, 1, rng)}
	for name := range net.Params().All() {
		fmt.Println(name)
	}
	// Output:
	// 0.weight
	// 0.bias
	// 2.weight
	// 2.bias
}

func ExampleParams() {
	rng := rand.New(rand.NewPCG(1, 1))
	// A user's network: its Params names the children's parameters.
	fc1, fc2 := nn.NewLinear(2, 3, rng), nn.NewLinear(3, 1, rng)
	ps := append(fc1.Params().Prefixed("fc1"), fc2.Params().Prefixed("fc2")...)
	for _, p := range ps {
		fmt.Println(p.Name, p.Tensor.Shape())
	}
	fmt.Println(ps.Count(), "parameters")
	// Output:
	// fc1.weight [3 2]
	// fc1.bias [3]
	// fc2.weight [1 3]
	// fc2.bias [1]
	// 13 parameters
}

func ExampleSoftUpdate() {
	online := nn.Params{{Name: "w", Tensor: tensor.MustFromSlice([]float32{1, 1})}}
	target := nn.Params{{Name: "w", Tensor: tensor.MustFromSlice([]float32{0, 0.5})}}
	if err := nn.SoftUpdate(target, online, 0.1); err != nil { // θ' ← 0.1θ + 0.9θ'
		panic(err)
	}
	fmt.Printf("%.2f\n", target[0].Tensor.Data())
	if err := nn.Copy(target, online); err != nil {
		panic(err)
	}
	fmt.Printf("%.2f\n", target[0].Tensor.Data())
	// Output:
	// [0.10 0.55]
	// [1.00 1.00]
}

func ExampleSave() {
	rng := rand.New(rand.NewPCG(1, 1))
	src, _ := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{4}, Out: 1}, rng)
	var file bytes.Buffer
	if err := nn.Save(&file, src.Params(), map[string]string{"format": "pt"}); err != nil {
		panic(err)
	}
	dst, _ := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{4}, Out: 1}, rng)
	meta, err := nn.Load(&file, dst.Params())
	if err != nil {
		panic(err)
	}
	fmt.Println(meta["format"], dst.Params()[0].Tensor.Data()[0] == src.Params()[0].Tensor.Data()[0])

	// A network of another shape is refused, naming the tensor.
	other, _ := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{4}, Out: 1}, rng)
	_ = nn.Save(&file, src.Params(), nil)
	_, err = nn.Load(&file, other.Params())
	fmt.Println(err)
	// Output:
	// pt true
	// nn: parameter sets do not match: tensor "0.weight" has shape [4 2] in the file, [4 3] in the model
}

// qNet is a user's model with one named input, as Machin's QNet declares
// forward(self, state).
type qNet struct{ body *nn.MLP }

var qNetInputs = []string{"state"}

func (q *qNet) Inputs() []string { return qNetInputs }

func (q *qNet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return q.body.Forward(tp, in[0])
}

func ExampleCaller() {
	rng := rand.New(rand.NewPCG(1, 1))
	body, _ := nn.NewMLP(nn.MLPConfig{In: 5, Hidden: []int{16}, Out: 2}, rng)
	q := &qNet{body}
	state, _ := nd.FromSlice(make([]float32, 3*5), 3, 5)
	action, _ := nd.FromSlice([]int64{0, 1, 1}, 3)
	sample := batch.MustNew("state", state, "action", action) // "action" is ignored

	var c nn.Caller
	out, err := c.Call(nil, q, sample)
	fmt.Println(out.Shape(), err)
	_, err = c.Call(nil, q, batch.MustNew("next_state", state))
	fmt.Println(err)
	_, err = c.Call(nil, q, sample, batch.MustNew("state", state))
	fmt.Println(err)
	// Output:
	// [3 2] <nil>
	// nn: missing input: "state" (the model's inputs are ["state"])
	// nn: input supplied twice: "state" is in batches 0 and 1
}

func ExampleNoisyLinear() {
	rng := rand.New(rand.NewPCG(1, 1))
	l := nn.NewNoisyLinear(3, 2, 0.5, rng)
	x := tensor.MustFromSlice([]float32{1, 2, 3}, 1, 3)
	a := l.Forward(nil, x).Data()[0]
	l.ResetNoise(rng) // once per training step
	b := l.Forward(nil, x).Data()[0]
	nn.SetTraining(l, false) // evaluation: the mean weights, no noise
	c := l.Forward(nil, x).Data()[0]
	l.ResetNoise(rng)
	d := l.Forward(nil, x).Data()[0]
	fmt.Println(a != b, c == d)
	for _, p := range l.Params() {
		fmt.Println(p.Name, p.Buffer)
	}
	// Output:
	// true true
	// weight_mu false
	// weight_sigma false
	// bias_mu false
	// bias_sigma false
	// weight_epsilon true
	// bias_epsilon true
}

func ExampleGRUCell() {
	rng := rand.New(rand.NewPCG(1, 1))
	cell := nn.NewGRUCell(3, 4, rng)
	h := tensor.New(2, 4) // zero state for a batch of 2
	var tp tensor.Tape
	for step := 0; step < 3; step++ {
		x := tensor.New(2, 3)
		x.FillNormal(rng, 0, 1)
		h = cell.Forward(&tp, x, h)
	}
	fmt.Println(h.Shape())
	for name, p := range cell.Params().All() {
		fmt.Println(name, p.Shape())
	}
	// Output:
	// [2 4]
	// weight_ih [12 3]
	// weight_hh [12 4]
	// bias_ih [12]
	// bias_hh [12]
}

func ExampleLSTMCell() {
	rng := rand.New(rand.NewPCG(1, 1))
	cell := nn.NewLSTMCell(3, 4, rng)
	h, c := tensor.New(1, 4), tensor.New(1, 4)
	x := tensor.MustFromSlice([]float32{0.5, -1, 2}, 1, 3)
	h, c = cell.Forward(nil, x, h, c)
	fmt.Println(h.Shape(), c.Shape(), cell.Params().Count())
	// Output: [1 4] [1 4] 144
}

func ExampleDueling() {
	rng := rand.New(rand.NewPCG(1, 1))
	net := nn.Sequential{
		nn.NewLinear(4, 64, rng), nn.ReLU,
		&nn.Dueling{Value: nn.NewLinear(64, 1, rng), Advantage: nn.NewLinear(64, 3, rng)},
	}
	q := net.Forward(nil, tensor.New(5, 4))
	fmt.Println(q.Shape())
	for name := range net.Params().All() {
		fmt.Println(name)
	}
	// Output:
	// [5 3]
	// 0.weight
	// 0.bias
	// 2.value.weight
	// 2.value.bias
	// 2.advantage.weight
	// 2.advantage.bias
}

func ExampleNatureCNN() {
	rng := rand.New(rand.NewPCG(1, 1))
	q := nn.NewNatureCNN(4, 6, rng)
	frames := tensor.New(8, 4, 84, 84) // raw pixels in [0, 255]; Scale is 1/255
	var tp tensor.Tape
	tp.SetGradEnabled(false)
	fmt.Println(q.Forward(&tp, frames).Shape(), q.Params().Count())
	// Output: [8 6] 1687206
}

func ExampleConv2d() {
	rng := rand.New(rand.NewPCG(1, 1))
	c := nn.NewConv2d(3, 16, 5, 2, 2, rng)
	fmt.Println(c.Forward(nil, tensor.New(1, 3, 32, 32)).Shape())
	// Output: [1 16 16 16]
}

func ExampleDropout() {
	rng := rand.New(rand.NewPCG(1, 1))
	d := nn.NewDropout(0.5, rng)
	x := tensor.MustFromSlice([]float32{1, 1, 1, 1, 1, 1}, 1, 6)
	fmt.Println(d.Forward(nil, x)) // kept values are scaled by 1/(1 − p)
	d.SetTraining(false)
	fmt.Println(d.Forward(nil, x))
	// Output:
	// [[0 0 0 2 0 0]]
	// [[1 1 1 1 1 1]]
}

func ExampleActivation() {
	x := tensor.MustFromSlice([]float32{-1, 0, 2})
	for _, a := range []nn.Activation{nn.ReLU, nn.Tanh, nn.Identity} {
		fmt.Printf("%s %.3f\n", a, a.Forward(nil, x).Data())
	}
	fmt.Println(nn.Activation("swish").Validate())
	// Output:
	// relu [0.000 0.000 2.000]
	// tanh [-0.762 0.000 0.964]
	// identity [-1.000 0.000 2.000]
	// nn: invalid configuration: unknown activation "swish"
}

func ExampleFlatten() {
	x := tensor.New(2, 3, 4, 4)
	fmt.Println(nn.Flatten{}.Forward(nil, x).Shape())
	// Output: [2 48]
}

// An MLPConfig with Out 0 describes a feature extractor whose last hidden
// layer, with its activation, is the output; OutputActivation bounds the
// output of a network that has an output layer. Out 0 needs a hidden layer.
func ExampleMLPConfig() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := tensor.MustFromSlice([]float32{1, -2, 3, 0, 5, -6}, 2, 3)
	features, _ := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{16, 8}, Activation: nn.Tanh}, rng)
	fmt.Println("features", features.Forward(nil, x).Shape())

	bounded, _ := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{16}, Out: 2, OutputActivation: nn.Tanh}, rng)
	out := bounded.Forward(nil, x).Data()
	fmt.Println("bounded", len(out), slices.Max(out) < 1, slices.Min(out) > -1)

	fmt.Println(nn.MLPConfig{In: 3}.Validate())
	// Output:
	// features [2 8]
	// bounded 4 true true
	// nn: invalid configuration: MLP output size 0 with hidden sizes []
}
