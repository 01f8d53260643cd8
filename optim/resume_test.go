package optim

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// optimizer is the method set the optimizers share.
type optimizer interface {
	Step()
	ZeroGrad()
	LR() float64
	SetLR(lr float64)
	Save(w io.Writer) error
	Load(r io.Reader) error
}

// kinds makes each optimizer, in several configurations, over ps.
var kinds = []struct {
	name string
	make func(ps nn.Params) (optimizer, error)
}{
	{"adam", func(ps nn.Params) (optimizer, error) { return NewAdam(ps, DefaultAdamConfig()) }},
	{"adamw-amsgrad", func(ps nn.Params) (optimizer, error) {
		c := DefaultAdamWConfig()
		c.AMSGrad = true
		return NewAdam(ps, c)
	}},
	{"sgd-nesterov", func(ps nn.Params) (optimizer, error) {
		return NewSGD(ps, SGDConfig{LR: 0.01, Momentum: 0.9, Nesterov: true, WeightDecay: 1e-4})
	}},
	{"sgd", func(ps nn.Params) (optimizer, error) { return NewSGD(ps, SGDConfig{LR: 0.01}) }},
	{"rmsprop-centered-momentum", func(ps nn.Params) (optimizer, error) {
		c := DefaultRMSpropConfig()
		c.LR, c.Centered, c.Momentum = 1e-3, true, 0.5
		return NewRMSprop(ps, c)
	}},
}

// trainer runs deterministic steps of an MLP regression: the batch of step i
// depends only on i.
type trainer struct {
	net *nn.MLP
	ps  nn.Params
	opt optimizer
	tp  tensor.Tape
}

func newTrainer(t *testing.T, seed uint64, mk func(nn.Params) (optimizer, error)) *trainer {
	t.Helper()
	net, err := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{16, 16}, Out: 2}, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		t.Fatal(err)
	}
	tr := &trainer{net: net, ps: net.Params()}
	if tr.opt, err = mk(tr.ps); err != nil {
		t.Fatal(err)
	}
	return tr
}

func (tr *trainer) steps(from, n int) {
	for i := from; i < from+n; i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		x, y := tensor.New(8, 3), tensor.New(8, 2)
		x.FillNormal(rng, 0, 1)
		y.FillNormal(rng, 0, 1)
		tr.tp.Reset()
		loss := tr.tp.MSE(tr.net.Forward(&tr.tp, x), y)
		tr.opt.ZeroGrad()
		tr.tp.Backward(loss)
		tr.opt.Step()
	}
}

func TestResumeBitExact(t *testing.T) {
	const n, m = 7, 5
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			a := newTrainer(t, 1, k.make)
			a.steps(0, n)
			a.opt.SetLR(a.opt.LR() / 2) // a schedule's change must survive
			var model, state bytes.Buffer
			if err := nn.Save(&model, a.ps, nil); err != nil {
				t.Fatal(err)
			}
			if err := a.opt.Save(&state); err != nil {
				t.Fatal(err)
			}
			a.steps(n, m)

			b := newTrainer(t, 2, k.make) // other initial weights
			if _, err := nn.Load(&model, b.ps); err != nil {
				t.Fatal(err)
			}
			if err := b.opt.Load(&state); err != nil {
				t.Fatal(err)
			}
			if b.opt.LR() != a.opt.LR() {
				t.Errorf("learning rate %v after load, want %v", b.opt.LR(), a.opt.LR())
			}
			b.steps(n, m)
			for i := range a.ps {
				da, db := a.ps[i].Tensor.Data(), b.ps[i].Tensor.Data()
				for j := range da {
					if math.Float32bits(da[j]) != math.Float32bits(db[j]) {
						t.Fatalf("%s[%d]: %v after resuming, %v without", a.ps[i].Name, j, db[j], da[j])
					}
				}
			}
		})
	}
}

