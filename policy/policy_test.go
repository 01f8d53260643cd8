package policy_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// The policies satisfy the collector's acting interfaces.
var (
	_ collector.Policy       = (*policy.Q)(nil)
	_ collector.Policy       = (*policy.Actor)(nil)
	_ collector.ActionMapper = (*policy.Actor)(nil)
	_ policy.ActionMapper    = (*policy.BoxMap)(nil)
)

// linear returns an ObsNet of one Linear layer with the given weight rows
// and no bias: output j of observation x is Σᵢ w[j][i]·x[i].
func linear(w [][]float32) policy.ObsNet { return policy.ObsNet{Layer: algotest.Linear(w...)} }

func obsBatch(t testing.TB, rows [][]float32) *batch.Batch {
	t.Helper()
	return batch.MustNew("obs", nd.MustNew(rows))
}

func acts(t testing.TB, b *batch.Batch) []int64 {
	t.Helper()
	a, err := b.Array("act")
	if err != nil {
		t.Fatal(err)
	}
	return nd.ToSlice[int64](a)
}

// The network of the Q tests maps an observation (x, y) to the Q-values
// (x, y, −x): the greedy action of (1, 0) is 0, of (0, 1) is 1, of (−1, 0)
// is 2.
var qWeights = [][]float32{{1, 0}, {0, 1}, {-1, 0}}

func TestQGreedy(t *testing.T) {
	p, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obs := obsBatch(t, [][]float32{{1, 0}, {0, 1}, {-1, 0}, {0.5, 0.5}})
	var dst batch.Batch
	// Without explore, ε does not matter; the tie (0.5, 0.5, −0.5) goes to
	// the first action.
	if err := p.SetEps(1, 1); err != nil {
		t.Fatal(err)
	}
	for _, training := range []bool{false, true} {
		p.SetTrainingStep(training)
		if err := p.Act(&dst, obs, nil, false); err != nil {
			t.Fatal(err)
		}
		if got, want := acts(t, &dst), []int64{0, 1, 2, 0}; !slices.Equal(got, want) {
			t.Errorf("training %v: greedy actions %v, want %v", training, got, want)
		}
	}
}

func TestQStart(t *testing.T) {
	// Discrete(3, start=−1): actions −1, 0, 1.
	p, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 3, -1), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var dst batch.Batch
	if err := p.Act(&dst, obsBatch(t, [][]float32{{1, 0}, {-1, 0}}), nil, true); err != nil {
		t.Fatal(err)
	}
	if got, want := acts(t, &dst), []int64{-1, 1}; !slices.Equal(got, want) {
		t.Errorf("actions %v, want %v", got, want)
	}
}

// TestQEpsilon checks ε-greedy: the rate of random actions follows εTrain or
// εTest with the training-step flag, and random actions are uniform.
func TestQEpsilon(t *testing.T) {
	p, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetEps(0.5, 0); err != nil {
		t.Fatal(err)
	}
	rows := make([][]float32, 3000)
	for i := range rows {
		rows[i] = []float32{1, 0} // greedy action 0
	}
	obs := obsBatch(t, rows)
	var dst batch.Batch

	p.SetTrainingStep(false) // εTest = 0: greedy
	if err := p.Act(&dst, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	for _, a := range acts(t, &dst) {
		if a != 0 {
			t.Fatalf("ε = 0 chose action %d", a)
		}
	}

	p.SetTrainingStep(true) // εTrain = 0.5: action 0 with probability 0.5 + 0.5/3
	if err := p.Act(&dst, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	var count [3]float64
	for _, a := range acts(t, &dst) {
		count[a]++
	}
	// Expected counts 2000, 500, 500; χ² with 2 degrees of freedom below
	// 13.8 (p = 0.001) at this fixed seed.
	want := [3]float64{2000, 500, 500}
	chi := 0.0
	for i := range count {
		chi += (count[i] - want[i]) * (count[i] - want[i]) / want[i]
	}
	if chi > 13.8 {
		t.Errorf("action counts %v, want about %v (χ² = %.1f)", count, want, chi)
	}
	if err := p.SetEps(1.5, 0); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("SetEps(1.5, 0) = %v, want ErrConfig", err)
	}
	if tr, te := p.Eps(); tr != 0.5 || te != 0 {
		t.Errorf("a refused SetEps changed ε to %v, %v", tr, te)
	}
}

func TestQErrors(t *testing.T) {
	if _, err := policy.NewQ(linear(qWeights), algotest.Box(t, -1, 1, 2), rand.New(rand.NewPCG(1, 1))); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("NewQ with a Box: %v, want ErrConfig", err)
	}
	p, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 2, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	var dst batch.Batch
	if err := p.Act(&dst, batch.MustNew("x", []float32{1}), nil, false); !errors.Is(err, policy.ErrObs) {
		t.Errorf("Act without obs: %v, want ErrObs", err)
	}
	// Three Q-values for a Discrete(2) space.
	if err := p.Act(&dst, obsBatch(t, [][]float32{{1, 0}}), nil, false); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("Act with 3 outputs for 2 actions: %v, want ErrConfig", err)
	}
}

