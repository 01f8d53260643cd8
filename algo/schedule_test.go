package algo_test

import (
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
)

func TestAnneal(t *testing.T) {
	for _, tc := range []struct {
		a, b    float64
		step, n int64
		want    float64
	}{
		{1, 0.1, 0, 1000, 1},
		{1, 0.1, 500, 1000, 0.55},
		{1, 0.1, 1000, 1000, 0.1},
		{1, 0.1, 5000, 1000, 0.1},
		{0.4, 1, -3, 10, 0.4},
		{0.4, 1, 7, 0, 0.4}, // no schedule
	} {
		if got := algo.Anneal(tc.a, tc.b, tc.step, tc.n); !closeTo(got, tc.want, 1e-12) {
			t.Errorf("Anneal(%v, %v, %d, %d) = %v, want %v", tc.a, tc.b, tc.step, tc.n, got, tc.want)
		}
	}
}

// TestBetaSchedule checks the priorities and β a prioritized buffer
// receives: with α = 1 and β = 1 the importance weights of two transitions
// stand in the inverse ratio of their priorities, and β goes from the
// buffer's 0.4 to 1 over 100 env steps. Uniform buffers are left alone.
func TestBetaSchedule(t *testing.T) {
	buf, err := buffer.NewPrioritized(buffer.Config{Size: 4}, buffer.PriorityConfig{Alpha: 1, Beta: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	addSteps(t, buf, -1, step{rew: 1}, step{rew: 2})
	var s algo.BetaSchedule
	idx := []int{0, 1}
	if err := s.Prioritize(buf, idx, []float64{1, 4}, 1, 50, 100); err != nil {
		t.Fatal(err)
	}
	if got := buf.Beta(); !closeTo(got, 0.7, 1e-12) || s.Start != 0.4 || !s.Started {
		t.Errorf("β after 50 of 100 steps = %v (start %v, %v), want 0.7 from 0.4", got, s.Start, s.Started)
	}
	if err := s.Prioritize(buf, idx, []float64{1, 4}, 1, 150, 100); err != nil {
		t.Fatal(err)
	}
	if got := buf.Beta(); got != 1 {
		t.Errorf("β after the schedule = %v, want 1", got)
	}
	b, err := buf.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := batch.Values[float64](b, "weight")
	if err != nil {
		t.Fatal(err)
	}
	if !closeTo(w[0]/w[1], 4, 1e-6) {
		t.Errorf("weights %v: ratio %v, want 4 (priorities 1 and 4)", w, w[0]/w[1])
	}
	if err := s.Prioritize(buf, idx, []float64{1}, 1, 0, 0); err == nil {
		t.Error("Prioritize accepted 1 priority for 2 indices")
	}
	uniform, err := buffer.New(buffer.Config{Size: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Prioritize(uniform, idx, nil, 1, 0, 100); err != nil {
		t.Errorf("a uniform buffer: %v", err)
	}
}

// TestDiscounted checks the window sums and factors behind the returns of
// TestNStep's vector case (γ = 0.9, n = 3): sub-buffer 0 terminates at its
// third step (factor 0), sub-buffer 1 is truncated at its second (factor
// γ²) and its windows stop at the newest step.
func TestDiscounted(t *testing.T) {
	buf := vectorBuffer(t)
	var s algo.NStep
	s.Windows(buf, []int{0, 1, 3, 4, 6}, 0.9, 3)
	sum, disc := s.Discounted()
	wantSum := []float64{1 + 1.8 + 2.43, 2 + 2.7, 4, 10 + 18, 30 + 36}
	wantDisc := []float64{0, 0, 0.9, 0.81, 0.81}
	for i := range wantSum {
		if !closeTo(sum[i], wantSum[i], 1e-12) || !closeTo(disc[i], wantDisc[i], 1e-12) {
			t.Errorf("Discounted = %v, %v; want %v, %v", sum, disc, wantSum, wantDisc)
			break
		}
	}
}
