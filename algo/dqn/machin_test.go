package dqn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// qnet is Machin's QNet in its simplest form: forward(state)
// with one linear layer, its input named "state".
type qnet struct{ fc *nn.Linear }

func newQNet(w ...float32) *qnet {
	return &qnet{fc: &nn.Linear{Weight: tensor.MustFromSlice(w, 2, 2).SetRequiresGrad(true)}}
}

var stateInput = []string{"state"}

func (q *qnet) Inputs() []string { return stateInput }
func (q *qnet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return q.fc.Forward(tp, in[0])
}
func (q *qnet) Params() nn.Params { return q.fc.Params().Prefixed("fc") }

func transition(t *testing.T, s []float32, a int64, r float64, next []float32, terminal bool) *buffer.Transition {
	t.Helper()
	tr, err := buffer.NewDefaultTransition(
		batch.MustNew("state", [][]float32{s}),
		batch.MustNew("action", [][]int64{{a}}),
		batch.MustNew("state", [][]float32{next}),
		r, terminal, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestMachinUpdate checks Machin's update on two stored transitions by
// hand, vanilla mode, γ = 0.5, Q(s) = s: transition 1 (s = (1, 2), a = 1,
// r = 1, s′ = (0.5, 3)) has y = 1 + 0.5·3 = 2.5 and Q(s, a) = 2; transition
// 2 (s = (3, 0), a = 0, r = 2, terminal) has y = 2 and Q = 3. MSE = (0.5² +
// 1²)/2 = 0.625, whatever order random_unique draws them in.
func TestMachinUpdate(t *testing.T) {
	cfg := dqn.DefaultMachinConfig()
	cfg.Mode, cfg.Discount, cfg.BatchSize = dqn.Vanilla, 0.5, 10
	q := newQNet(1, 0, 0, 1)
	m, err := dqn.NewMachin(q, newQNet(0, 0, 0, 0), 2, cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Update(); err == nil {
		t.Error("Update of an empty memory succeeded")
	}
	if err := m.StoreEpisode([]*buffer.Transition{
		transition(t, []float32{1, 2}, 1, 1, []float32{0.5, 3}, false),
		transition(t, []float32{3, 0}, 0, 2, []float32{9, 9}, true),
	}); err != nil {
		t.Fatal(err)
	}
	loss, err := m.Update()
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(loss-0.625) > 1e-6 {
		t.Errorf("loss %v, want 0.625", loss)
	}

	states := batch.MustNew("state", nd.MustNew([][]float32{{1, 5}, {4, -1}}))
	v, err := m.Criticize(states, false)
	if err != nil {
		t.Fatal(err)
	}
	if v.Dim(0) != 2 || v.Dim(1) != 2 {
		t.Fatalf("Criticize shape %v", v.Shape())
	}
	act, err := m.ActDiscrete(states, false)
	if err != nil {
		t.Fatal(err)
	}
	if act[0] != 1 || act[1] != 0 {
		t.Errorf("greedy actions %v, want [1 0]", act)
	}
	// ε = 1 at first: all random; it decays by 0.9999 per call.
	if _, err := m.ActDiscreteWithNoise(states, false); err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.Epsilon()-0.9999) > 1e-12 {
		t.Errorf("ε after one call %v", m.Epsilon())
	}
}

// TestMachinModes checks the targets of Machin's three modes through one
// update each, by hand: one transition (s = (1, 0), a = 0, r = 0, s′ = (2,
// 1)), online Q(s) = s, target Q′(s) = (s₁, 3s₀), γ = 0.5. At s′ the online
// values are (2, 1) and the target's (1, 6): vanilla y = 0.5·2, fixed
// target y = 0.5·6, double y = 0.5·1 (the target's value of the online
// argmax). With Q(s, 0) = 1 the losses are 0, 4 and 0.25.
func TestMachinModes(t *testing.T) {
	for _, tc := range []struct {
		mode dqn.Mode
		want float64
	}{{dqn.Vanilla, 0}, {dqn.FixedTarget, 4}, {dqn.Double, 0.25}} {
		cfg := dqn.DefaultMachinConfig()
		cfg.Mode, cfg.Discount = tc.mode, 0.5
		target := newQNet(0, 0, 0, 0)
		m, err := dqn.NewMachin(newQNet(1, 0, 0, 1), target, 2, cfg, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		copy(target.fc.Weight.Data(), []float32{0, 1, 3, 0}) // after NewMachin's copy
		if err := m.StoreTransition(transition(t, []float32{1, 0}, 0, 0, []float32{2, 1}, false)); err != nil {
			t.Fatal(err)
		}
		loss, err := m.Update()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(loss-tc.want) > 1e-6 {
			t.Errorf("%s: loss %v, want %v", tc.mode, loss, tc.want)
		}
	}
	cfg := dqn.DefaultMachinConfig()
	cfg.BatchSize = 0
	if _, err := dqn.NewMachin(newQNet(1, 0, 0, 1), newQNet(0, 0, 0, 0), 2, cfg, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Error("a batch size of 0 was accepted")
	}
}
