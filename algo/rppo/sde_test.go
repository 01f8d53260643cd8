package rppo_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// sdeConfig returns a small recurrent PPO with state-dependent exploration:
// a GRU of 6, head layers headHidden, sequences of seqLen, a new matrix
// every freq samples.
func sdeConfig(headHidden []int, seqLen, freq int) rppo.Config {
	cfg := rppo.DefaultConfig()
	cfg.Hidden, cfg.HeadHidden, cfg.SeqLen = 6, headHidden, seqLen
	cfg.SDE, cfg.SDESampleFreq, cfg.LogStdInit = true, freq, -0.5
	return cfg
}

func newSDE(t testing.TB, cfg rppo.Config, act env.Space, rng *rand.Rand) *rppo.RPPO {
	t.Helper()
	r, err := rppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCheckSDE runs the checks of every on-policy algorithm (determinism,
// resume with the exploration matrices, no allocation in an update) with
// state-dependent exploration, its features from a head layer and from
// the cell.
func TestCheckSDE(t *testing.T) {
	for _, hh := range [][]int{{5}, nil} {
		t.Run(fmt.Sprintf("head_hidden=%v", hh), func(t *testing.T) {
			mk := func(hidden int) func(t testing.TB, act env.Space, rng *rand.Rand) *rppo.RPPO {
				return func(t testing.TB, act env.Space, rng *rand.Rand) *rppo.RPPO {
					cfg := sdeConfig(hh, 4, 3)
					// The collections' actions are uniform in the Box, not
					// the policy's: a wide σ keeps their log-densities,
					// and the ratios of an update, moderate.
					cfg.Hidden, cfg.LogStdInit = hidden, 1
					return newSDE(t, cfg, act, rng)
				}
			}
			algotest.CheckOnPolicy(t, algotest.OnPolicy[*rppo.RPPO]{
				New:    mk(6),
				Params: func(r *rppo.RPPO) nn.Params { return r.Net().Params() },
				Other: func(t testing.TB, act env.Space) *rppo.RPPO {
					return mk(7)(t, act, rand.New(rand.NewPCG(1, 1)))
				},
				Acts: []env.Space{algotest.Box(t, -2, 2, 2), algotest.Box(t, -1, 1, 1)},
			})
		})
	}
}

// TestSDELayout checks which features the SDEHead reads and the parameters
// it brings: the last head layer's output (its width the last of
// head_hidden) or, without head layers, the GRU's h (the cell's width);
// σ per feature and action dimension ("sde.log_std" [features, m]) in
// place of the state-independent "log_std", the mean layer
// ("sde.mean.weight" [m, features]), no "actor" layer without head layers,
// and all of them among the parameters the policy acts with.
func TestSDELayout(t *testing.T) {
	const m = 2
	for _, c := range []struct {
		headHidden []int
		features   int
		actor      bool
	}{
		{[]int{5}, 5, true},
		{[]int{5, 3}, 3, true},
		{nil, 6, false},
	} {
		name := fmt.Sprintf("head_hidden=%v", c.headHidden)
		r := newSDE(t, sdeConfig(c.headHidden, 4, 0), algotest.Box(t, -1, 1, m), rand.New(rand.NewPCG(1, 2)))
		want := map[string][]int{"sde.log_std": {c.features, m}, "sde.mean.weight": {m, c.features}, "sde.mean.bias": {m}}
		actor := false
		for n, p := range r.Policy().Params().All() {
			if s, ok := want[n]; ok {
				if !slices.Equal(p.Shape(), s) {
					t.Errorf("%s: %s of shape %v; want %v", name, n, p.Shape(), s)
				}
				delete(want, n)
			}
			if n == "log_std" {
				t.Errorf("%s: a state-independent log_std beside the SDEHead", name)
			}
			actor = actor || len(n) > 6 && n[:6] == "actor."
		}
		if len(want) > 0 {
			t.Errorf("%s: the policy lacks %v", name, want)
		}
		if actor != c.actor {
			t.Errorf("%s: actor layers %v; want %v", name, actor, c.actor)
		}
		if got := r.Net().SDE.InputWidth(); got != c.features {
			t.Errorf("%s: the SDEHead reads %d features; want %d", name, got, c.features)
		}
		for _, v := range r.Net().SDE.LogStd.Data() {
			if v != -0.5 {
				t.Fatalf("%s: log σ starts at %v; want log_std_init −0.5", name, v)
			}
		}
	}
}

// TestSDELogProb checks that the old log-probabilities Preprocess stores,
// the denominators of PPO's ratio, are those of the state-dependent
// Gaussian: with sequences of one step from the zero state (the
// collection stores none), the features z of a row are the actor's output
// after one step of the cell, and the log-density of its action is that
// of a Normal per dimension j with mean bⱼ + Σₗ Wⱼₗzₗ and variance
// Σₗ zₗ²σₗⱼ² + 10⁻⁶ (the SDEHead's definition), computed here in float64.
// The first update then starts at ratio 1: its clip loss is −mean(Â), 0
// for normalized advantages.
func TestSDELogProb(t *testing.T) {
	for _, hh := range [][]int{{5}, nil} {
		name := fmt.Sprintf("head_hidden=%v", hh)
		act := algotest.Box(t, -2, 2, 2)
		r := newSDE(t, sdeConfig(hh, 1, 0), act, rand.New(rand.NewPCG(3, 4)))
		buf := algotest.Collection(t, 3, 20, act, rand.New(rand.NewPCG(5, 6)))
		b, idx := algotest.Take(t, buf)
		if err := r.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		lp, err := b.Array(batch.KeyLogpOld)
		if err != nil {
			t.Fatal(err)
		}
		obs, _ := b.Array(batch.KeyObs)
		acts, _ := b.Array(batch.KeyAct)
		n, net := len(idx), r.Net()
		x := tensor.New(n, 4)
		if err := nd.CopyTo(x.ND(), obs); err != nil {
			t.Fatal(err)
		}
		var tp tensor.Tape
		tp.SetGradEnabled(false)
		z := net.ActorOut(&tp, net.Step(&tp, x, tensor.New(n, net.StateWidth()))).Data()
		h := net.SDE.InputWidth()
		W, bias, ls := net.SDE.Mean.Weight.Data(), net.SDE.Mean.Bias.Data(), net.SDE.LogStd.Data()
		a, got := nd.Data[float32](acts), nd.Data[float32](lp)
		for i := range n {
			want := 0.0
			for j := range 2 {
				mu, variance := float64(bias[j]), 1e-6
				for l := range h {
					zl := float64(z[i*h+l])
					mu += float64(W[j*h+l]) * zl
					variance += zl * zl * math.Exp(2*float64(ls[l*2+j]))
				}
				d := float64(a[i*2+j]) - mu
				want += -d*d/(2*variance) - 0.5*math.Log(2*math.Pi*variance)
			}
			if math.Abs(float64(got[i])-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Fatalf("%s: row %d: logp_old %v; want %v", name, i, got[i], want)
			}
		}
		st, err := r.UpdateRepeat(b, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(st["clip_loss"]) > 1e-5 {
			t.Errorf("%s: first clip_loss %v; want 0 (ratio 1, normalized advantages)", name, st["clip_loss"])
		}
	}
}

// TestSDEGrad checks against finite differences the gradients of the
// paths the SDEHead adds: the Gaussian's mean through the mean layer, the
// head layer and the GRU, and the log-density plus entropy of fixed
// actions in log σ and the mean layer (the features enter the variance
// without gradient, so the cell's weights are checked through the mean
// only).
func TestSDEGrad(t *testing.T) {
	act := algotest.Box(t, -2, 2, 2)
	r := newSDE(t, sdeConfig([]int{5}, 4, 0), act, rand.New(rand.NewPCG(7, 8)))
	net := r.Net()
	x := tensor.MustFromSlice([]float32{0.5, -1, 0.25, 2, 0, 0.3, -0.7, 1, 1.5, 0.1, 0, -0.2}, 3, 4)
	h0 := tensor.New(3, net.StateWidth())
	for i := range h0.Data() {
		h0.Data()[i] = float32(math.Sin(float64(i))) * 0.5
	}
	value := tensor.MustFromSlice([]float32{0.3, -1.2, 2, 0.1, 0.5, -0.4}, 3, 2)
	param := func(name string) *tensor.Tensor {
		for n, p := range net.Params().All() {
			if n == name {
				return p
			}
		}
		t.Fatalf("no parameter %s", name)
		return nil
	}
	d := net.SDE.New()
	dist := func(tp *tensor.Tape) {
		if err := net.SetDist(d, tp, net.ActorOut(tp, net.Step(tp, x, h0))); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		f      tensortest.Func
		params []string
	}{
		{"mean", func(tp *tensor.Tape, _ []*tensor.Tensor) *tensor.Tensor {
			dist(tp)
			return d.Mode()
		}, []string{"gru.weight_ih", "gru.weight_hh", "actor.0.weight", "sde.mean.weight", "sde.mean.bias"}},
		{"log-density and entropy", func(tp *tensor.Tape, _ []*tensor.Tensor) *tensor.Tensor {
			dist(tp)
			return tp.Add(d.LogProb(value), d.(interface{ Entropy() *tensor.Tensor }).Entropy())
		}, []string{"sde.log_std", "sde.mean.weight", "sde.mean.bias"}},
	} {
		var in []*tensor.Tensor
		for _, n := range c.params {
			in = append(in, param(n))
		}
		if err := tensortest.CheckGrad(c.f, in, tensortest.Config{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestSDENoiseRedraw checks when the policy's exploration matrices are
// redrawn: acting on the same observations from the zero state, the
// sampled actions stay equal while a matrix is kept and change when it is
// redrawn, every sde_sample_freq samples and at the first sample after a
// Preprocess (the start of the next collection); acting without the
// training-step flag gives the mode and does not count as a sample.
func TestSDENoiseRedraw(t *testing.T) {
	act := algotest.Box(t, -2, 2, 2)
	obs := batch.MustNew(batch.KeyObs, nd.Zeros(nd.Float32, 3, 4))
	for _, c := range []struct {
		freq int
		// the steps: 's' a sample, 'm' a mode, 'p' a Preprocess; and
		// whether each sample differs from the one before
		steps string
		new   []bool
	}{
		{3, "ssssss", []bool{true, false, false, true, false, false}},
		{3, "ssmsps", []bool{true, false, false, true}},
		{3, "spspss", []bool{true, true, true, false}},
		{0, "ssss", []bool{true, true, true, true}},
		{1, "ssps", []bool{true, true, true}},
	} {
		name := fmt.Sprintf("freq=%d/%s", c.freq, c.steps)
		r := newSDE(t, sdeConfig([]int{5}, 4, c.freq), act, rand.New(rand.NewPCG(1, 2)))
		buf := algotest.Collection(t, 2, 10, act, rand.New(rand.NewPCG(3, 4)))
		b, idx := algotest.Take(t, buf)
		p := r.Policy()
		var prev []float32
		var got []bool
		for _, s := range c.steps {
			if s == 'p' {
				if err := r.Preprocess(b, buf, idx); err != nil {
					t.Fatal(err)
				}
				continue
			}
			p.SetTrainingStep(s == 's')
			var out batch.Batch
			if err := p.Act(&out, obs, nil, true); err != nil {
				t.Fatal(err)
			}
			a, _ := out.Array(batch.KeyAct)
			if s == 'm' {
				continue
			}
			cur := slices.Clone(nd.Data[float32](a))
			got = append(got, !slices.Equal(cur, prev))
			prev = cur
		}
		if !slices.Equal(got, c.new) {
			t.Errorf("%s: new noise at the samples %v; want %v", name, got, c.new)
		}
	}
}
