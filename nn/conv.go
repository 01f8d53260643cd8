package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/tensor"
)

// Conv2d is a 2-D convolution over NCHW input, PyTorch's nn.Conv2d with square
// kernels and the same stride and zero padding on both spatial axes. Weight is
// [out, in, k, k] and Bias [out] (or nil); they are named "weight" and "bias".
type Conv2d struct {
	Weight, Bias    *tensor.Tensor
	Stride, Padding int
}

// NewConv2d returns a convolution with in input and out output channels, a
// kernel×kernel filter, and PyTorch's default initialization:
// kaiming_uniform(a = √5) weights and U(−1/√fanIn, 1/√fanIn) biases with
// fanIn = in·kernel², drawn from rng in that order.
//
// NewConv2d panics with an error wrapping ErrConfig if a size or the stride is
// less than 1 or the padding is negative.
func NewConv2d(in, out, kernel, stride, padding int, rng *rand.Rand) *Conv2d {
	if in < 1 || out < 1 || kernel < 1 || stride < 1 || padding < 0 {
		panic(fmt.Errorf("%w: Conv2d(%d, %d, kernel %d, stride %d, padding %d)", ErrConfig, in, out, kernel, stride, padding))
	}
	c := &Conv2d{
		Weight: tensor.New(out, in, kernel, kernel).SetRequiresGrad(true),
		Bias:   tensor.New(out).SetRequiresGrad(true),
		Stride: stride, Padding: padding,
	}
	c.Weight.FillKaimingUniform(rng, math.Sqrt(5))
	fillBias(c.Bias, in*kernel*kernel, rng)
	return c
}

// Forward returns the convolution of x [N, in, H, W], shape [N, out, OH, OW]
// with OH = (H + 2·Padding − k)/Stride + 1 rounded down, and likewise OW.
// It panics with tensor.ErrShape if x does not fit.
func (c *Conv2d) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	return tp.Conv2d(x, c.Weight, c.Bias, c.Stride, c.Padding)
}

// Params returns "weight" and, unless it is nil, "bias".
func (c *Conv2d) Params() Params {
	ps := Params{{Name: "weight", Tensor: c.Weight}}
	if c.Bias != nil {
		ps = append(ps, Param{Name: "bias", Tensor: c.Bias})
	}
	return ps
}

// NatureCNN is the Q-network of Mnih et al. (2015, "Human-level control
// through deep reinforcement learning") for stacks of 84×84 frames, laid out
// as CleanRL's dqn_atari.py builds it:
//
//	x·Scale → conv 32 8×8 stride 4 → ReLU → conv 64 4×4 stride 2 → ReLU
//	→ conv 64 3×3 stride 1 → ReLU → flatten (3136) → Linear 512 → ReLU
//	→ Linear actions
//
// The body is a Sequential, so the parameters are named 0.weight, 0.bias,
// 2.*, 4.*, 7.* and 9.*, CleanRL's network.N.* without the "network." prefix
// (add it with Params().Prefixed("network") to exchange weights with CleanRL).
type NatureCNN struct {
	// Scale multiplies the input before the first convolution: 1/255 for
	// raw pixel values in [0, 255], as CleanRL divides by 255; 1 feeds the
	// input unchanged.
	Scale float32
	Body  Sequential
}

// NewNatureCNN returns the network for inputs [N, channels, 84, 84] with one
// output per action and Scale 1/255, its layers initialized as PyTorch's
// defaults in order. With actions = 0 the last Linear layer is left out and
// the network outputs the 512 features after its ReLU (a torso for dueling or
// actor-critic heads).
//
// NewNatureCNN panics with an error wrapping ErrConfig if channels < 1 or
// actions < 0.
func NewNatureCNN(channels, actions int, rng *rand.Rand) *NatureCNN {
	if channels < 1 || actions < 0 {
		panic(fmt.Errorf("%w: NatureCNN with %d channels and %d actions", ErrConfig, channels, actions))
	}
	body := Sequential{
		NewConv2d(channels, 32, 8, 4, 0, rng), ReLU,
		NewConv2d(32, 64, 4, 2, 0, rng), ReLU,
		NewConv2d(64, 64, 3, 1, 0, rng), ReLU,
		Flatten{},
		NewLinear(64*7*7, 512, rng), ReLU,
	}
	if actions > 0 {
		body = append(body, NewLinear(512, actions, rng))
	}
	return &NatureCNN{Scale: 1.0 / 255, Body: body}
}

