package actorcritic_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/tensor/tensortest"
)

// FuzzRolloutRows checks the minibatch invariants for any collection length,
// minibatch size and shuffle: every row appears in exactly one minibatch,
// all but the last have size rows and the last between size and 2·size − 1
// (or all rows when size ≤ 0 or size ≥ N), and ObsRows gathers the rows'
// observations.
func FuzzRolloutRows(f *testing.F) {
	f.Add(uint16(2000), int16(64), uint64(1))
	f.Add(uint16(10), int16(4), uint64(2))
	f.Add(uint16(7), int16(0), uint64(3))
	f.Add(uint16(5), int16(9), uint64(4))
	f.Add(uint16(1), int16(1), uint64(5))
	f.Fuzz(func(t *testing.T, n uint16, size int16, seed uint64) {
		if n == 0 || n > 5000 || size < 0 {
			t.Skip()
		}
		obs := make([]float32, 2*int(n))
		for i := range int(n) {
			obs[2*i], obs[2*i+1] = float32(i), -float32(i)
		}
		o, _ := nd.FromSlice(obs, int(n), 2)
		b := batch.MustNew("obs", o, "act", nd.Zeros(nd.Int64, int(n)))
		var r actorcritic.Rollout
		if err := r.Load(b, algotest.Discrete(t, 2, 0), false); err != nil {
			t.Fatal(err)
		}
		r.Shuffle(rand.New(rand.NewPCG(seed, seed)))
		k, sz := r.Minibatches(int(size)), int(size)
		seen := make([]bool, n)
		var tp tensor.Tape
		for i := range k {
			rows := r.Rows(i, sz)
			switch {
			case k == 1:
				if len(rows) != int(n) {
					t.Fatalf("one minibatch of %d rows for %d", len(rows), n)
				}
			case i < k-1 && len(rows) != sz, i == k-1 && (len(rows) < sz || len(rows) >= 2*sz):
				t.Fatalf("minibatch %d of %d has %d rows for size %d", i, k, len(rows), sz)
			}
			tp.Reset()
			g, _ := r.ObsRows(&tp, rows).Get("obs")
			data := g.(*tensor.Tensor).Data()
			for j, row := range rows {
				if seen[row] {
					t.Fatalf("row %d twice", row)
				}
				seen[row] = true
				if data[2*j] != float32(row) || data[2*j+1] != -float32(row) {
					t.Fatalf("row %d gathered as (%v, %v)", row, data[2*j], data[2*j+1])
				}
			}
		}
		for row, ok := range seen {
			if !ok {
				t.Fatalf("row %d in no minibatch", row)
			}
		}
	})
}

// TestNormalHeadGrad checks the gradients of the NormalHead's log-density
// and entropy with respect to the mean and the log standard deviations
// against finite differences.
func TestNormalHeadGrad(t *testing.T) {
	value := tensor.MustFromSlice([]float32{0.3, -1.2, 2, 0.1, 0.5, -0.4}, 3, 2)
	f := func(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
		h := &actorcritic.NormalHead{LogStd: in[1]}
		d := h.New()
		if err := h.Set(d, tp, in[0]); err != nil {
			t.Fatal(err)
		}
		ent := d.(interface{ Entropy() *tensor.Tensor }).Entropy()
		return tp.Add(d.LogProb(value), ent)
	}
	mean := tensor.MustFromSlice([]float32{0, 1, -0.5, 0.25, 1.5, -1}, 3, 2)
	logStd := tensor.MustFromSlice([]float32{-0.3, 0.4}, 2)
	if err := tensortest.CheckGrad(f, []*tensor.Tensor{mean, logStd}, tensortest.Config{}); err != nil {
		t.Error(err)
	}
}