// TestQAllocations locks acting at zero allocations once dst holds its
// arrays.
func TestQAllocations(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	mlp, err := nn.NewMLP(nn.MLPConfig{In: 4, Hidden: []int{64, 64}, Out: 2}, rng)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.NewQ(policy.ObsNet{Layer: mlp}, algotest.Discrete(t, 2, 0), rng)
	if err != nil {
		t.Fatal(err)
	}
	p.SetEps(0.1, 0.05)
	p.SetTrainingStep(true)
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 8, 4))
	var dst batch.Batch
	act := func() {
		if err := p.Act(&dst, obs, nil, true); err != nil {
			t.Fatal(err)
		}
	}
	act()
	if a := testing.AllocsPerRun(50, act); a != 0 {
		t.Errorf("Q.Act: %v allocations", a)
	}

	actor, err := policy.NewActor(policy.ObsNet{Layer: mlp}, policy.CategoricalHead{}, algotest.Discrete(t, 2, 0), rng, policy.ActorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var adst batch.Batch
	aact := func() {
		if err := actor.Act(&adst, obs, nil, true); err != nil {
			t.Fatal(err)
		}
	}
	aact()
	if a := testing.AllocsPerRun(50, aact); a != 0 {
		t.Errorf("Actor.Act: %v allocations", a)
	}
}

