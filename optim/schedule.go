package optim

import (
	"fmt"
	"math"
)

// The schedules below give the learning rate as a function of a step counter
// (an update, an epoch: the caller's choice); apply one by setting the
// optimizer's rate before each step, opt.SetLR(s.At(step)). They are plain
// values with JSON tags, so a run's configuration can hold them.

// LinearDecay goes linearly from Start at step 0 to End at step Steps and
// stays at End after (CleanRL's learning-rate annealing, Tianshou's LambdaLR
// with 1 − step/Steps when End is 0).
type LinearDecay struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Steps int     `json:"steps"`
}

// At returns the rate at step: Start + (End − Start)·min(step, Steps)/Steps,
// Start for a negative step, End if Steps ≤ 0.
func (s LinearDecay) At(step int) float64 {
	if s.Steps <= 0 {
		return s.End
	}
	f := float64(min(max(step, 0), s.Steps)) / float64(s.Steps)
	return s.Start + (s.End-s.Start)*f
}

// StepDecay multiplies Start by Gamma every Every steps (PyTorch's StepLR):
// Start·Gamma^⌊step/Every⌋.
type StepDecay struct {
	Start float64 `json:"start"`
	Every int     `json:"every"`
	Gamma float64 `json:"gamma"`
}

// At returns Start·Gamma^⌊step/Every⌋, Start for a negative step. It panics
// with an error wrapping ErrConfig if Every < 1, as an integer division by
// zero would.
func (s StepDecay) At(step int) float64 {
	if s.Every < 1 {
		panic(fmt.Errorf("%w: step decay every %d steps", ErrConfig, s.Every))
	}
	return s.Start * math.Pow(s.Gamma, float64(max(step, 0)/s.Every))
}

// Cosine anneals from Start at step 0 to End at step Steps along half a
// cosine and stays at End after (the closed form of PyTorch's
// CosineAnnealingLR with T_max = Steps and eta_min = End, Loshchilov and
// Hutter, 2017, without restarts).
type Cosine struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Steps int     `json:"steps"`
}

// At returns End + (Start − End)·(1 + cos(π·min(step, Steps)/Steps))/2, Start
// for a negative step, End if Steps ≤ 0.
func (s Cosine) At(step int) float64 {
	if s.Steps <= 0 {
		return s.End
	}
	f := float64(min(max(step, 0), s.Steps)) / float64(s.Steps)
	return s.End + (s.Start-s.End)*(1+math.Cos(math.Pi*f))/2
}
