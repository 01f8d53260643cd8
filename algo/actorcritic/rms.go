package actorcritic

import "math"

// RunningMeanStd keeps the mean and the (population) variance of all the
// values it was updated with, merging each batch with the pairwise formula of
// Chan, Golub and LeVeque (1979): Tianshou's RunningMeanStd, without its
// clipping. Before the first update it reports mean 0 and variance 1, as
// Tianshou's starts. It is plain data with JSON tags, saved with an
// algorithm's counters.
type RunningMeanStd struct {
	// Mean and Var are the mean and variance of the Count values so far.
	Mean  float64 `json:"mean"`
	Var   float64 `json:"var"`
	Count int64   `json:"count"`
}

// Std returns √(Var + eps), the divisor of standardization (√(1 + eps)
// before the first update).
func (r *RunningMeanStd) Std(eps float64) float64 {
	if r.Count == 0 {
		return math.Sqrt(1 + eps)
	}
	return math.Sqrt(r.Var + eps)
}

// Update merges the values x into the statistics. Sums are accumulated in
// float64. An empty x changes nothing.
func (r *RunningMeanStd) Update(x []float32) {
	if len(x) == 0 {
		return
	}
	var sum float64
	for _, v := range x {
		sum += float64(v)
	}
	n := float64(len(x))
	mean := sum / n
	var ss float64
	for _, v := range x {
		d := float64(v) - mean
		ss += d * d
	}
	if r.Count == 0 {
		r.Mean, r.Var, r.Count = mean, ss/n, int64(len(x))
		return
	}
	m := float64(r.Count)
	total := m + n
	delta := mean - r.Mean
	r.Mean += delta * n / total
	r.Var = (r.Var*m + ss + delta*delta*m*n/total) / total
	r.Count += int64(len(x))
}
