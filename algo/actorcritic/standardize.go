package actorcritic

import "math"

// Standardize standardizes x in place, (x − mean)/(std + 10⁻⁸) with the
// sample standard deviation (n − 1 in the divisor, as torch's std) and
// Tianshou's 10⁻⁸; a single value becomes 0. PPO applies it to the
// advantages of each minibatch, NPG and TRPO to those of each collection.
func Standardize(x []float32) {
	var sum float64
	for _, v := range x {
		sum += float64(v)
	}
	mean := sum / float64(len(x))
	var ss float64
	for _, v := range x {
		d := float64(v) - mean
		ss += d * d
	}
	std := 0.0
	if len(x) > 1 {
		std = math.Sqrt(ss / float64(len(x)-1))
	}
	for i, v := range x {
		x[i] = float32((float64(v) - mean) / (std + 1e-8))
	}
}
