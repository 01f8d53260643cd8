package ppo

import (
	"testing"

	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// TestLossGrad checks the gradients of the clipped objective (with and
// without the dual clip) with respect to the log-probabilities, and of the
// value loss (with and without clipping) with respect to the values,
// against finite differences. The points lie away from the kinks of min,
// max and clip: ratios e^(logp − logp_old) of 0.5, 1.1, 1.5 and 3 with ε =
// 0.2, advantages of both signs.
func TestLossGrad(t *testing.T) {
	logpOld := tensor.MustFromSlice([]float32{0, 0, 0, 0, 0, 0}, 6)
	adv := tensor.MustFromSlice([]float32{1, -1, 0.5, -2, 1.5, -0.7}, 6)
	logp := tensor.MustFromSlice([]float32{-0.693, 0.095, 0.405, 1.099, 0.095, -0.693}, 6)
	for _, dual := range []float64{0, 2} {
		p := &PPO{cfg: DefaultConfig()}
		p.cfg.DualClip = dual
		f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
			return p.clipLoss(tp, in[0], logpOld, adv)
		}
		if err := tensortest.CheckGrad(f, []*tensor.Tensor{logp}, tensortest.Config{}); err != nil {
			t.Errorf("dual clip %v: %v", dual, err)
		}
	}
	ret := tensor.MustFromSlice([]float32{1, -2, 0.5, 3}, 4)
	vOld := tensor.MustFromSlice([]float32{-0.5, -1, 0.4, 2}, 4)
	v := tensor.MustFromSlice([]float32{0.1, -1.5, 0.9, 2.05}, 4)
	rows := []int{0, 1, 2, 3}
	for _, clip := range []bool{false, true} {
		p := &PPO{cfg: DefaultConfig()}
		p.cfg.ValueClip = clip
		f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
			return p.valueLoss(tp, in[0], ret, vOld, rows)
		}
		if err := tensortest.CheckGrad(f, []*tensor.Tensor{v}, tensortest.Config{}); err != nil {
			t.Errorf("value clip %v: %v", clip, err)
		}
	}
}
