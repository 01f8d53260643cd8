package bdqn_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/bdqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

func multi(t testing.TB, n int64, d int) *env.MultiDiscrete {
	t.Helper()
	nvec := make([]int64, d)
	for i := range nvec {
		nvec[i] = n
	}
	s, err := env.NewMultiDiscrete(nvec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func small(hidden int) bdqn.Config {
	cfg := bdqn.DefaultConfig()
	cfg.CommonHidden, cfg.ValueHidden, cfg.ActionHidden = []int{hidden}, []int{hidden}, []int{hidden}
	cfg.TargetUpdateFreq = 5
	return cfg
}

func params(b *bdqn.BDQN) nn.Params {
	return append(slices.Clone(b.Network().Params()), b.Target().Params()...)
}

// TestBDQN runs the checks every off-policy algorithm passes (determinism,
// exact resume across a target copy, an update without allocations, a
// smoke run) on three branches of 5 actions.
func TestBDQN(t *testing.T) {
	c := algotest.SmallOffPolicy(bdqn.New, small, multi(t, 5, 3), params)
	c.Explore = func(b *bdqn.BDQN) { b.SetEps(1, 1) }
	algotest.CheckOffPolicy(t, c)
}

// TestBDQNHold runs the same checks with temporally extended ε-greedy
// exploration, whose state travels in the collector's hidden state.
func TestBDQNHold(t *testing.T) {
	hold := func(hidden int) bdqn.Config {
		cfg := small(hidden)
		cfg.Hold = policy.HoldConfig{Mu: 2, MaxDuration: 20}
		return cfg
	}
	c := algotest.SmallOffPolicy(bdqn.New, hold, multi(t, 5, 3), params)
	c.Explore = func(b *bdqn.BDQN) { b.SetEps(1, 1) }
	algotest.CheckOffPolicy(t, c)
}

// TestRejects checks that New refuses invalid settings and action spaces
// with a message naming them.
func TestRejects(t *testing.T) {
	algotest.CheckRejects(t, bdqn.DefaultConfig, bdqn.New, bdqn.ErrConfig, multi(t, 3, 2), []algotest.Reject[bdqn.Config]{
		{Name: "one bin", Edit: func(c *bdqn.Config) { c.Bins = 1 }, Want: "action_per_branch"},
		{Name: "no trunk", Edit: func(c *bdqn.Config) { c.CommonHidden = nil }, Want: "common_hidden_sizes"},
		{Name: "gamma", Edit: func(c *bdqn.Config) { c.Gamma = 2 }, Want: "gamma"},
		{Name: "hold", Edit: func(c *bdqn.Config) { c.Hold.Mu = -1 }, Want: "hold mu"},
		{Name: "target", Edit: func(c *bdqn.Config) { c.TargetUpdateFreq = 0 }, Want: "target_update_freq"},
		{Name: "eps decay", Edit: func(c *bdqn.Config) { c.EpsDecay = 1 }, Want: "eps_decay"},
	}, algotest.Discrete(t, 3, 0))
	uneven, err := env.NewMultiDiscrete([]int64{3, 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f64, err := env.NewBox(-1.0, 1.0, []int{2}, nd.Float64)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range []env.Space{uneven, f64} {
		_, err := bdqn.New(bdqn.DefaultConfig(), algotest.Box(t, -1, 1, 2), act, rand.New(rand.NewPCG(1, 1)))
		if !errors.Is(err, bdqn.ErrConfig) || !strings.Contains(err.Error(), act.String()) {
			t.Errorf("New on %v: %v; want an error naming the space", act, err)
		}
	}
}

// q64 evaluates the branching network of ps in float64 on x: the trunk
// (ReLU after its last layer too), the value V and the advantages of each
// of d branches, Qᵈ(a) = V + Aᵈ(a) − mean Aᵈ.
func q64(ps nn.Params, x []float64, d int) [][]float64 {
	f := algotest.MLP64(ps, "common.", x)
	for i := range f {
		f[i] = max(f[i], 0)
	}
	v := algotest.MLP64(ps, "value.", f)[0]
	q := make([][]float64, d)
	for j := range d {
		adv := algotest.MLP64(ps, "branch"+string(rune('0'+j))+".", f)
		var mean float64
		for _, a := range adv {
			mean += a / float64(len(adv))
		}
		for _, a := range adv {
			q[j] = append(q[j], v+a-mean)
		}
	}
	return q
}

// TestLoss checks the targets and the loss of one update on the five
// transitions of the loss tests (the second terminated, the last
// truncated) against float64 code: y = r + γ·mean_d Q′ᵈ(s′, argmax_a
// Qᵈ(s′, a)) without the bootstrap after termination (the target network
// equals the online one before the first update), and the loss
// mean_{b,d}(y_b − Qᵈ(s_b, a_bᵈ))², for double and plain targets.
func TestLoss(t *testing.T) {
	for _, double := range []bool{true, false} {
		cfg := small(8)
		cfg.Double = double
		b, err := bdqn.New(cfg, algotest.Box(t, -10, 10, 2), multi(t, 3, 2), rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		tr := algotest.Five()
		acts := [][]int64{{0, 2}, {1, 1}, {2, 0}, {0, 0}, {1, 2}}
		bt := algotest.Preprocessed(t, b, tr, acts)
		ps := b.Network().Params()
		var want float64
		got, err := batch.Values[float32](bt, batch.KeyReturns)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tr.Obs {
			y := tr.Rew[i]
			if !tr.Term[i] {
				next := q64(ps, f64(tr.Next[i]), 2)
				var m float64
				for _, qd := range next {
					m += slices.Max(qd) / 2 // online and target agree: double = plain
				}
				y += cfg.Gamma * m
			}
			if !scalar.EqualWithinAbs(float64(got[i]), y, 1e-5) {
				t.Errorf("double %v: returns[%d] = %v, want %v", double, i, got[i], y)
			}
			q := q64(ps, f64(tr.Obs[i]), 2)
			for d, a := range acts[i] {
				e := y - q[d][a]
				want += e * e / 10
			}
		}
		st, err := b.Update(bt)
		if err != nil {
			t.Fatal(err)
		}
		if !scalar.EqualWithinAbsOrRel(st["loss"], want, 1e-5, 1e-5) {
			t.Errorf("double %v: loss %v, want %v", double, st["loss"], want)
		}
	}
}

func f64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestBoxActions checks that in a Box the policy's actions are indices of
// env.ContinuousToDiscrete's points, mapped to those points, and that env
// actions map back to the nearest index.
func TestBoxActions(t *testing.T) {
	box := algotest.Box(t, -2, 2, 2)
	cfg := small(8)
	cfg.Bins = 5
	b, err := bdqn.New(cfg, algotest.Box(t, -10, 10, 4), box, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	p := b.Policy()
	b.SetEps(1, 1)
	p.SetTrainingStep(true)
	obs := batch.MustNew(batch.KeyObs, [][]float32{{0, 1, 2, 3}, {1, 1, 1, 1}, {-1, 0, 1, 0}})
	var dst batch.Batch
	if err := p.Act(&dst, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	act, err := dst.Array(batch.KeyAct)
	if err != nil || act.DType() != nd.Float32 || act.Dim(0) != 3 || act.Dim(1) != 2 {
		t.Fatalf("act %v, %v; want float32 [3 2]", act, err)
	}
	mesh, err := env.ActionMesh(box, 5) // (−2, −1, 0, 1, 2) in each dimension
	if err != nil {
		t.Fatal(err)
	}
	mapper := p.(interface {
		MapActionTo(env, act *nd.Array) error
		UnmapActionTo(act, env *nd.Array) error
	})
	envAct := nd.Zeros(nd.Float32, 3, 2)
	if err := mapper.MapActionTo(envAct, act); err != nil {
		t.Fatal(err)
	}
	for i, v := range nd.Data[float32](act) {
		if j := int(v); float32(j) != v || j < 0 || j >= 5 || nd.Data[float32](envAct)[i] != float32(mesh[i%2][j]) {
			t.Fatalf("index %v mapped to %v; want one of %v", v, nd.Data[float32](envAct)[i], mesh[i%2])
		}
	}
	in, _ := nd.FromSlice([]float32{-2, 2, 0.4, -0.6, 1.7, -9}, 3, 2)
	back := nd.Zeros(nd.Float32, 3, 2)
	if err := mapper.UnmapActionTo(back, in); err != nil {
		t.Fatal(err)
	}
	if want := []float32{0, 4, 2, 1, 4, 0}; !slices.Equal(nd.Data[float32](back), want) {
		t.Errorf("unmapped %v to %v, want %v", nd.Data[float32](in), nd.Data[float32](back), want)
	}
	bad, _ := nd.FromSlice([]float32{5, 0}, 1, 2)
	if err := mapper.MapActionTo(nd.Zeros(nd.Float32, 1, 2), bad); err == nil {
		t.Error("an index outside the points mapped without error")
	}
}

// TestHoldActions checks that with Config.Hold and very long durations an
// exploring observation keeps its random action (every branch) from step
// to step while its state is handed back, and draws anew from a zero
// state (an episode's start).
func TestHoldActions(t *testing.T) {
	cfg := small(8)
	cfg.Hold = policy.HoldConfig{MaxDuration: 1 << 16}
	b, err := bdqn.New(cfg, algotest.Box(t, -10, 10, 4), multi(t, 7, 3), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	p := b.Policy()
	b.SetEps(1, 1)
	p.SetTrainingStep(true)
	obs := batch.MustNew(batch.KeyObs, [][]float32{{0, 1, 2, 3}, {1, 1, 1, 1}})
	var dst batch.Batch
	var first []int64
	var state any
	for step := range 10 {
		if err := p.Act(&dst, obs, state, true); err != nil {
			t.Fatal(err)
		}
		a, _ := dst.Array(batch.KeyAct)
		got := nd.ToSlice[int64](a)
		if step == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("step %d: actions %v, want the held %v", step, got, first)
		}
		st, err := dst.Array(batch.KeyState)
		if err != nil {
			t.Fatal(err)
		}
		state = st.Copy()
	}
	// From zero states the 6 indices are drawn afresh: equal to the held
	// ones with probability 7⁻⁶.
	if err := p.Act(&dst, obs, nil, true); err != nil {
		t.Fatal(err)
	}
	a, _ := dst.Array(batch.KeyAct)
	if slices.Equal(nd.ToSlice[int64](a), first) {
		t.Errorf("zero states kept the held actions %v", first)
	}
}
