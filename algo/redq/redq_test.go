package redq_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/redq"
	"github.com/gorl/gorl/buffer"
)

func small(hidden int) redq.Config {
	cfg := redq.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden = []int{hidden}, []int{hidden}
	cfg.EnsembleSize, cfg.SubsetSize, cfg.ActorDelay = 4, 2, 2
	cfg.Tau = 0.1
	cfg.AutoAlpha = true
	return cfg
}

func newREDQ(hidden int) func(t testing.TB, rng *rand.Rand) *redq.REDQ {
	return func(t testing.TB, rng *rand.Rand) *redq.REDQ {
		r, err := redq.New(small(hidden), algotest.Box(t, -10, 10, 4), algotest.Box(t, -2, 2, 2), rng)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.OffPolicy[*redq.REDQ]{
		New:    newREDQ(16),
		Params: (*redq.REDQ).Params,
		Other:  func(t testing.TB) *redq.REDQ { return newREDQ(8)(t, rand.New(rand.NewPCG(1, 1))) },
		Buffer: func(t testing.TB, rng *rand.Rand) buffer.Buffer {
			return algotest.Collection(t, 4, 50, algotest.Box(t, -2, 2, 2), rng)
		},
	})
}

func TestNewRejects(t *testing.T) {
	box := algotest.Box(t, -1, 1, 2)
	for _, tc := range []struct {
		name string
		edit func(*redq.Config)
		want string
	}{
		{"tau 0", func(c *redq.Config) { c.Tau = 0 }, "tau"},
		{"tau above 1", func(c *redq.Config) { c.Tau = 1.01 }, "tau"},
		{"ensemble smaller than subset", func(c *redq.Config) { c.EnsembleSize, c.SubsetSize = 2, 3 }, "ensemble_size 2 smaller than subset_size 3"},
		{"ensemble 0", func(c *redq.Config) { c.EnsembleSize = 0 }, "ensemble_size"},
		{"subset 0", func(c *redq.Config) { c.SubsetSize = 0 }, "subset_size"},
		{"actor delay", func(c *redq.Config) { c.ActorDelay = 0 }, "actor_delay"},
		{"alpha", func(c *redq.Config) { c.Alpha = -1 }, "alpha"},
		{"gamma", func(c *redq.Config) { c.Gamma = 2 }, "gamma"},
		{"n_step", func(c *redq.Config) { c.NStep = 0 }, "n_step"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := redq.DefaultConfig()
			tc.edit(&cfg)
			_, err := redq.New(cfg, box, box, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, redq.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want ErrConfig naming %q", err, tc.want)
			}
		})
	}
	_, err := redq.New(redq.DefaultConfig(), box, algotest.Discrete(t, 3, 0), rand.New(rand.NewPCG(1, 1)))
	if !errors.Is(err, redq.ErrConfig) || !strings.Contains(err.Error(), "Discrete") {
		t.Errorf("New on a Discrete space: %v; want ErrConfig naming the space", err)
	}
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