// Forward returns the Q-values [N, actions] (or features [N, 512]) of
// x [N, channels, 84, 84]. It panics with tensor.ErrShape for another input
// shape.
//
// The scaling is applied to the first convolution's filters rather than to
// the input: conv(s·x, W) = conv(x, s·W), and the tape carries the gradient
// back to W through the product. That multiplies 8,192 weights instead of
// 28,224 values per sample (the results differ from scaling the input by
// float32 rounding only). A Body whose first layer is not a *Conv2d gets its
// input scaled.
func (n *NatureCNN) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	if n.Scale == 1 {
		return n.Body.Forward(tp, x)
	}
	if c, ok := n.Body[0].(*Conv2d); ok {
		x = tp.Conv2d(x, tp.MulScalar(c.Weight, n.Scale), c.Bias, c.Stride, c.Padding)
		return n.Body[1:].Forward(tp, x)
	}
	return n.Body.Forward(tp, tp.MulScalar(x, n.Scale))
}

// Params returns the body's parameters.
func (n *NatureCNN) Params() Params { return n.Body.Params() }

// Dueling is the dueling head of Wang et al. (2016): from the same input it
// computes a state value V [N, 1] and advantages A [N, actions] and returns
// Q = V + A − mean(A) over the actions. Its parameters are Value's, prefixed
// "value", then Advantage's, prefixed "advantage".
//
// With Atoms above 1 the head is distributional (the dueling network of
// Rainbow, Hessel et al., 2018): V gives [N, atoms], A gives [N, actions ·
// atoms] read as [N, actions, atoms], and the result [N, actions · atoms]
// combines them atom by atom, V + A − mean over the actions of A; the
// caller turns each action's atoms into a distribution.
type Dueling struct {
	Value, Advantage Layer
	// Atoms is the number of outputs per action; 0 means 1.
	Atoms int
}

// Forward returns V(x) + A(x) − mean_a A(x). It panics with tensor.ErrShape
// unless Value gives [N, atoms] and Advantage [N, actions · atoms].
func (d *Dueling) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	v, a := d.Value.Forward(tp, x), d.Advantage.Forward(tp, x)
	k := max(d.Atoms, 1)
	if v.NDim() != 2 || a.NDim() != 2 || v.Dim(1) != k || v.Dim(0) != a.Dim(0) || a.Dim(1)%k != 0 {
		panic(fmt.Errorf("%w: dueling head of %d atoms with value %v and advantage %v", tensor.ErrShape, k, v.Shape(), a.Shape()))
	}
	if k == 1 {
		return tp.Add(v, tp.Sub(a, tp.MeanAxis(a, 1, true)))
	}
	n := a.Dim(0)
	a3, v3 := tp.Reshape(a, n, a.Dim(1)/k, k), tp.Reshape(v, n, 1, k)
	return tp.Reshape(tp.Add(v3, tp.Sub(a3, tp.MeanAxis(a3, 1, true))), n, a.Dim(1))
}

// Params returns "value.*" then "advantage.*".
func (d *Dueling) Params() Params {
	return append(d.Value.Params().Prefixed("value"), d.Advantage.Params().Prefixed("advantage")...)
}

// SetTraining sets the mode of both streams.
func (d *Dueling) SetTraining(on bool) {
	SetTraining(d.Value, on)
	SetTraining(d.Advantage, on)
}
