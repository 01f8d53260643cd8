package algo

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/buffer"
)

// Linear returns the value at step of a linear schedule that goes from a at
// step 0 to b at step n and stays at b: the ε and β schedules of the DQN
// family. n must be positive.
func Linear(a, b float64, step, n int64) float64 {
	f := math.Min(1, math.Max(0, float64(step)/float64(n)))
	return a + (b-a)*f
}

// Reprioritize is the Postprocess of the DQN family with a prioritized
// buffer: the transitions' new priorities, and β annealed linearly from the
// buffer's β when annealing began to a final value. Its fields are the
// schedule's state, saved with the algorithm's counters (their JSON names
// are DQN's).
type Reprioritize struct {
	// Beta is the buffer's β when annealing began, recorded at the first
	// Postprocess that anneals; Set reports that it was.
	Beta float64 `json:"beta_start"`
	Set  bool    `json:"beta_set"`
}

// Postprocess gives buf, when it is a buffer.Prioritizer, the priorities
// prios of the transitions at indices, and with steps > 0 sets its β to the
// linear schedule from the recorded β to final over steps env steps, at
// envSteps. Other buffers are left alone.
//
// It returns an error if prios and indices differ in length or the buffer
// refuses a priority or β.
func (r *Reprioritize) Postprocess(buf buffer.Buffer, indices []int, prios []float64, final float64, envSteps, steps int64) error {
	p, ok := buf.(buffer.Prioritizer)
	if !ok {
		return nil
	}
	if len(indices) != len(prios) {
		return fmt.Errorf("%d indices for %d priorities of the last update", len(indices), len(prios))
	}
	if err := p.UpdateWeight(indices, prios); err != nil {
		return fmt.Errorf("priorities: %w", err)
	}
	if steps > 0 {
		if !r.Set {
			r.Beta, r.Set = betaOf(p), true
		}
		if err := p.SetBeta(Linear(r.Beta, final, envSteps, steps)); err != nil {
			return fmt.Errorf("β: %w", err)
		}
	}
	return nil
}

// betaOf returns the current β of a prioritized buffer that reports it.
func betaOf(p buffer.Prioritizer) float64 {
	if b, ok := p.(interface{ Beta() float64 }); ok {
		return b.Beta()
	}
	return 0
}
