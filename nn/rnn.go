package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/tensor"
)

// newCell returns the four parameters of a recurrent cell with gates·hidden
// rows, PyTorch's layout, all drawn from U(−1/√hidden, 1/√hidden) in the
// order weight_ih, weight_hh, bias_ih, bias_hh.
func newCell(kind string, in, hidden, gates int, rng *rand.Rand) (wih, whh, bih, bhh *tensor.Tensor) {
	if in < 1 || hidden < 1 {
		panic(fmt.Errorf("%w: %s(%d, %d)", ErrConfig, kind, in, hidden))
	}
	wih = tensor.New(gates*hidden, in).SetRequiresGrad(true)
	whh = tensor.New(gates*hidden, hidden).SetRequiresGrad(true)
	bih = tensor.New(gates * hidden).SetRequiresGrad(true)
	bhh = tensor.New(gates * hidden).SetRequiresGrad(true)
	bound := float32(1 / math.Sqrt(float64(hidden)))
	for _, t := range []*tensor.Tensor{wih, whh, bih, bhh} {
		t.FillUniform(rng, -bound, bound)
	}
	return wih, whh, bih, bhh
}

func cellParams(wih, whh, bih, bhh *tensor.Tensor) Params {
	return Params{
		{Name: "weight_ih", Tensor: wih}, {Name: "weight_hh", Tensor: whh},
		{Name: "bias_ih", Tensor: bih}, {Name: "bias_hh", Tensor: bhh},
	}
}

// GRUCell is PyTorch's nn.GRUCell: for input x [N, in] and state h
// [N, hidden],
//
//	r = σ(Wᵢᵣx + bᵢᵣ + Wₕᵣh + bₕᵣ)
//	z = σ(Wᵢ𝓏x + bᵢ𝓏 + Wₕ𝓏h + bₕ𝓏)
//	n = tanh(Wᵢₙx + bᵢₙ + r ⊙ (Wₕₙh + bₕₙ))
//	h' = (1 − z) ⊙ n + z ⊙ h
//
// The weights stack the gates r, z, n by rows as PyTorch does:
// weight_ih [3·hidden, in], weight_hh [3·hidden, hidden], bias_ih and bias_hh
// [3·hidden], so a GRUCell state_dict loads unchanged.
type GRUCell struct {
	WeightIH, WeightHH, BiasIH, BiasHH *tensor.Tensor
}

// NewGRUCell returns a GRU cell with PyTorch's initialization: every
// parameter from U(−1/√hidden, 1/√hidden). It panics with an error wrapping
// ErrConfig if in or hidden is less than 1.
func NewGRUCell(in, hidden int, rng *rand.Rand) *GRUCell {
	c := new(GRUCell)
	c.WeightIH, c.WeightHH, c.BiasIH, c.BiasHH = newCell("GRUCell", in, hidden, 3, rng)
	return c
}

// Forward returns the next state h' [N, hidden] from x [N, in] and h
// [N, hidden] (zeros for the first step, as PyTorch's default). It panics
// with tensor.ErrShape if the shapes do not fit.
func (c *GRUCell) Forward(tp *tensor.Tape, x, h *tensor.Tensor) *tensor.Tensor {
	hs := c.WeightHH.Dim(1)
	gi := tp.Linear(x, c.WeightIH, c.BiasIH)
	gh := tp.Linear(h, c.WeightHH, c.BiasHH)
	rz := tp.Sigmoid(tp.Add(tp.Slice(gi, 1, 0, 2*hs), tp.Slice(gh, 1, 0, 2*hs)))
	r, z := tp.Slice(rz, 1, 0, hs), tp.Slice(rz, 1, hs, 2*hs)
	n := tp.Tanh(tp.Add(tp.Slice(gi, 1, 2*hs, 3*hs), tp.Mul(r, tp.Slice(gh, 1, 2*hs, 3*hs))))
	return tp.Add(n, tp.Mul(z, tp.Sub(h, n))) // (1 − z)·n + z·h
}

// Params returns weight_ih, weight_hh, bias_ih and bias_hh.
func (c *GRUCell) Params() Params { return cellParams(c.WeightIH, c.WeightHH, c.BiasIH, c.BiasHH) }

// LSTMCell is PyTorch's nn.LSTMCell: for input x [N, in] and states h, c
// [N, hidden],
//
//	i = σ(Wᵢᵢx + bᵢᵢ + Wₕᵢh + bₕᵢ)    f = σ(Wᵢ𝒻x + bᵢ𝒻 + Wₕ𝒻h + bₕ𝒻)
//	g = tanh(Wᵢ𝓰x + bᵢ𝓰 + Wₕ𝓰h + bₕ𝓰)  o = σ(Wᵢₒx + bᵢₒ + Wₕₒh + bₕₒ)
//	c' = f ⊙ c + i ⊙ g               h' = o ⊙ tanh(c')
//
// The weights stack the gates i, f, g, o by rows as PyTorch does:
// weight_ih [4·hidden, in], weight_hh [4·hidden, hidden], bias_ih and bias_hh
// [4·hidden].
type LSTMCell struct {
	WeightIH, WeightHH, BiasIH, BiasHH *tensor.Tensor
}

// NewLSTMCell returns an LSTM cell with PyTorch's initialization: every
// parameter from U(−1/√hidden, 1/√hidden). It panics with an error wrapping
// ErrConfig if in or hidden is less than 1.
func NewLSTMCell(in, hidden int, rng *rand.Rand) *LSTMCell {
	c := new(LSTMCell)
	c.WeightIH, c.WeightHH, c.BiasIH, c.BiasHH = newCell("LSTMCell", in, hidden, 4, rng)
	return c
}

// Forward returns the next states h', c' [N, hidden] from x [N, in] and h, c
// [N, hidden] (zeros for the first step). It panics with tensor.ErrShape if
// the shapes do not fit.
func (l *LSTMCell) Forward(tp *tensor.Tape, x, h, c *tensor.Tensor) (h2, c2 *tensor.Tensor) {
	hs := l.WeightHH.Dim(1)
	g := tp.Add(tp.Linear(x, l.WeightIH, l.BiasIH), tp.Linear(h, l.WeightHH, l.BiasHH))
	ifg := tp.Sigmoid(tp.Slice(g, 1, 0, 2*hs))
	i, f := tp.Slice(ifg, 1, 0, hs), tp.Slice(ifg, 1, hs, 2*hs)
	gg := tp.Tanh(tp.Slice(g, 1, 2*hs, 3*hs))
	o := tp.Sigmoid(tp.Slice(g, 1, 3*hs, 4*hs))
	c2 = tp.Add(tp.Mul(f, c), tp.Mul(i, gg))
	return tp.Mul(o, tp.Tanh(c2)), c2
}

// Params returns weight_ih, weight_hh, bias_ih and bias_hh.
func (l *LSTMCell) Params() Params { return cellParams(l.WeightIH, l.WeightHH, l.BiasIH, l.BiasHH) }
