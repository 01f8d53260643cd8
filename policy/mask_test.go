package policy_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/internal/race"
	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// maskedObs returns a masked observation batch: "obs" a Batch of the rows
// under "obs" and the masks under "action_mask".
func maskedObs(t testing.TB, rows [][]float32, masks [][]int8) *batch.Batch {
	t.Helper()
	return batch.MustNew(batch.KeyObs, batch.MustNew(batch.KeyObs, nd.MustNew(rows), env.KeyActionMask, nd.MustNew(masks)))
}

// TestMaskLogits checks the masked Categorical on logits (1, 2, 3, 4) with
// actions 1 and 3 forbidden: the probabilities are softmax(1, 3) on the
// allowed actions (e¹/(e¹+e³) = 0.11920292, e³/(e¹+e³) = 0.88079708,
// worked out by hand), the entropy is that of those two, and the gradient
// of log-probabilities and entropy reaches the allowed logits only.
func TestMaskLogits(t *testing.T) {
	cases := []struct {
		name  string
		mask  []int8
		probs []float64
	}{
		{"two allowed", []int8{1, 0, 1, 0}, []float64{0.11920292, 0, 0.88079708, 0}},
		{"one allowed", []int8{0, 1, 0, 0}, []float64{0, 1, 0, 0}},
		{"all allowed", []int8{1, 1, 1, 1}, []float64{0.0320586, 0.08714432, 0.23688282, 0.64391426}},
	}
	const tol = 1e-6
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			logits := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 4).SetRequiresGrad(true)
			obs := maskedObs(t, [][]float32{{0}}, [][]int8{c.mask})
			var tp tensor.Tape
			var m policy.Mask
			masked, err := m.Logits(&tp, logits, obs)
			if err != nil {
				t.Fatal(err)
			}
			var d distribution.Categorical
			if err := d.SetLogits(&tp, masked); err != nil {
				t.Fatal(err)
			}
			p := d.Probs().Data()
			wantH := 0.0
			for i, want := range c.probs {
				if math.Abs(float64(p[i])-want) > tol {
					t.Errorf("p[%d] = %v; want %v", i, p[i], want)
				}
				if want > 0 {
					wantH -= want * math.Log(want)
				}
			}
			h := d.Entropy()
			if got := float64(h.Data()[0]); math.Abs(got-wantH) > tol {
				t.Errorf("entropy %v; want %v (over the allowed actions)", got, wantH)
			}
			// Loss: −log p of every allowed action, minus the entropy.
			var allowed []float32
			for i, v := range c.mask {
				if v != 0 {
					allowed = append(allowed, float32(i))
				}
			}
			loss := tp.Sub(tp.Neg(tp.Sum(d.LogProb(tensor.MustFromSlice(allowed, len(allowed), 1)))), tp.Sum(h))
			tp.Backward(loss)
			for i, g := range logits.Grad() {
				if g != g {
					t.Fatalf("gradient %d is NaN", i)
				}
				if c.mask[i] == 0 && g != 0 {
					t.Errorf("gradient of forbidden logit %d = %v; want 0", i, g)
				}
			}
			rng := rand.New(rand.NewPCG(3, 4))
			for range 200 {
				if a := int(d.Sample(rng).Data()[0]); c.mask[a] == 0 {
					t.Fatalf("sampled forbidden action %d", a)
				}
			}
		})
	}
}

// TestMaskLogitsWithoutMask: observations without a mask leave the
// logits as they are.
func TestMaskLogitsWithoutMask(t *testing.T) {
	logits := tensor.MustFromSlice([]float32{1, 2}, 1, 2)
	var m policy.Mask
	got, err := m.Logits(nil, logits, obsBatch(t, [][]float32{{0}}))
	if err != nil || got != logits {
		t.Errorf("Logits without mask = %v, %v; want the logits", got, err)
	}
}

func TestMaskErrors(t *testing.T) {
	var m policy.Mask
	cases := []struct {
		name string
		obs  *batch.Batch
	}{
		{"no valid action", maskedObs(t, [][]float32{{0}, {0}}, [][]int8{{1, 0, 0}, {0, 0, 0}})},
		{"wrong width", maskedObs(t, [][]float32{{0}, {0}}, [][]int8{{1, 0}, {0, 1}})},
		{"not an array", batch.MustNew(batch.KeyObs, batch.MustNew(batch.KeyObs, nd.MustNew([][]float32{{0}, {0}}), env.KeyActionMask, batch.MustNew("x", nd.MustNew([]int8{1, 1}))))},
	}
	for _, c := range cases {
		if _, err := m.Read(c.obs, 2, 3); !errors.Is(err, env.ErrActionMask) || !errors.Is(err, policy.ErrObs) {
			t.Errorf("%s: Read error %v; want ErrActionMask and ErrObs", c.name, err)
		}
	}
}

