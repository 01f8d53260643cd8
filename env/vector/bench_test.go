package vector_test

import (
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
)

// benchFakes measures the vector machinery alone: fakes cost a few
// nanoseconds per step.
func BenchmarkFakeStep(b *testing.B) {
	for _, k := range kinds {
		for _, n := range []int{1, 8} {
			b.Run(k.name+"/"+itoa(n), func(b *testing.B) {
				envs, _ := fakes(b, n, envtest.Config{Lengths: []int{1 << 30}})
				v := newVec(b, k.make, envs)
				benchSteps(b, v, n)
			})
		}
	}
}

func benchSteps(b *testing.B, v vector.Env, n int) {
	if _, err := v.Reset(bg, nil, seeds(n)); err != nil {
		b.Fatal(err)
	}
	act := actions(n, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := v.Step(bg, nil, act)
		if err != nil {
			b.Fatal(err)
		}
		var ended []int
		for j, id := range r.IDs {
			if r.Terminated[j] || r.Truncated[j] {
				ended = append(ended, id)
			}
		}
		if ended != nil {
			if _, err := v.Reset(bg, ended, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
}

func seeds(n int) []env.Seed {
	s := make([]env.Seed, n)
	for i := range s {
		s[i] = env.SeedOf(uint64(i))
	}
	return s
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}
