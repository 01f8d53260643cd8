package env_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// TestSelectObservation checks the kept elements of envtest.Fake's
// observation [ID, episode, step] against the Fake's own, the space's bounds
// against the Fake's Box(0, inf, (3,)), and the refused arguments.
func TestSelectObservation(t *testing.T) {
	cases := []struct {
		keep []int
		err  bool
	}{
		{keep: []int{2}},
		{keep: []int{2, 0}},
		{keep: []int{0, 1, 2}},
		{keep: nil, err: true},
		{keep: []int{3}, err: true},
		{keep: []int{-1}, err: true},
		{keep: []int{1, 1}, err: true},
	}
	for _, c := range cases {
		f := envtest.MustNew(envtest.Config{ID: 7, Lengths: []int{3}})
		s, err := env.NewSelectObservation(f, c.keep)
		if c.err {
			if !errors.Is(err, env.ErrSpace) {
				t.Errorf("keep %v: error %v; want ErrSpace", c.keep, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("keep %v: %v", c.keep, err)
		}
		box := s.ObservationSpace().(*env.Box)
		if !slices.Equal(box.Shape(), []int{len(c.keep)}) || box.DType() != nd.Float32 {
			t.Errorf("keep %v: space %v", c.keep, box)
		}
		obs, _, err := s.Reset(env.SeedOf(1))
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			full := []float32{7, 0, float32(step)} // the Fake's observation after step steps
			got := nd.Data[float32](obs.(*nd.Array))
			for i, k := range c.keep {
				if got[i] != full[k] {
					t.Errorf("keep %v, step %d: obs %v; want elements %v of %v", c.keep, step, got, c.keep, full)
				}
			}
			if !box.Contains(obs) {
				t.Errorf("keep %v: obs %v outside %v", c.keep, got, box)
			}
			var term, trunc bool
			obs, _, term, trunc, _, err = s.Step(nd.MustNew(int64(0)))
			if err != nil {
				t.Fatal(err)
			}
			if term || trunc {
				break
			}
		}
	}
	if _, err := env.NewSelectObservation(envtest.MustNew(envtest.Config{Dict: true}), []int{0}); !errors.Is(err, env.ErrSpace) {
		t.Errorf("a Dict observation space: error %v; want ErrSpace", err)
	}
}

func TestSelectObservationConformance(t *testing.T) {
	s, err := env.NewSelectObservation(envtest.MustNew(envtest.Config{Lengths: []int{4, 6}}), []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	envtest.Check(t, s)
}
