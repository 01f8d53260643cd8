package classic_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	gorlenv "github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/nd"
)

// TestNoVel steps each partially observed env beside its full env with the
// same seed and actions: the rewards and flags are equal, and each
// observation holds the full one's kept elements (CartPole's x and θ at
// indices 0 and 2, Pendulum's cos θ and sin θ at 0 and 1, as Gymnasium
// orders them).
func TestNoVel(t *testing.T) {
	cases := []struct {
		id, full string
		keep     []int
	}{
		{"CartPoleNoVel-v1", "CartPole-v1", []int{0, 2}},
		{"PendulumNoVel-v1", "Pendulum-v1", []int{0, 1}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			pe, err := gorlenv.Make(c.id)
			if err != nil {
				t.Fatal(err)
			}
			fe, err := gorlenv.Make(c.full)
			if err != nil {
				t.Fatal(err)
			}
			if got := pe.ObservationSpace().(*gorlenv.Box).Shape(); !slices.Equal(got, []int{len(c.keep)}) {
				t.Fatalf("observation shape %v; want [%d]", got, len(c.keep))
			}
			if !pe.ActionSpace().Equal(fe.ActionSpace()) {
				t.Errorf("action space %v; want %v", pe.ActionSpace(), fe.ActionSpace())
			}
			spec, _ := gorlenv.Lookup(c.id)
			fspec, _ := gorlenv.Lookup(c.full)
			if spec.MaxEpisodeSteps != fspec.MaxEpisodeSteps {
				t.Errorf("MaxEpisodeSteps %d; want %d", spec.MaxEpisodeSteps, fspec.MaxEpisodeSteps)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			po, _, err := pe.Reset(gorlenv.SeedOf(5))
			if err != nil {
				t.Fatal(err)
			}
			fo, _, err := fe.Reset(gorlenv.SeedOf(5))
			if err != nil {
				t.Fatal(err)
			}
			for step := 0; step < 300; step++ {
				p, f := nd.Data[float32](po.(*nd.Array)), nd.Data[float32](fo.(*nd.Array))
				for i, k := range c.keep {
					if p[i] != f[k] {
						t.Fatalf("step %d: obs %v; want elements %v of %v", step, p, c.keep, f)
					}
				}
				a := fe.ActionSpace().Sample(rng)
				var pr, fr float64
				var pt, pu, ft, fu bool
				if po, pr, pt, pu, _, err = pe.Step(a); err != nil {
					t.Fatal(err)
				}
				if fo, fr, ft, fu, _, err = fe.Step(a); err != nil {
					t.Fatal(err)
				}
				if pr != fr || pt != ft || pu != fu {
					t.Fatalf("step %d: (%v %v %v); want (%v %v %v)", step, pr, pt, pu, fr, ft, fu)
				}
				if pt || pu {
					if po, _, err = pe.Reset(gorlenv.Seed{}); err != nil {
						t.Fatal(err)
					}
					if fo, _, err = fe.Reset(gorlenv.Seed{}); err != nil {
						t.Fatal(err)
					}
				}
			}
			envtest.Check(t, pe)
		})
	}
}

// TestNoVelAllocs locks the wrapper's Step at zero allocations.
func TestNoVelAllocs(t *testing.T) {
	e, err := gorlenv.Make("CartPoleNoVel-v1")
	if err != nil {
		t.Fatal(err)
	}
	act := nd.MustNew(int64(1))
	if _, _, err := e.Reset(gorlenv.SeedOf(1)); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		_, _, term, trunc, _, err := e.Step(act)
		if err != nil {
			t.Fatal(err)
		}
		if term || trunc {
			if _, _, err := e.Reset(gorlenv.Seed{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Step allocates %v times; want 0", allocs)
	}
}
