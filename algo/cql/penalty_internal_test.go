package cql

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

// lossBatch is two transitions of observations of 3 numbers and actions of
// 2.
func lossBatch() *batch.Batch {
	return batch.MustNew(
		"obs", nd.MustNew([][]float32{{0.3, -0.5, 1}, {-1, 0.2, 0.4}}),
		"act", nd.MustNew([][]float32{{0.5, -0.25}, {-0.8, 0.1}}),
		"obs_next", nd.MustNew([][]float32{{0.4, -0.2, 0.9}, {-0.7, 0.1, 0.6}}),
		"returns", nd.MustNew([]float32{1, -2}),
	)
}

// logTanhNormal64 is log π(a|s) of the actor (mean and log σ the MLP's two
// halves, log σ clamped to [−20, 2]) in float64: the Gaussian density of
// u = atanh(a) minus Σ log(1 − a²).
func logTanhNormal64(c *CQL, s []float64, a []float32) float64 {
	out := algotest.MLP64(c.MLP.Params(), "", s)
	m := len(a)
	var lp float64
	for j := range m {
		mu, ls := out[j], math.Min(math.Max(out[m+j], actorcritic.LogStdMin), actorcritic.LogStdMax)
		u := math.Atanh(float64(a[j]))
		z := (u - mu) / math.Exp(ls)
		lp += -0.5*z*z - ls - 0.5*math.Log(2*math.Pi) - math.Log(1-float64(a[j])*float64(a[j]))
	}
	return lp
}

// TestPenalty checks the conservative penalty of both critics against
// float64 arithmetic in the test: the proposals CQL draws (N = 3 uniform
// actions, 3 of the policy at s and 3 at s′ per observation) are read back,
// their log-probabilities recomputed from the actor's weights, the critics
// evaluated with algotest.MLP64, and
//
//	gapᵢ = w·(T·mean over s of log Σ exp(Q̂ᵢ/T) − mean Qᵢ(s, a))
//
// with Q̂ = Q(s, â) + m·log 2 for the uniform actions (density 2⁻ᵐ on
// [−1, 1]ᵐ) and Q(s, â) − log π(â) for the policy's, the log-sum-exp over
// the 3N values of each observation. The penalty in the loss is Σᵢ gapᵢ
// without the Lagrangian form and Σᵢ α′·(gapᵢ − τ) with it.
func TestPenalty(t *testing.T) {
	for _, c := range []struct {
		name     string
		w, temp  float64
		lagrange bool
	}{
		{"plain", 1, 1, false},
		{"weight and temperature", 2.5, 0.5, false},
		{"lagrange", 1, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.ActorHidden, cfg.Critic.Hidden = []int{8}, []int{8}
			cfg.NumRepeatActions, cfg.CQLWeight, cfg.CQLTemperature, cfg.WithLagrange = 3, c.w, c.temp, c.lagrange
			cfg.CQLTargetActionGap = 0.7
			q, err := New(cfg, algotest.Box(t, -5, 5, 3), algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			q.logAlpha.Data()[0] = float32(math.Log(0.3)) // α′ = 0.3
			b := lossBatch()
			if err := q.propose(b); err != nil {
				t.Fatal(err)
			}
			var tp tensor.Tape
			obs, _ := tp.FromND(must(b.Array("obs")))
			act, _ := tp.FromND(must(b.Array("act")))
			got := float64(q.penalty(&tp, obs, act, q.CQLAlpha()).Item())

			obs64 := [][]float64{{0.3, -0.5, 1}, {-1, 0.2, 0.4}}
			next64 := [][]float64{{0.4, -0.2, 0.9}, {-0.7, 0.1, 0.6}}
			acts := [][]float64{{0.5, -0.25}, {-0.8, 0.1}}
			const n, m = 3, 2
			row := func(x *tensor.Tensor, i int) []float32 { return x.Data()[i*m : (i+1)*m] }
			var want float64
			for i := range 2 {
				prefix := []string{"0.", "1."}[i]
				critic := func(s []float64, a []float32) float64 {
					x := append(append([]float64(nil), s...), float64(a[0]), float64(a[1]))
					return algotest.MLP64(q.CriticNets.Params(), prefix, x)[0]
				}
				var lseMean, qaMean float64
				for k, s := range obs64 {
					var vals []float64
					for j := range n {
						r := k*n + j
						vals = append(vals, critic(s, row(q.rand, r))+m*math.Ln2)
						cur, nxt := row(q.cur, r), row(q.next, r)
						lc, ln := logTanhNormal64(q, s, cur), logTanhNormal64(q, next64[k], nxt)
						// The log-probabilities CQL subtracts are the policy's.
						if !scalar.EqualWithinAbsOrRel(float64(q.curLogp.Data()[r]), lc, 1e-3, 1e-3) ||
							!scalar.EqualWithinAbsOrRel(float64(q.nxtLogp.Data()[r]), ln, 1e-3, 1e-3) {
							t.Fatalf("log-probabilities %v, %v; want %v, %v", q.curLogp.Data()[r], q.nxtLogp.Data()[r], lc, ln)
						}
						vals = append(vals, critic(s, cur)-lc, critic(s, nxt)-ln)
					}
					mx := math.Inf(-1)
					for _, v := range vals {
						mx = math.Max(mx, v/c.temp)
					}
					var sum float64
					for _, v := range vals {
						sum += math.Exp(v/c.temp - mx)
					}
					lseMean += c.temp * (mx + math.Log(sum)) / 2
					a32 := []float32{float32(acts[k][0]), float32(acts[k][1])}
					qaMean += critic(s, a32) / 2
				}
				gap := c.w * (lseMean - qaMean)
				if !scalar.EqualWithinAbsOrRel(q.gaps[i], gap, 1e-4, 1e-4) {
					t.Errorf("critic %d: gap %v, want %v", i, q.gaps[i], gap)
				}
				if c.lagrange {
					gap = 0.3 * (gap - 0.7)
				}
				want += gap
			}
			if !scalar.EqualWithinAbsOrRel(got, want, 1e-4, 1e-4) {
				t.Errorf("penalty %v, want %v", got, want)
			}
			// The uniform proposals lie in [−1, 1].
			for _, v := range q.rand.Data() {
				if v < -1 || v > 1 {
					t.Fatalf("uniform action %v outside [−1, 1]", v)
				}
			}
		})
	}
}

