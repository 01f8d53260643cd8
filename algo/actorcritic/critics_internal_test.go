package actorcritic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// TestCriticsBatchedMatchesSequential checks the batched pass of the
// ensemble against the critics evaluated one after the other: two ensembles
// drawn from the same seed, one with its stacked layers dropped, take the
// same three optimizer steps. The expected values are the sequential
// ensemble's; the two differ only by the summation order inside the
// matrix products, so they must agree to float32 rounding.
func TestCriticsBatchedMatchesSequential(t *testing.T) {
	for _, tc := range []struct {
		n      int
		hidden []int
		subset []int
	}{
		{1, []int{8}, nil},
		{2, []int{16, 16}, nil},
		{5, []int{12, 7}, []int{3, 0}},
	} {
		const k, obsDim, actDim = 9, 4, 2
		tr := Training{Optim: optim.DefaultAdamConfig()}
		newCritics := func() *Critics {
			c, err := NewCritics(tc.n, CriticConfig{Hidden: tc.hidden}, obsDim, actDim, tr, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		seq, bat := newCritics(), newCritics()
		seq.online, seq.target = nil, nil
		bat.online, bat.target = stack(bat.Online), stack(bat.Target)
		rng := rand.New(rand.NewPCG(3, 4))
		obs, act, y := tensor.New(k, obsDim), tensor.New(k, actDim), tensor.New(k)
		var tps, tpb tensor.Tape
		for step := range 3 {
			obs.FillNormal(rng, 0, 1)
			act.FillNormal(rng, 0, 1)
			y.FillNormal(rng, 0, 1)
			tps.Reset()
			tpb.Reset()
			ls, lb := seq.Step(&tps, obs, act, y), bat.Step(&tpb, obs, act, y)
			if !close32(ls, lb) {
				t.Errorf("n=%d step %d: loss %v, sequential %v", tc.n, step, lb, ls)
			}
			seq.SoftUpdate(0.5)
			bat.SoftUpdate(0.5)
			ds, db := make([]float32, k), make([]float32, k)
			tps.Reset()
			tpb.Reset()
			seq.TargetMinTo(ds, &tps, obs, act, tc.subset)
			bat.TargetMinTo(db, &tpb, obs, act, tc.subset)
			for i := range ds {
				if !close32(float64(ds[i]), float64(db[i])) {
					t.Errorf("n=%d step %d: target min %d = %v, sequential %v", tc.n, step, i, db[i], ds[i])
				}
			}
		}
		for i, p := range seq.Params() {
			a, b := p.Tensor.Data(), bat.Params()[i].Tensor.Data()
			for j := range a {
				if !close32(float64(a[j]), float64(b[j])) {
					t.Errorf("n=%d: %s[%d] = %v, sequential %v", tc.n, p.Name, j, b[j], a[j])
					break
				}
			}
		}
	}
}

// close32 reports whether a and b agree to a few float32 roundings.
func close32(a, b float64) bool { return math.Abs(a-b) <= 1e-5*max(1, math.Abs(a)) }
