package algo

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/buffer"
)

// Anneal returns the value at step of a linear schedule that goes from a at
// step 0 to b at step n and stays at b (a for n ≤ 0): the ε of an ε-greedy
// policy or the β of a prioritized buffer over env steps.
func Anneal(a, b float64, step, n int64) float64 {
	if n <= 0 {
		return a
	}
	f := math.Min(1, math.Max(0, float64(step)/float64(n)))
	return a + (b-a)*f
}

// BetaSchedule is the prioritized-replay part of the Postprocess of the
// Q-learning algorithms: new priorities for the sampled transitions, and β
// annealed linearly from the buffer's own β, read when annealing starts, to
// a final value. Its fields are state, saved with the algorithm's counters
// (their JSON names are those DQN has always saved). The zero value is ready
// to use.
type BetaSchedule struct {
	// Start is the buffer's β when annealing began; Started says whether
	// it has.
	Start   float64 `json:"beta_start"`
	Started bool    `json:"beta_set"`
}

// Prioritize gives buf, when it is a buffer.Prioritizer, the priorities prio
// of the transitions at indices (one each), and when steps > 0 sets its β to
// the schedule's value after envSteps env steps: from Start to final over
// steps. Other buffers are left alone.
//
// Prioritize returns an error if prio and indices differ in length, or the
// buffer refuses the priorities or β.
func (s *BetaSchedule) Prioritize(buf buffer.Buffer, indices []int, prio []float64, final float64, envSteps, steps int64) error {
	p, ok := buf.(buffer.Prioritizer)
	if !ok {
		return nil
	}
	if len(indices) != len(prio) {
		return fmt.Errorf("%d indices for %d priorities of the last update", len(indices), len(prio))
	}
	if err := p.UpdateWeight(indices, prio); err != nil {
		return fmt.Errorf("priorities: %w", err)
	}
	if steps <= 0 {
		return nil
	}
	if !s.Started {
		s.Start, s.Started = 0, true
		if b, ok := p.(interface{ Beta() float64 }); ok {
			s.Start = b.Beta()
		}
	}
	if err := p.SetBeta(Anneal(s.Start, final, envSteps, steps)); err != nil {
		return fmt.Errorf("β: %w", err)
	}
	return nil
}
