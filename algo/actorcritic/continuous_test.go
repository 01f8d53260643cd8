package actorcritic_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// squashedLogProb64 is log p(a) of Independent(TanhNormal(μ, exp(clamp(ls))), 1)
// for one row, in float64 from the change of variables a = tanh(u):
// Σⱼ log N(uⱼ; μⱼ, σⱼ²) − log(1 − aⱼ²), u = atanh(a).
func squashedLogProb64(mu, ls, a []float64) float64 {
	var s float64
	for j := range a {
		l := math.Min(math.Max(ls[j], actorcritic.LogStdMin), actorcritic.LogStdMax)
		sigma := math.Exp(l)
		u := math.Atanh(a[j])
		z := (u - mu[j]) / sigma
		s += -0.5*z*z - l - 0.5*math.Log(2*math.Pi) - math.Log(1-a[j]*a[j])
	}
	return s
}

// TestSquashedHeadLogProb checks the head's log-probability against the
// float64 formula and its gradient with respect to the network output (μ
// and log σ) against central differences of that formula.
func TestSquashedHeadLogProb(t *testing.T) {
	for _, tc := range []struct {
		name   string
		out    []float32 // [μ₀ μ₁ ls₀ ls₁]
		action []float32
	}{
		{"centred", []float32{0, 0, 0, 0}, []float32{0.3, -0.5}},
		{"shifted", []float32{0.7, -1.2, -0.5, 0.4}, []float32{0.9, -0.95}},
		{"clamped log σ", []float32{0.1, 0.2, 3, -0.3}, []float32{-0.2, 0.6}}, // 3 clamps to 2: no gradient
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := actorcritic.NewSquashedHead(2, false, 0)
			var tp tensor.Tape
			out := tensor.MustFromSlice(append([]float32(nil), tc.out...), 1, 4).SetRequiresGrad(true)
			d := h.New()
			if err := h.Set(d, &tp, out); err != nil {
				t.Fatal(err)
			}
			lp := d.LogProb(tensor.MustFromSlice(tc.action, 1, 2))
			f64 := func(o []float64) float64 {
				a := []float64{float64(tc.action[0]), float64(tc.action[1])}
				return squashedLogProb64(o[:2], o[2:], a)
			}
			o := make([]float64, 4)
			for i, v := range tc.out {
				o[i] = float64(v)
			}
			if want := f64(o); !scalar.EqualWithinAbsOrRel(float64(lp.Item()), want, 1e-4, 1e-5) {
				t.Errorf("log p = %v, want %v", lp.Item(), want)
			}
			tp.Backward(tp.Sum(lp))
			const h64 = 1e-6
			for i := range o {
				p, m := append([]float64(nil), o...), append([]float64(nil), o...)
				p[i] += h64
				m[i] -= h64
				want := (f64(p) - f64(m)) / (2 * h64)
				if got := float64(out.Grad()[i]); !scalar.EqualWithinAbsOrRel(got, want, 1e-3, 1e-3) {
					t.Errorf("∂log p/∂out[%d] = %v, central difference %v", i, got, want)
				}
			}
		})
	}
}

// TestSquashedHeadSample checks that samples lie in (−1, 1), that the mode
// is tanh(μ), and that a free log σ is the head's parameter.
func TestSquashedHeadSample(t *testing.T) {
	h := actorcritic.NewSquashedHead(3, true, -1)
	if h.Width() != 3 || len(h.Params()) != 1 {
		t.Fatalf("free head: width %d, %d params; want 3, 1", h.Width(), len(h.Params()))
	}
	var tp tensor.Tape
	mu := tensor.MustFromSlice([]float32{5, -5, 0.5, 0, 1, -1}, 2, 3)
	d := h.New()
	if err := h.Set(d, &tp, mu); err != nil {
		t.Fatal(err)
	}
	for i, v := range d.Mode().Data() {
		if want := math.Tanh(float64(mu.Data()[i])); !scalar.EqualWithinAbs(float64(v), want, 1e-6) {
			t.Errorf("mode[%d] = %v, want tanh(μ) = %v", i, v, want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		for _, v := range d.(*distribution.Independent).RSample(rng).Data() {
			if !(v > -1 && v < 1) && !(v == 1 || v == -1) {
				t.Fatalf("sample %v outside [−1, 1]", v)
			}
		}
	}
}

// TestCriticsStep checks the critics' loss Σᵢ mean((Qᵢ − y)²) on a batch of
// 3 against float64 arithmetic in the test, with linear critics (no hidden
// layer) whose weights are set by hand, and that their targets start equal.
func TestCriticsStep(t *testing.T) {
	for _, later := range []bool{false, true} {
		cfg := actorcritic.CriticConfig{}
		if later {
			cfg.Hidden = []int{2}
			cfg.ActionLater = true
		}
		c, err := actorcritic.NewCritics(2, cfg, 2, 1, actorcritic.Training{Optim: adam()}, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		if c.Len() != 2 || !equal(c.Params(), c.TargetParams()) {
			t.Fatal("targets do not start as copies")
		}
		obs := []float64{1, 2, -1, 0.5, 0, 3}
		act := []float64{0.5, -1, 0.25}
		y := []float64{1, -2, 0.5}
		want := 0.0
		for _, q := range c.Online {
			for k := range 3 {
				diff := forwardQ(q.Params(), later, obs[2*k:2*k+2], act[k]) - y[k]
				want += diff * diff / 3
			}
		}
		var tp tensor.Tape
		got := c.Step(&tp, f32(obs, 3, 2), f32(act, 3, 1), f32(y, 3))
		if !scalar.EqualWithinAbsOrRel(got, want, 1e-5, 1e-5) {
			t.Errorf("action later %v: loss %v, want %v", later, got, want)
		}
		if equal(c.Params(), c.TargetParams()) {
			t.Error("a step left the critics equal to their targets")
		}
	}
}

// forwardQ evaluates a QCritic in float64 from its parameters: a linear
// layer on [s, a], or with later ReLU(W₁s + b₁) joined with a and a linear
// layer.
func forwardQ(ps interface {
	Lookup(string) *tensor.Tensor
}, later bool, s []float64, a float64) float64 {
	lin := func(w, b *tensor.Tensor, x []float64) []float64 {
		out := make([]float64, b.Len())
		for o := range out {
			v := float64(b.Data()[o])
			for i, xi := range x {
				v += float64(w.Data()[o*len(x)+i]) * xi
			}
			out[o] = v
		}
		return out
	}
	if !later {
		return lin(ps.Lookup("0.weight"), ps.Lookup("0.bias"), append(append([]float64(nil), s...), a))[0]
	}
	h := lin(ps.Lookup("first.weight"), ps.Lookup("first.bias"), s)
	for i := range h {
		h[i] = math.Max(h[i], 0)
	}
	return lin(ps.Lookup("rest.0.weight"), ps.Lookup("rest.0.bias"), append(h, a))[0]
}

func adam() optim.AdamConfig { o := optim.DefaultAdamConfig(); o.LR = 1e-2; return o }

func equal(a, b nn.Params) bool {
	for i := range a {
		if !slices.Equal(a[i].Tensor.Data(), b[i].Tensor.Data()) {
			return false
		}
	}
	return len(a) == len(b)
}

func f32(v []float64, shape ...int) *tensor.Tensor {
	d := make([]float32, len(v))
	for i, x := range v {
		d[i] = float32(x)
	}
	return tensor.MustFromSlice(d, shape...)
}