// TestLagrange checks the dual step: from log α′ = 0, Adam's first step
// moves log α′ by +lr when the critics' mean gap exceeds τ and by −lr when
// it is below, the loss is −α′·mean(gapᵢ − τ) with α′ = 1; clamped at a
// bound (α′ max 0.5 < 1) it does not move; without the Lagrangian form α′
// is 1 and the loss 0.
func TestLagrange(t *testing.T) {
	for _, c := range []struct {
		name         string
		lagrange     bool
		gap, alphaMx float64
		wantLog      float64
		wantAlpha    float64
	}{
		{"gap above", true, -100, 1e6, 1e-3, 1},
		{"gap below", true, 100, 1e6, -1e-3, 1},
		{"clamped", true, -100, 0.5, 0, 0.5},
		{"off", false, 10, 1e6, 0, 1},
	} {
		cfg := DefaultConfig()
		cfg.ActorHidden, cfg.Critic.Hidden = []int{8}, []int{8}
		cfg.WithLagrange, cfg.CQLTargetActionGap, cfg.CQLAlphaMax = c.lagrange, c.gap, c.alphaMx
		q, err := New(cfg, algotest.Box(t, -5, 5, 3), algotest.Box(t, -2, 2, 2), rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		stats, err := q.Update(lossBatch())
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(q.logAlpha.Data()[0]); !scalar.EqualWithinAbs(got, c.wantLog, 1e-6) {
			t.Errorf("%s: log α′ after one step %v, want %v", c.name, got, c.wantLog)
		}
		if stats["cql_alpha"] != c.wantAlpha {
			t.Errorf("%s: α′ of the step %v, want %v", c.name, stats["cql_alpha"], c.wantAlpha)
		}
		wantLoss := 0.0
		if c.lagrange {
			wantLoss = -c.wantAlpha * ((q.gaps[0]+q.gaps[1])/2 - c.gap)
		}
		if !scalar.EqualWithinAbsOrRel(stats["loss/cql_alpha"], wantLoss, 1e-5, 1e-5) {
			t.Errorf("%s: loss/cql_alpha %v, want %v", c.name, stats["loss/cql_alpha"], wantLoss)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