func TestLoadStateErrors(t *testing.T) {
	a := newTrainer(t, 1, kinds[0].make)
	a.steps(0, 2)
	var good bytes.Buffer
	if err := a.opt.Save(&good); err != nil {
		t.Fatal(err)
	}
	// Another optimizer, another configuration, another network.
	sgd := newTrainer(t, 1, kinds[3].make)
	if err := sgd.opt.Load(bytes.NewReader(good.Bytes())); !errors.Is(err, ErrState) {
		t.Errorf("SGD loading Adam's state: %v, want ErrState", err)
	}
	ams := newTrainer(t, 1, kinds[1].make)
	if err := ams.opt.Load(bytes.NewReader(good.Bytes())); !errors.Is(err, ErrState) {
		t.Errorf("AMSGrad Adam loading plain Adam's state: %v, want ErrState", err)
	}
	net, _ := nn.NewMLP(nn.MLPConfig{In: 3, Hidden: []int{8}, Out: 2}, rand.New(rand.NewPCG(1, 1)))
	other, _ := NewAdam(net.Params(), DefaultAdamConfig())
	if err := other.Load(bytes.NewReader(good.Bytes())); !errors.Is(err, ErrState) {
		t.Errorf("loading into other parameters: %v, want ErrState", err)
	}
	// A corrupt file is a format error, and the optimizer is unchanged.
	b := newTrainer(t, 1, kinds[0].make)
	before := slotsCopy(b.opt.(*Adam).slots)
	if err := b.opt.Load(bytes.NewReader(good.Bytes()[:good.Len()-3])); !errors.Is(err, nn.ErrFormat) {
		t.Errorf("truncated state: %v, want nn.ErrFormat", err)
	}
	bad := strings.Replace(good.String(), `"steps":"[2,`, `"steps":"[-1`, 1) // same length
	if bad == good.String() {
		t.Fatal("the step counts are not where the test expects them")
	}
	if err := b.opt.Load(strings.NewReader(bad)); !errors.Is(err, ErrState) {
		t.Errorf("negative step: %v, want ErrState", err)
	}
	after := slotsCopy(b.opt.(*Adam).slots)
	for i := range before {
		if before[i] != after[i] {
			t.Fatalf("failed loads changed the state at %d", i)
		}
	}
}

func slotsCopy(ss []slot) []float32 {
	var out []float32
	for _, s := range ss {
		out = append(out, float32(s.step))
		for _, b := range s.buf {
			out = append(out, b...)
		}
	}
	return out
}

// TestStepNoAlloc locks the optimizers' steps, and a whole DQN update
// through nn and optim (as Example_dqnUpdate writes it), at zero allocations.
// The race detector allocates on its own, so it is skipped under -race.
func TestStepNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, k := range kinds {
		tr := newTrainer(t, 1, k.make)
		tr.steps(0, 2)
		if n := testing.AllocsPerRun(10, func() { tr.opt.Step(); tr.opt.ZeroGrad() }); n != 0 {
			t.Errorf("%s: Step allocates %v times", k.name, n)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	cfg := nn.MLPConfig{In: 4, Hidden: []int{16}, Out: 2}
	online, _ := nn.NewMLP(cfg, rng)
	target, _ := nn.NewMLP(cfg, rng)
	ps, tps := online.Params(), target.Params()
	opt, err := NewAdam(ps, DefaultAdamConfig())
	if err != nil {
		t.Fatal(err)
	}
	obs, next, rew := tensor.New(8, 4), tensor.New(8, 4), tensor.New(8)
	obs.FillNormal(rng, 0, 1)
	next.FillNormal(rng, 0, 1)
	act := []int{0, 1, 0, 1, 1, 0, 0, 1}
	var tp tensor.Tape
	update := func() {
		tp.Reset()
		prev := tp.SetGradEnabled(false)
		y := tp.Add(rew, tp.MulScalar(tp.MaxAxis(target.Forward(&tp, next), 1, false), 0.99))
		tp.SetGradEnabled(prev)
		loss := tp.Huber(tp.Gather(online.Forward(&tp, obs), 1, act), y, 1)
		opt.ZeroGrad()
		tp.Backward(loss)
		ClipGradNorm(ps, 10)
		opt.Step()
		if err := nn.SoftUpdate(tps, ps, 0.005); err != nil {
			t.Fatal(err)
		}
	}
	update()
	if n := testing.AllocsPerRun(10, update); n != 0 {
		t.Errorf("a DQN update allocates %v times", n)
	}
}

// FuzzLoadState checks that loading any bytes as an Adam state never panics
// and changes nothing unless it succeeds.
func FuzzLoadState(f *testing.F) {
	net, err := nn.NewMLP(nn.MLPConfig{In: 2, Hidden: []int{3}, Out: 1}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		f.Fatal(err)
	}
	opt, err := NewAdam(net.Params(), DefaultAdamConfig())
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := opt.Save(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, _ := NewAdam(net.Params(), DefaultAdamConfig())
		before, cfg := slotsCopy(o.slots), o.Config()
		if err := o.Load(bytes.NewReader(data)); err != nil {
			if after := slotsCopy(o.slots); !slicesEqual(before, after) || o.Config() != cfg {
				t.Fatalf("state changed on error %v", err)
			}
			return
		}
		if err := o.Config().Validate(); err != nil {
			t.Fatalf("loaded an invalid configuration: %v", err)
		}
	})
}

func slicesEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
