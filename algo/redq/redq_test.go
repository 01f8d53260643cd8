package redq_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/redq"
)

func small(hidden int) redq.Config {
	cfg := redq.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.Tau, cfg.AutoAlpha = []int{hidden}, []int{hidden}, 0.1, true
	cfg.EnsembleSize, cfg.SubsetSize, cfg.ActorDelay = 4, 2, 2
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(redq.New, small, algotest.Box(t, -2, 2, 2), (*redq.REDQ).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, redq.DefaultConfig, redq.New, redq.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[redq.Config]{
		{Name: "tau 0", Edit: func(c *redq.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "tau above 1", Edit: func(c *redq.Config) { c.Tau = 1.01 }, Want: "tau"},
		{Name: "ensemble smaller than subset", Edit: func(c *redq.Config) { c.EnsembleSize, c.SubsetSize = 2, 3 }, Want: "ensemble_size 2 smaller than subset_size 3"},
		{Name: "ensemble 0", Edit: func(c *redq.Config) { c.EnsembleSize = 0 }, Want: "ensemble_size"},
		{Name: "subset 0", Edit: func(c *redq.Config) { c.SubsetSize = 0 }, Want: "subset_size"},
		{Name: "actor delay", Edit: func(c *redq.Config) { c.ActorDelay = 0 }, Want: "actor_delay"},
		{Name: "alpha", Edit: func(c *redq.Config) { c.Alpha = -1 }, Want: "alpha"},
		{Name: "gamma", Edit: func(c *redq.Config) { c.Gamma = 2 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *redq.Config) { c.NStep = 0 }, Want: "n_step"},
	}, algotest.Discrete(t, 3, 0))
}

// TestSampleSubset checks that a subset is M distinct indices of the N
// critics, and that over many draws each index is drawn with probability
// M/N and each pair with probability 1/C(N, 2) for M = 2, as a uniform
// sample without replacement gives (tolerances of about 5 standard
// errors).
func TestSampleSubset(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{10, 2}, {5, 2}, {4, 4}, {3, 1}} {
		perm := make([]int, tc.n)
		for i := range perm {
			perm[i] = i
		}
		rng := rand.New(rand.NewPCG(1, 2))
		const draws = 20000
		count := make([]int, tc.n)
		pairs := map[[2]int]int{}
		for range draws {
			s := redq.SampleSubset(perm, tc.m, rng)
			if len(s) != tc.m {
				t.Fatalf("N=%d M=%d: subset %v", tc.n, tc.m, s)
			}
			seen := map[int]bool{}
			for _, v := range s {
				if v < 0 || v >= tc.n || seen[v] {
					t.Fatalf("N=%d M=%d: subset %v not distinct indices", tc.n, tc.m, s)
				}
				seen[v] = true
				count[v]++
			}
			if tc.m == 2 {
				pairs[[2]int{min(s[0], s[1]), max(s[0], s[1])}]++
			}
		}
		p := float64(tc.m) / float64(tc.n)
		for i, c := range count {
			f := float64(c) / draws
			if d := f - p; d > 5*math.Sqrt(p*(1-p)/draws)+1e-12 || -d > 5*math.Sqrt(p*(1-p)/draws)+1e-12 {
				t.Errorf("N=%d M=%d: index %d drawn with frequency %v, want %v", tc.n, tc.m, i, f, p)
			}
		}
		if tc.m == 2 {
			want := 2 / float64(tc.n*(tc.n-1))
			if len(pairs) != tc.n*(tc.n-1)/2 {
				t.Errorf("N=%d: %d distinct pairs, want %d", tc.n, len(pairs), tc.n*(tc.n-1)/2)
			}
			for k, c := range pairs {
				f := float64(c) / draws
				if d := f - want; d > 5*math.Sqrt(want*(1-want)/draws) || -d > 5*math.Sqrt(want*(1-want)/draws) {
					t.Errorf("N=%d: pair %v frequency %v, want %v", tc.n, k, f, want)
				}
			}
		}
	}
}