// TestQMasked: the network of qWeights gives (1, 0) the Q-values (1, 0, −1)
// and (0, 1) the values (0, 1, 0); masks move the greedy choice to the best
// allowed action.
func TestQMasked(t *testing.T) {
	p, err := policy.NewQ(policy.NewObsNet(algotest.Linear(qWeights...), maskedSpace(t, 2, 3)), algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	obs := maskedObs(t, [][]float32{{1, 0}, {1, 0}, {0, 1}, {0, 1}}, [][]int8{{1, 1, 1}, {0, 1, 1}, {1, 0, 1}, {0, 0, 1}})
	var dst batch.Batch
	if err := p.Act(&dst, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	want := []int64{0, 1, 0, 2} // (0, 1, 0): 0 and 2 tie, the first wins
	for i, a := range acts(t, &dst) {
		if a != want[i] {
			t.Errorf("row %d: action %d; want %d", i, a, want[i])
		}
	}
}

func maskedSpace(t testing.TB, obsDim, n int) env.Space {
	t.Helper()
	box, err := env.NewBox(-10.0, 10.0, []int{obsDim}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	s, err := env.NewMasked(box, n)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestQMaskedExploration: with ε = 1 every action is uniform over the
// allowed ones. Counts of 30,000 draws over the mask (1, 0, 1, 1, 0) are
// tested with chi-squared against 1/3 each (2 degrees of freedom), and the
// forbidden actions are never drawn.
func TestQMaskedExploration(t *testing.T) {
	const k, draws = 100, 300
	w := [][]float32{{1}, {2}, {3}, {4}, {5}}
	p, err := policy.NewQ(policy.NewObsNet(algotest.Linear(w...), maskedSpace(t, 1, 5)), algotest.Discrete(t, 5, 0), testrand.New(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetEps(1, 1); err != nil {
		t.Fatal(err)
	}
	rows, masks := make([][]float32, k), make([][]int8, k)
	for i := range rows {
		rows[i], masks[i] = []float32{1}, []int8{1, 0, 1, 1, 0}
	}
	obs := maskedObs(t, rows, masks)
	var dst batch.Batch
	counts := make([]float64, 5)
	for range draws {
		if err := p.Act(&dst, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		for _, a := range acts(t, &dst) {
			counts[a]++
		}
	}
	if counts[1] != 0 || counts[4] != 0 {
		t.Fatalf("forbidden actions drawn: counts %v", counts)
	}
	exp := float64(k*draws) / 3
	chi2 := 0.0
	for _, a := range []int{0, 2, 3} {
		chi2 += (counts[a] - exp) * (counts[a] - exp) / exp
	}
	if crit := (distuv.ChiSquared{K: 2}).Quantile(0.999); chi2 > crit {
		t.Errorf("chi² = %.2f > %.2f (p = 0.001, 2 df): counts %v", chi2, crit, counts)
	}
}

// TestActorMasked: a categorical actor never samples a forbidden action,
// its mode is the best allowed one, and Dist masks the learner's
// distribution the same way.
func TestActorMasked(t *testing.T) {
	w := [][]float32{{1}, {2}, {3}}
	p, err := policy.NewActor(policy.NewObsNet(algotest.Linear(w...), maskedSpace(t, 1, 3)), policy.CategoricalHead{}, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(5, 6)), policy.ActorConfig{DeterministicEval: true})
	if err != nil {
		t.Fatal(err)
	}
	obs := maskedObs(t, [][]float32{{1}, {1}}, [][]int8{{1, 1, 0}, {1, 0, 0}})
	var dst batch.Batch
	p.SetTrainingStep(true)
	for range 300 {
		if err := p.Act(&dst, obs, nil, true); err != nil {
			t.Fatal(err)
		}
		if a := acts(t, &dst); a[0] == 2 || a[1] != 0 {
			t.Fatalf("actions %v; rows allow {0, 1} and {0}", a)
		}
	}
	p.SetTrainingStep(false)
	if err := p.Act(&dst, obs, nil, false); err != nil {
		t.Fatal(err)
	}
	if a := acts(t, &dst); a[0] != 1 || a[1] != 0 {
		t.Errorf("modes %v; want [1 0] (the largest allowed logits)", a)
	}
	var tp tensor.Tape
	d, err := p.Dist(&tp, obs)
	if err != nil {
		t.Fatal(err)
	}
	pr := d.(*distribution.Categorical).Probs().Data()
	if pr[2] != 0 || pr[4] != 0 || pr[5] != 0 || pr[3] != 1 {
		t.Errorf("Dist probabilities %v; want 0 for forbidden actions", pr)
	}
}

func TestArgMaxValid(t *testing.T) {
	cases := []struct {
		q, mask []float32
		want    int
	}{
		{[]float32{3, 2, 1}, []float32{1, 1, 1}, 0},
		{[]float32{3, 2, 1}, []float32{0, 1, 1}, 1},
		{[]float32{1, 5, 5}, []float32{1, 0, 1}, 2},
		{[]float32{-1, -2}, []float32{0, 1}, 1},
		{[]float32{1, 2}, []float32{0, 0}, -1},
	}
	for _, c := range cases {
		if got := policy.ArgMaxValid(c.q, c.mask); got != c.want {
			t.Errorf("ArgMaxValid(%v, %v) = %d; want %d", c.q, c.mask, got, c.want)
		}
	}
}

// BenchmarkActMasked acts for 1 env and 8 envs (the collector benchmark's
// setting) on observations of MaskedMaze-v0's size (one-hot 25, four
// actions) with an MLP 25→64→64→4, with masks and without (the same
// network on the observations alone): the Q policy ε-greedily, the Actor
// by sampling a Categorical. The difference is the cost of masking.
func BenchmarkActMasked(b *testing.B) {
	space := algotest.Discrete(b, 4, 0)
	obsSpace := maskedSpace(b, 25, 4)
	plainSpace, _, _ := env.Unmasked(obsSpace)
	for _, k := range []int{1, 8} {
		rows, masks := make([][]float32, k), make([][]int8, k)
		for i := range rows {
			rows[i] = make([]float32, 25)
			rows[i][i] = 1
			masks[i] = []int8{1, 0, 1, int8(i % 2)}
		}
		for _, masked := range []bool{true, false} {
			rng := rand.New(rand.NewPCG(1, 2))
			mlp, err := nn.NewMLP(nn.MLPConfig{In: 25, Hidden: []int{64, 64}, Out: 4}, rng)
			if err != nil {
				b.Fatal(err)
			}
			obs, os := maskedObs(b, rows, masks), obsSpace
			if !masked {
				obs, os = obsBatch(b, rows), plainSpace
			}
			q, _ := policy.NewQ(policy.NewObsNet(mlp, os), space, rng)
			q.SetEps(0.1, 0.05)
			q.SetTrainingStep(true)
			actor, _ := policy.NewActor(policy.NewObsNet(mlp, os), policy.CategoricalHead{}, space, rng, policy.ActorConfig{})
			actor.SetTrainingStep(true)
			for _, p := range []struct {
				name string
				p    policy.Policy
			}{{"q", q}, {"actor", actor}} {
				name := fmt.Sprintf("%s/%s/masked=%v/envs=%d", algotest.BLASTag(), p.name, masked, k)
				b.Run(name, func(b *testing.B) {
					var out batch.Batch
					cputime.Measure(b, func() {
						if err := p.p.Act(&out, obs, nil, true); err != nil {
							b.Fatal(err)
						}
					})
				})
			}
		}
	}
}

// TestActMaskedAllocs locks the steady state of masked acting at zero
// allocations.
func TestActMaskedAllocs(t *testing.T) {
	space := algotest.Discrete(t, 4, 0)
	obsSpace := maskedSpace(t, 25, 4)
	rng := rand.New(rand.NewPCG(1, 2))
	mlp, err := nn.NewMLP(nn.MLPConfig{In: 25, Hidden: []int{16}, Out: 4}, rng)
	if err != nil {
		t.Fatal(err)
	}
	obs := maskedObs(t, [][]float32{make([]float32, 25), make([]float32, 25)}, [][]int8{{1, 0, 1, 0}, {0, 0, 0, 1}})
	q, _ := policy.NewQ(policy.NewObsNet(mlp, obsSpace), space, rng)
	q.SetEps(0.5, 0.5)
	q.SetTrainingStep(true)
	actor, _ := policy.NewActor(policy.NewObsNet(mlp, obsSpace), policy.CategoricalHead{}, space, rng, policy.ActorConfig{})
	actor.SetTrainingStep(true)
	for _, p := range []policy.Policy{q, actor} {
		var out batch.Batch
		act := func() {
			if err := p.Act(&out, obs, nil, true); err != nil {
				t.Fatal(err)
			}
		}
		act()
		if n := testing.AllocsPerRun(50, act); n != 0 && !race.Enabled {
			t.Errorf("%T.Act on masked observations allocates %v times; want 0", p, n)
		}
	}
}
