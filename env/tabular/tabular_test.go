package tabular_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/tabular"
	"github.com/gorl/gorl/nd"
)

func TestCheck(t *testing.T) {
	for _, id := range []string{"FrozenLake-v1", "NChain-v0"} {
		t.Run(id, func(t *testing.T) {
			e, err := env.Make(id)
			if err != nil {
				t.Fatal(err)
			}
			envtest.Check(t, e)
		})
	}
}

func TestNewRejects(t *testing.T) {
	ok := [][][]tabular.Outcome{{{{P: 1, Next: 0}}}}
	for _, c := range []struct {
		name   string
		states int
		trans  [][][]tabular.Outcome
		start  []float64
		want   string
	}{
		{"no states", 0, nil, nil, "0 states"},
		{"start sums to 0.5", 1, ok, []float64{0.5}, "sum to 0.5"},
		{"next out of range", 1, [][][]tabular.Outcome{{{{P: 1, Next: 1}}}}, []float64{1}, "next state 1"},
		{"probabilities sum to 0.9", 1, [][][]tabular.Outcome{{{{P: 0.9, Next: 0}}}}, []float64{1}, "sum to 0.9"},
		{"NaN reward", 1, [][][]tabular.Outcome{{{{P: 1, Reward: math.NaN()}}}}, []float64{1}, "reward NaN"},
		{"no outcomes", 1, [][][]tabular.Outcome{{{}}}, []float64{1}, "no outcomes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := tabular.New("T", c.states, 1, c.trans, c.start)
			if !errors.Is(err, tabular.ErrMDP) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v; want ErrMDP naming %q", err, c.want)
			}
		})
	}
}

// TestNChainOptimal checks the known optimal policy of NChain-v0 with γ =
// 0.99 (Strens 2000): always forward, for the large reward at the end of
// the chain, worth more than the sure small reward of always going back.
func TestNChainOptimal(t *testing.T) {
	m, err := tabular.NChain(5, 0.2, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	q := m.ValueIteration(0.99, 1e-9)
	for s := range q {
		if !(q[s][0] > q[s][1]) {
			t.Errorf("state %d: Q forward %v ≤ Q back %v; forward is optimal", s, q[s][0], q[s][1])
		}
	}
	// Always back earns 0.8·2 + 0.2·0 from state 0 every step: a value of
	// 1.6/(1 − 0.99) = 160 from state 0; the optimal value must beat it.
	if q[0][1] < 160-1e-6 || q[0][0] <= 160 {
		t.Errorf("Q(0) = %v; want back ≥ 160 and forward > 160", q[0])
	}
}

// TestFrozenLakeSteps checks the slippery moves from the start: left from
// the corner stays there or goes down, each outcome 1/3 (stay twice: left
// and up both bump into the wall), and the goal pays 1 and terminates.
func TestFrozenLakeSteps(t *testing.T) {
	m := tabular.FrozenLake()
	p := make([]float64, m.States+1)
	if r := m.Mean(0, 0, p); r != 0 || math.Abs(p[0]-2.0/3) > 1e-12 || math.Abs(p[4]-1.0/3) > 1e-12 {
		t.Errorf("left from 0: reward %v, next %v; want 0, 2/3 at 0 and 1/3 at 4", r, p)
	}
	// Right from 14 (next to the goal): right reaches G (1/3), down stays
	// (1/3), up goes to 10 (1/3).
	if r := m.Mean(14, 2, p); math.Abs(r-1.0/3) > 1e-12 || math.Abs(p[m.States]-1.0/3) > 1e-12 {
		t.Errorf("right from 14: reward %v, termination %v; want 1/3 and 1/3", r, p[m.States])
	}
}

// TestNChainSlip counts how often forward from state 0 slips back: 20% of
// the steps, within 4 standard deviations over 20,000 draws.
func TestNChainSlip(t *testing.T) {
	e, err := env.Make("NChain-v0")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	fwd := nd.Zeros(nd.Int64)
	const n = 20_000
	back := 0
	if _, _, err := e.Reset(env.SeedOf(3)); err != nil {
		t.Fatal(err)
	}
	for range n {
		obs, r, _, trunc, _, err := e.Step(fwd)
		if err != nil {
			t.Fatal(err)
		}
		if r == 2 {
			back++
			if nd.Data[int64](obs.(*nd.Array))[0] != 0 {
				t.Fatal("a slip did not return to state 0")
			}
		}
		if trunc {
			if _, _, err := e.Reset(env.NoSeed); err != nil {
				t.Fatal(err)
			}
		}
	}
	sd := math.Sqrt(n * 0.2 * 0.8)
	if math.Abs(float64(back)-0.2*n) > 4*sd {
		t.Errorf("%d slips in %d steps; want about %v", back, n, 0.2*n)
	}
}

// TestFiniteHorizon checks NChain-v0's finite-horizon values from state 0:
// one step earns at most 0.8·2 = 1.6 (back), two steps 3.2 (back twice,
// the chain being too long to reach its end).
func TestFiniteHorizon(t *testing.T) {
	m, err := tabular.NChain(5, 0.2, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		h    int
		want float64
	}{{0, 0}, {1, 1.6}, {2, 3.2}} {
		if got := m.FiniteHorizon(c.h)[0]; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("FiniteHorizon(%d)[0] = %v; want %v", c.h, got, c.want)
		}
	}
}
