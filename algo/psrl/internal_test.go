package psrl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/env"
)

// TestGammaMoments checks the Gamma sampler: mean and variance of Gamma(a,
// 1) are both a; within 4 standard errors over 200,000 draws (the
// variance's standard error uses the fourth central moment 3a² + 6a).
func TestGammaMoments(t *testing.T) {
	for _, a := range []float64{0.3, 1, 2.5, 40} {
		rng := rand.New(rand.NewPCG(1, uint64(a*10)))
		const n = 200_000
		var sum, sq float64
		for range n {
			x := gamma(rng, a)
			sum += x
			sq += x * x
		}
		mean := sum / n
		v := sq/n - mean*mean
		if math.Abs(mean-a) > 4*math.Sqrt(a/n) {
			t.Errorf("Gamma(%v): mean %v; want %v", a, mean, a)
		}
		if se := math.Sqrt((3*a*a + 6*a - a*a) / n); math.Abs(v-a) > 4*se {
			t.Errorf("Gamma(%v): variance %v; want %v ± %v", a, v, a, 4*se)
		}
	}
}

// TestPosteriorDraws checks the draws of one state-action pair against the
// closed forms. Rewards 1, 2, 3 with μ₀ = 0, κ₀ = α₀ = β₀ = 1 give κₙ = 4,
// μₙ = 6/4 = 1.5, αₙ = 2.5, βₙ = 1 + 2/2 + 1·3·2²/(2·4) = 3.5, so the mean
// reward is Student-t with 5 degrees of freedom, location 1.5 and scale²
// βₙ/(αₙκₙ) = 0.35: variance 0.35·5/3. Transitions to next states 0, 0
// and 1 with prior counts 1 give Dirichlet(3, 2): P(0) has mean 0.6 and
// variance 0.6·0.4/6 = 0.04; the terminal outcome, never seen, has
// probability 0.
func TestPosteriorDraws(t *testing.T) {
	d, _ := env.NewDiscrete(2, 0)
	one, _ := env.NewDiscrete(1, 0)
	p, err := New(DefaultConfig(), d, one, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	p.post.Trans[0], p.post.Trans[1] = 2, 1
	p.post.RewN[0], p.post.RewSum[0], p.post.RewSq[0] = 3, 6, 14
	const n = 100_000
	var rs, rq, ps, pq float64
	for range n {
		p.draw()
		r, q := p.r[0], p.p[0]
		rs, rq, ps, pq = rs+r, rq+r*r, ps+q, pq+q*q
		if p.p[2] != 0 {
			t.Fatalf("terminal probability %v; want 0 (never observed)", p.p[2])
		}
	}
	for _, c := range []struct {
		name          string
		sum, sq, m, v float64
	}{
		{"mean reward", rs, rq, 1.5, 0.35 * 5 / 3},
		{"P(next 0)", ps, pq, 0.6, 0.04},
	} {
		mean := c.sum / n
		v := c.sq/n - mean*mean
		if math.Abs(mean-c.m) > 4*math.Sqrt(c.v/n) || math.Abs(v-c.v) > 0.05*c.v {
			t.Errorf("%s: mean %v, variance %v; want %v and %v", c.name, mean, v, c.m, c.v)
		}
	}
}
