package actorcritic

import "math/rand/v2"

// Smooth adds the target policy smoothing noise of TD3 and TD3+BC to the
// actions act: σ·ε with ε ~ N(0, 1) from rng.NormFloat64, clipped to
// [−clip, clip] when clip > 0. σ = 0 adds nothing and draws nothing.
func Smooth(act []float32, sigma, clip float64, rng *rand.Rand) {
	if sigma == 0 {
		return
	}
	for i := range act {
		e := sigma * rng.NormFloat64()
		if clip > 0 {
			e = min(max(e, -clip), clip)
		}
		act[i] += float32(e)
	}
}
