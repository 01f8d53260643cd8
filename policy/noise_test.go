package policy_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// TestOUStatistics checks the OU process with a fixed seed: from x₀ = 2 its
// mean after k steps is (1 − θ·dt)ᵏ·x₀ (mean reversion, averaged over
// 20,000 independent runs), and its long-run variance is the stationary
// σ²·dt / (1 − (1 − θ·dt)²) of the discretization (exact for this linear
// recursion).
func TestOUStatistics(t *testing.T) {
	const theta, sigma, dt = 0.15, 0.3, 0.01
	n, err := policy.NewNoise(policy.NoiseConfig{Kind: policy.OUNoise, Theta: theta, Sigma: sigma, DT: dt})
	if err != nil {
		t.Fatal(err)
	}
	if !n.Stateful() {
		t.Fatal("OU noise is not stateful")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const runs, steps = 20_000, 200
	x := make([]float32, runs)
	act := make([]float32, runs)
	for i := range x {
		x[i] = 2
	}
	for range steps {
		clear(act)
		n.AddTo(act, x, rng)
	}
	var mean float64
	for _, v := range x {
		mean += float64(v)
	}
	mean /= runs
	keep := 1 - theta*dt
	wantMean := math.Pow(keep, steps) * 2
	// The mean of 20,000 runs has a standard error below
	// √(stationary variance / 20,000) ≈ 0.0017; allow 4 of them.
	if !scalar.EqualWithinAbs(mean, wantMean, 0.007) {
		t.Errorf("mean after %d steps %v, want %v", steps, mean, wantMean)
	}
	// Stationary variance: one long run of one process, after a burn-in.
	one := []float32{0}
	a := []float32{0}
	var s, ss float64
	const burn, long = 5_000, 400_000
	for i := range burn + long {
		a[0] = 0
		n.AddTo(a, one, rng)
		if a[0] != one[0] {
			t.Fatalf("the action received %v, not the state %v", a[0], one[0])
		}
		if i >= burn {
			v := float64(one[0])
			s += v
			ss += v * v
		}
	}
	variance := ss/long - (s/long)*(s/long)
	want := sigma * sigma * dt / (1 - keep*keep)
	if !scalar.EqualWithinRel(variance, want, 0.1) {
		t.Errorf("stationary variance %v, want %v", variance, want)
	}
}

// TestGaussianDecay checks σ's linear decay and the noise's spread.
func TestGaussianDecay(t *testing.T) {
	n, err := policy.NewNoise(policy.NoiseConfig{Kind: policy.GaussianNoise, Sigma: 0.5, SigmaFinal: 0.1, DecaySteps: 100})
	if err != nil {
		t.Fatal(err)
	}
	g := n.(*policy.Gaussian)
	for _, tc := range []struct {
		steps int64
		want  float64 // 0.5 + (0.1 − 0.5)·min(1, steps/100)
	}{{0, 0.5}, {50, 0.3}, {100, 0.1}, {1000, 0.1}} {
		g.Schedule(tc.steps)
		if !scalar.EqualWithinAbs(g.SigmaNow(), tc.want, 1e-12) {
			t.Errorf("σ after %d steps %v, want %v", tc.steps, g.SigmaNow(), tc.want)
		}
	}
	g.Schedule(50)
	act := make([]float32, 100_000)
	n.AddTo(act, nil, rand.New(rand.NewPCG(3, 4)))
	var ss float64
	for _, v := range act {
		ss += float64(v) * float64(v)
	}
	if sd := math.Sqrt(ss / float64(len(act))); !scalar.EqualWithinRel(sd, 0.3, 0.02) {
		t.Errorf("noise standard deviation %v, want 0.3", sd)
	}
}

func TestNoiseConfigRejects(t *testing.T) {
	for _, c := range []policy.NoiseConfig{
		{Kind: "pink"}, {Kind: policy.GaussianNoise, Sigma: -1}, {Kind: policy.OUNoise, Theta: -0.1},
		{Kind: policy.OUNoise, DT: math.Inf(1)}, {Kind: policy.GaussianNoise, DecaySteps: -1},
	} {
		if _, err := policy.NewNoise(c); err == nil {
			t.Errorf("NewNoise(%+v) accepted", c)
		}
	}
}

// TestDeterministicNoise checks that a Deterministic policy adds noise only
// while exploring in a training step, and that OU noise keeps its state in
// "state", starting from zero where the collector gives none.
func TestDeterministicNoise(t *testing.T) {
	box, err := env.NewBox(-2.0, 2.0, []int{2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	net := policy.ObsNet{Layer: nn.NewLinear(3, 2, rand.New(rand.NewPCG(1, 1)))}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 4, 3))
	for _, kind := range []policy.NoiseKind{policy.GaussianNoise, policy.OUNoise} {
		p, err := policy.NewDeterministic(net, box, rand.New(rand.NewPCG(2, 2)),
			policy.DeterministicConfig{Noise: policy.NoiseConfig{Kind: kind, Sigma: 1, Theta: 0.15}})
		if err != nil {
			t.Fatal(err)
		}
		var clean, noisy batch.Batch
		if err := p.Act(&clean, obs, nil, true); err != nil { // training flag off
			t.Fatal(err)
		}
		p.SetTrainingStep(true)
		if err := p.Act(&noisy, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		c, _ := clean.Array("act")
		nz, _ := noisy.Array("act")
		cd, nd32 := nd.Data[float32](c), nd.Data[float32](nz)
		bias := net.Layer.(*nn.Linear).Bias.Data()
		for i, v := range cd {
			if v != bias[i%2] {
				t.Errorf("%s: action %v without noise, want the network's %v", kind, v, bias[i%2])
			}
			if nd32[i] == v {
				t.Errorf("%s: no noise on action %d", kind, i)
			}
		}
		st, ok := noisy.Get("state")
		if ok != (kind == policy.OUNoise) {
			t.Fatalf("%s: state written %v", kind, ok)
		}
		if ok {
			x := nd.Data[float32](st.(*nd.Array))
			for i := range x {
				if !scalar.EqualWithinAbs(float64(x[i]), float64(nd32[i]-cd[i]), 1e-6) { // float32 rounding of the sum
					t.Errorf("OU state %v, want the noise added %v", x[i], nd32[i]-cd[i])
				}
			}
		}
	}
}

// TestActorNoise checks that an Actor over a Box adds its exploration
// noise only while exploring in a training step: the same policy and
// random source give the same actions with and without noise otherwise.
// A Discrete space refuses noise.
func TestActorNoise(t *testing.T) {
	box, err := env.NewBox(-2.0, 2.0, []int{2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	net := policy.ObsNet{Layer: nn.NewLinear(3, 2, rand.New(rand.NewPCG(1, 1)))}
	obs := batch.MustNew("obs", nd.Zeros(nd.Float32, 4, 3))
	act := func(noise policy.NoiseConfig, training, explore bool) []float32 {
		p, err := policy.NewActor(net, fixedNormal{}, box, rand.New(rand.NewPCG(2, 2)),
			policy.ActorConfig{DeterministicEval: true, Noise: noise})
		if err != nil {
			t.Fatal(err)
		}
		p.SetTrainingStep(training)
		var b batch.Batch
		if err := p.Act(&b, obs, nil, explore); err != nil {
			t.Fatal(err)
		}
		a, _ := b.Array("act")
		return append([]float32(nil), nd.Data[float32](a)...)
	}
	ou := policy.NoiseConfig{Kind: policy.OUNoise, Sigma: 1, Theta: 0.15}
	for _, tc := range []struct {
		training, explore, differ bool
	}{{false, true, false}, {true, false, false}, {true, true, true}} {
		a, b := act(policy.NoiseConfig{}, tc.training, tc.explore), act(ou, tc.training, tc.explore)
		same := true
		for i := range a {
			same = same && a[i] == b[i]
		}
		if same == tc.differ {
			t.Errorf("training %v, explore %v: actions %v without noise, %v with; want differing %v",
				tc.training, tc.explore, a, b, tc.differ)
		}
	}
	disc, err := env.NewDiscrete(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := policy.NewActor(net, policy.CategoricalHead{}, disc, rand.New(rand.NewPCG(2, 2)),
		policy.ActorConfig{Noise: ou}); !errors.Is(err, policy.ErrConfig) || !strings.Contains(err.Error(), "Discrete") {
		t.Errorf("noise on a Discrete space: %v, want ErrConfig naming it", err)
	}
}
