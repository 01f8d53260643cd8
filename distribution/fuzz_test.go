package distribution_test

import (
	"fmt"
	"testing"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nd/ndtest"
	"github.com/gorl/gorl/tensor"
)

// FuzzCategoricalIndex checks that indexing a Categorical of batch shape
// [2, 3] (4 categories) selects the probability rows that nd's indexing of
// an array of batch shape selects: every index form applies to the batch
// axes only.
func FuzzCategoricalIndex(f *testing.F) {
	for _, s := range []string{"0", "-1, 1:", ":, 1", "..., 0", "None", "[1, 0, 1]", "[True, False]", "::-1, [2, 0]", "0, 0", "..., None, 1"} {
		f.Add(s)
	}
	probs := tensor.New(2, 3, 4)
	for i := range probs.Data() {
		probs.Data()[i] = float32(1 + i) // row r holds 4r+1 … 4r+4
	}
	var d distribution.Categorical
	if err := d.SetProbs(nil, probs); err != nil {
		f.Fatal(err)
	}
	p := d.Probs().Data()
	rows, _ := nd.FromSlice([]int64{0, 1, 2, 3, 4, 5}, 2, 3)
	f.Fuzz(func(t *testing.T, s string) {
		idx, err := ndtest.ParseIndex(s)
		if err != nil {
			t.Skip()
		}
		var want *nd.Array
		func() {
			defer func() {
				if recover() != nil {
					want = nil
				}
			}()
			want = rows.Index(idx...)
		}()
		if want == nil {
			t.Skip() // an index that does not fit the batch shape
		}
		got := d.Index(idx...).(*distribution.Categorical)
		if fmt.Sprint(got.BatchShape()) != fmt.Sprint(want.Shape()) {
			t.Fatalf("%q: batch shape %v, want %v", s, got.BatchShape(), want.Shape())
		}
		g := got.Probs().Data()
		for i, r := range nd.ToSlice[int64](want) {
			for k := 0; k < 4; k++ {
				if g[4*i+k] != p[4*int(r)+k] {
					t.Fatalf("%q: row %d is not row %d of the original", s, i, r)
				}
			}
		}
	})
}
