package a2c_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/optim"
)

// gradientsOnly makes StepAll stop at the gradients.
type gradientsOnly struct{ *a2c.A2C }

func (g gradientsOnly) UpdateRepeat(b *batch.Batch, _, _ int) (map[string]float64, error) {
	return g.Gradients(b)
}

// TestGradientsThenAdam: Gradients followed by an Adam step of the same
// settings gives the weights of UpdateRepeat with one minibatch of the
// whole collection (the reference) to float32 rounding (1e-7: the two
// Adams may round a step differently in the last bit), and the same loss.
func TestGradientsThenAdam(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(1, 2)))
	cfg := a2c.DefaultConfig()
	cfg.EntCoef = 0.01
	obs := algotest.Box(t, -10, 10, 4)
	ref, err := a2c.New(cfg, obs, act, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := a2c.New(cfg, obs, act, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	var l algo.Learner
	want, err := l.StepAll(ref, buf, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	wantLoss := want["loss"]
	st, err := l.StepAll(gradientsOnly{got}, buf, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st["loss"] != wantLoss {
		t.Errorf("loss %v, want %v", st["loss"], wantLoss)
	}
	adam, err := optim.NewAdam(got.Net.Params(), cfg.Optim)
	if err != nil {
		t.Fatal(err)
	}
	adam.Step()
	for i, p := range got.Net.Params() {
		for j, x := range p.Tensor.Data() {
			if w := ref.Net.Params()[i].Tensor.Data()[j]; math.Abs(float64(x-w)) > 1e-7 {
				t.Fatalf("%s[%d] = %v, want %v", p.Name, j, x, w)
			}
		}
	}
}