// TestActorCategorical checks sampling frequencies, deterministic
// evaluation, and that Dist gives gradients to the network.
func TestActorCategorical(t *testing.T) {
	// Logits (log 1, log 2, log 5) for the observation (1): probabilities
	// 0.125, 0.25, 0.625.
	net := linear([][]float32{{0}, {float32(math.Log(2))}, {float32(math.Log(5))}})
	p, err := policy.NewActor(net, policy.CategoricalHead{}, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(4, 5)),
		policy.ActorConfig{DeterministicEval: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]float32, 4000)
	for i := range rows {
		rows[i] = []float32{1}
	}
	obs := obsBatch(t, rows)
	var dst batch.Batch
	p.SetTrainingStep(true)
	if err := p.Act(&dst, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	var count [3]float64
	for _, a := range acts(t, &dst) {
		count[a]++
	}
	// Expected 500, 1000, 2500; χ² (2 degrees of freedom) below 13.8.
	want := [3]float64{500, 1000, 2500}
	chi := 0.0
	for i := range count {
		chi += (count[i] - want[i]) * (count[i] - want[i]) / want[i]
	}
	if chi > 13.8 {
		t.Errorf("sampled counts %v, want about %v (χ² = %.1f)", count, want, chi)
	}
	p.SetTrainingStep(false)
	if err := p.Act(&dst, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	for _, a := range acts(t, &dst) {
		if a != 2 {
			t.Fatalf("deterministic evaluation chose %d, want the mode 2", a)
		}
	}

	// The gradient of log p(2) with respect to the logits is onehot(2) −
	// p = (−0.125, −0.25, 0.375), and the weights see it times x = 1.
	var tp tensor.Tape
	d, err := p.Dist(&tp, obsBatch(t, [][]float32{{1}}))
	if err != nil {
		t.Fatal(err)
	}
	logp := d.LogProb(tensor.MustFromSlice([]float32{2}, 1))
	tp.Backward(tp.Sum(logp))
	grad := p.Params()[0].Tensor.Grad()
	for i, w := range []float64{-0.125, -0.25, 0.375} {
		if math.Abs(float64(grad[i])-w) > 1e-6 {
			t.Errorf("gradient %v, want (−0.125, −0.25, 0.375)", grad)
			break
		}
	}
}

// TestBoxMap checks the mappings by hand on a Box [−2, 2] × [0, 10].
func TestBoxMap(t *testing.T) {
	box, err := env.NewBox([]float64{-2, 0}, []float64{2, 10}, nil, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	raw := nd.MustNew([][]float32{{-3, 0.5}, {0.5, 3}})
	for _, tc := range []struct {
		cfg  policy.BoxMapConfig
		want [][]float64
	}{
		// No mapping.
		{policy.BoxMapConfig{}, [][]float64{{-3, 0.5}, {0.5, 3}}},
		// Clip to the bounds.
		{policy.BoxMapConfig{Bound: policy.Clip}, [][]float64{{-2, 0.5}, {0.5, 3}}},
		// Clip to [−1, 1], then scale: −2 + 4·(a + 1)/2 and 10·(a + 1)/2.
		{policy.BoxMapConfig{Bound: policy.Clip, Scale: true}, [][]float64{{-2, 7.5}, {1, 10}}},
		// tanh, then scale.
		{policy.BoxMapConfig{Bound: policy.Tanh, Scale: true}, [][]float64{
			{-2 + 2*(math.Tanh(-3)+1), 5 * (math.Tanh(0.5) + 1)},
			{-2 + 2*(math.Tanh(0.5)+1), 5 * (math.Tanh(3) + 1)}}},
	} {
		m, err := policy.NewBoxMap(box, tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		dst := nd.Zeros(nd.Float32, 2, 2)
		if err := m.MapActionTo(dst, raw); err != nil {
			t.Fatal(err)
		}
		got := nd.ToSlice[float32](dst)
		for i, w := range append(tc.want[0], tc.want[1]...) {
			if math.Abs(float64(got[i])-w) > 1e-5 {
				t.Errorf("%+v: mapped %v, want %v", tc.cfg, got, tc.want)
				break
			}
		}
		if tc.cfg.Bound == policy.Clip {
			continue // clipping has no inverse
		}
		back := nd.Zeros(nd.Float32, 2, 2)
		if err := m.UnmapActionTo(back, dst); err != nil {
			t.Fatal(err)
		}
		for i, w := range nd.ToSlice[float32](raw) {
			if math.Abs(float64(nd.ToSlice[float32](back)[i]-w)) > 1e-3 {
				t.Errorf("%+v: unmapped %v, want %v", tc.cfg, back, raw)
				break
			}
		}
	}
	if _, err := policy.NewBoxMap(box, policy.BoxMapConfig{Bound: "sigmoid"}); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("unknown bound: %v, want ErrConfig", err)
	}
	inf, _ := env.NewBox(math.Inf(-1), math.Inf(1), []int{1}, nd.Float32)
	if _, err := policy.NewBoxMap(inf, policy.BoxMapConfig{Scale: true}); !errors.Is(err, policy.ErrConfig) {
		t.Errorf("scaling an unbounded Box: %v, want ErrConfig", err)
	}
	m, _ := policy.NewBoxMap(box, policy.BoxMapConfig{})
	if err := m.MapActionTo(nd.Zeros(nd.Float32, 2, 3), raw); !errors.Is(err, policy.ErrAction) {
		t.Errorf("mapping into [2, 3]: %v, want ErrAction", err)
	}
}

func TestComputeAction(t *testing.T) {
	p, err := policy.NewQ(linear(qWeights), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	a, err := policy.ComputeAction(p, nd.MustNew([]float32{0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if a.Ndim() != 0 || a.Item() != int64(1) {
		t.Errorf("ComputeAction = %v, want 1 (0-d)", a)
	}
	if _, err := policy.ComputeAction(p, []float32{0, 1}); !errors.Is(err, policy.ErrObs) {
		t.Errorf("ComputeAction of a slice: %v, want ErrObs", err)
	}

	// A continuous actor with a mode of 0.5 maps it to the Box [−2, 2]:
	// −2 + 4·1.5/2 = 1.
	box := algotest.Box(t, -2, 2, 1)
	actor, err := policy.NewActor(linear([][]float32{{0.5}}), fixedNormal{}, box, rand.New(rand.NewPCG(1, 1)),
		policy.ActorConfig{DeterministicEval: true, Map: policy.BoxMapConfig{Bound: policy.Clip, Scale: true}})
	if err != nil {
		t.Fatal(err)
	}
	a, err = policy.ComputeAction(actor, nd.MustNew([]float32{1}))
	if err != nil {
		t.Fatal(err)
	}
	if a.Ndim() != 1 || math.Abs(float64(a.At(0).(float32))-1) > 1e-6 {
		t.Errorf("ComputeAction = %v, want [1]", a)
	}
}

// fixedNormal is a head of Normal distributions with the network's output
// as mean and a standard deviation of 0.1.
type fixedNormal struct{}

func (fixedNormal) New() distribution.Distribution { return new(distribution.Normal) }

func (fixedNormal) Set(d distribution.Distribution, tp *tensor.Tape, out *tensor.Tensor) error {
	return d.(*distribution.Normal).Set(tp, out, tp.AddScalar(tp.MulScalar(out, 0), 0.1))
}

// TestActTo checks when DiscreteActTo and BoxActTo reuse the array under
// "act" (a contiguous array of the right dtype and shape: the previous
// call's) and when they store a new zeroed one, and that the slice they
// return is that array's data.
func TestActTo(t *testing.T) {
	const k, m = 4, 3
	for _, c := range []struct {
		name  string
		held  any // the value under "act" before the call; nil for none
		box   bool
		reuse bool
	}{
		{"discrete/empty", nil, false, false},
		{"discrete/same", nd.Zeros(nd.Int64, k), false, true},
		{"discrete/longer", nd.Zeros(nd.Int64, k+1), false, false},
		{"discrete/float32", nd.Zeros(nd.Float32, k), false, false},
		{"discrete/2-d", nd.Zeros(nd.Int64, k, 1), false, false},
		{"discrete/strided view", nd.Zeros(nd.Int64, 2*k).Index(nd.Step(2)), false, false},
		{"discrete/a batch", batch.MustNew("x", nd.Zeros(nd.Int64, k)), false, false},
		{"box/empty", nil, true, false},
		{"box/same", nd.Zeros(nd.Float32, k, m), true, true},
		{"box/wider", nd.Zeros(nd.Float32, k, m+1), true, false},
		{"box/flat", nd.Zeros(nd.Float32, k*m), true, false},
		{"box/float64", nd.Zeros(nd.Float64, k, m), true, false},
		{"box/transposed", nd.Zeros(nd.Float32, m, k).Transpose(), true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var dst batch.Batch
			if c.held != nil {
				if err := dst.Set("act", c.held); err != nil {
					t.Fatal(err)
				}
			}
			var n int
			if c.box {
				a := policy.BoxActTo(&dst, k, m)
				n = len(a)
				for i := range a {
					a[i] = float32(i + 1)
				}
			} else {
				a := policy.DiscreteActTo(&dst, k)
				n = len(a)
				for i := range a {
					a[i] = int64(i + 1)
				}
			}
			got, err := dst.Array("act")
			if err != nil {
				t.Fatal(err)
			}
			if reused := c.held != nil && any(got) == c.held; reused != c.reuse {
				t.Errorf("reused the held array: %v, want %v", reused, c.reuse)
			}
			want, wantN := []int{k}, k
			if c.box {
				want, wantN = []int{k, m}, k*m
			}
			if !slices.Equal(got.Shape(), want) || n != wantN {
				t.Fatalf("act has shape %v and %d values were returned; want shape %v and %d", got.Shape(), n, want, wantN)
			}
			// The returned slice is the stored array's data: 1, 2, 3, … in
			// row-major order.
			var vals []float64
			if c.box {
				for _, v := range nd.ToSlice[float32](got) {
					vals = append(vals, float64(v))
				}
			} else {
				for _, v := range nd.ToSlice[int64](got) {
					vals = append(vals, float64(v))
				}
			}
			for i, v := range vals {
				if v != float64(i+1) {
					t.Fatalf("act = %v after writing 1…%d through the returned slice", vals, n)
				}
			}
		})
	}

	// Reuse does not allocate.
	var dst batch.Batch
	policy.DiscreteActTo(&dst, k)
	if a := testing.AllocsPerRun(50, func() { policy.DiscreteActTo(&dst, k) }); a != 0 {
		t.Errorf("DiscreteActTo on its own previous array: %v allocations", a)
	}
	var bdst batch.Batch
	policy.BoxActTo(&bdst, k, m)
	if a := testing.AllocsPerRun(50, func() { policy.BoxActTo(&bdst, k, m) }); a != 0 {
		t.Errorf("BoxActTo on its own previous array: %v allocations", a)
	}
}
