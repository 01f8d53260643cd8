package collector_test

import (
	"testing"

	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env/envtest"
)

// FuzzCollectCounts runs Collects of random kinds on fakes with random
// episode lengths and checks the counting rules: n_episode exact, and every
// env that stepped left with its episode finished; n_step exact with one
// env, whole vector steps with several (at least n_step, less than n_step +
// envs); every step stored, in unbroken per-env chains.
func FuzzCollectCounts(f *testing.F) {
	f.Add(uint8(3), []byte{1, 2, 3, 4, 5, 6}, []byte{5, 130, 7})
	f.Add(uint8(1), []byte{2, 3}, []byte{4, 4, 129})
	f.Add(uint8(4), []byte{1}, []byte{130, 2, 131})
	f.Fuzz(func(t *testing.T, nEnvs uint8, lengths, reqs []byte) {
		n := int(nEnvs%5) + 1
		if len(lengths) == 0 || len(reqs) == 0 || len(reqs) > 8 {
			t.Skip()
		}
		var ls [][]int
		for i := 0; i < n; i++ {
			var l []int
			for j := i; j < len(lengths) && len(l) < 3; j += n {
				l = append(l, int(lengths[j]%6)+1)
			}
			if len(l) == 0 {
				l = []int{1}
			}
			ls = append(ls, l)
		}
		const size = 1000 // 8 requests of at most 20 episodes of at most 6 steps per env
		c, buf := newCollector(t, fakeVec(t, envtest.Config{}, ls...), &fixedPolicy{}, size)
		total := 0
		for _, r := range reqs {
			k := int(r&0x7f)%20 + 1
			before := make([]int, n)
			for sub := range before {
				before[sub] = len(subRows(t, buf, sub, size))
			}
			if r&0x80 != 0 {
				s, err := c.Collect(bg, collector.Request{NEpisode: k})
				if err != nil {
					t.Fatal(err)
				}
				if s.Episodes != k || len(s.Lens) != k {
					t.Fatalf("NEpisode %d: %d episodes", k, s.Episodes)
				}
				stepped := 0
				for sub := 0; sub < n; sub++ {
					rows := subRows(t, buf, sub, size)
					if len(rows) > before[sub] {
						stepped++
						if !rows[len(rows)-1].done {
							t.Errorf("NEpisode %d: env %d stepped and left its episode unfinished", k, sub)
						}
					}
				}
				if stepped > min(n, k) {
					t.Errorf("NEpisode %d: %d envs stepped, want at most %d", k, stepped, min(n, k))
				}
				total += s.Steps
			} else {
				s, err := c.Collect(bg, collector.Request{NStep: k})
				if err != nil {
					t.Fatal(err)
				}
				if s.Steps < k || s.Steps >= k+n || s.Steps%n != 0 {
					t.Fatalf("NStep %d with %d envs: %d steps", k, n, s.Steps)
				}
				total += s.Steps
			}
			if buf.Len() != total {
				t.Fatalf("buffer holds %d transitions, %d collected", buf.Len(), total)
			}
		}
		checkChains(t, buf, n, size, false)
	})
}
