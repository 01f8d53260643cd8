package algo_test

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// TestLinear checks the schedule at its start, inside, at its end and
// beyond, by hand.
func TestLinear(t *testing.T) {
	for _, tc := range []struct {
		step int64
		want float64
	}{{0, 1}, {25, 0.775}, {100, 0.1}, {400, 0.1}, {-5, 1}} {
		if got := algo.Linear(1, 0.1, tc.step, 100); !scalar.EqualWithinAbs(got, tc.want, 1e-12) {
			t.Errorf("step %d: %v, want %v", tc.step, got, tc.want)
		}
	}
}

// TestQReturnsRows checks PreprocessRows against NStep.ReturnsTo applied to
// each column of the targets: three values per window, the target function
// giving column j the value (j + 1)·3·r of the window's last step.
func TestQReturnsRows(t *testing.T) {
	const width = 3
	buf := vectorBuffer(t)
	indices := []int{6, 0, 3, 4, 4, 1, 7, 2, 5}
	for n := 1; n <= 3; n++ {
		var s algo.NStep
		last := s.Windows(buf, indices, 0.9, n)
		rew := buf.Rew()
		want := make([]float32, len(indices)*width)
		for j := range width {
			target := make([]float32, len(last))
			for k, i := range last {
				target[k] = float32(j+1) * 3 * float32(rew[i])
			}
			col := make([]float32, len(indices))
			s.ReturnsTo(col, target)
			for k, v := range col {
				want[k*width+j] = v
			}
		}
		b := take(t, buf, indices)
		var q algo.QReturns
		ot := &obsTarget{scale: 3}
		err := q.PreprocessRows(b, buf, indices, 0.9, n, width, func(dst []float32, next *batch.Batch) error {
			col := make([]float32, len(dst)/width)
			if err := ot.values(col, next); err != nil {
				return err
			}
			for k, v := range col {
				for j := range width {
					dst[k*width+j] = float32(j+1) * v
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ret, _ := b.Array("returns")
		if got := ret.Shape(); len(got) != 2 || got[0] != len(indices) || got[1] != width {
			t.Fatalf("returns of shape %v", got)
		}
		got := nd.Data[float32](ret)
		for i := range want {
			if !scalar.EqualWithinAbsOrRel(float64(got[i]), float64(want[i]), 1e-6, 1e-6) {
				t.Errorf("n = %d: returns %v, want %v", n, got, want)
				break
			}
		}
	}
}
