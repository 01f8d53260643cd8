package tabular

import (
	"errors"
	"fmt"
	"math"
)

// ErrMDP is wrapped by the errors of New for tables that do not describe an
// MDP.
var ErrMDP = errors.New("tabular: invalid MDP")

// Outcome is one possible result of taking an action in a state.
type Outcome struct {
	// P is the probability of the outcome, in (0, 1].
	P float64
	// Next is the state the env moves to.
	Next int
	// Reward is the reward of the step.
	Reward float64
	// Terminal marks a step that ends the episode (Gymnasium's terminated).
	Terminal bool
}

// MDP is a finite Markov decision process given by its tables. Build one
// with New, FrozenLake or NChain; its fields are not to be changed after.
type MDP struct {
	// ID names the MDP in errors and saved states, such as "NChain-v0".
	ID string
	// States and Actions are the numbers of states and actions.
	States, Actions int
	// Trans[s][a] lists the outcomes of action a in state s.
	Trans [][][]Outcome
	// Start is the distribution of the first state of an episode.
	Start []float64
}

// New returns the MDP of the tables after checking them: trans must give,
// for each of states states and actions actions, outcomes with probabilities
// in (0, 1] summing to 1 (within 1e-9), next states in range and finite
// rewards; start must be a distribution over the states. It returns an error
// wrapping ErrMDP naming the first fault.
func New(id string, states, actions int, trans [][][]Outcome, start []float64) (*MDP, error) {
	bad := func(format string, args ...any) (*MDP, error) {
		return nil, fmt.Errorf("%w: %s: %s", ErrMDP, id, fmt.Sprintf(format, args...))
	}
	if states < 1 || actions < 1 {
		return bad("%d states and %d actions; want at least 1 of each", states, actions)
	}
	if len(trans) != states || len(start) != states {
		return bad("%d rows of transitions and %d start probabilities for %d states", len(trans), len(start), states)
	}
	if err := distribution(start); err != nil {
		return bad("start: %v", err)
	}
	for s, row := range trans {
		if len(row) != actions {
			return bad("state %d has %d actions; want %d", s, len(row), actions)
		}
		for a, outs := range row {
			p := make([]float64, len(outs))
			for i, o := range outs {
				if uint(o.Next) >= uint(states) {
					return bad("state %d action %d: next state %d out of range", s, a, o.Next)
				}
				if math.IsNaN(o.Reward) || math.IsInf(o.Reward, 0) {
					return bad("state %d action %d: reward %v", s, a, o.Reward)
				}
				p[i] = o.P
			}
			if err := distribution(p); err != nil {
				return bad("state %d action %d: %v", s, a, err)
			}
		}
	}
	return &MDP{ID: id, States: states, Actions: actions, Trans: trans, Start: start}, nil
}

// distribution returns an error unless p is a probability distribution.
func distribution(p []float64) error {
	if len(p) == 0 {
		return errors.New("no outcomes")
	}
	sum := 0.0
	for _, x := range p {
		if !(x >= 0 && x <= 1) {
			return fmt.Errorf("probability %v outside [0, 1]", x)
		}
		sum += x
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("probabilities sum to %v", sum)
	}
	return nil
}

// Mean returns the expected reward of action a in state s and stores in p
// (len States+1) the probabilities of the next states, the last entry being
// the probability that the episode terminates (after which nothing more is
// earned).
func (m *MDP) Mean(s, a int, p []float64) float64 {
	clear(p)
	r := 0.0
	for _, o := range m.Trans[s][a] {
		r += o.P * o.Reward
		if o.Terminal {
			p[m.States] += o.P
		} else {
			p[o.Next] += o.P
		}
	}
	return r
}

// ValueIteration returns the optimal action values Q[s][a] of m with
// discount gamma in [0, 1), iterated until no value changes by more than
// tol.
func (m *MDP) ValueIteration(gamma, tol float64) [][]float64 {
	r := make([][]float64, m.States)
	p := make([][][]float64, m.States)
	for s := range r {
		r[s], p[s] = make([]float64, m.Actions), make([][]float64, m.Actions)
		for a := range r[s] {
			p[s][a] = make([]float64, m.States+1)
			r[s][a] = m.Mean(s, a, p[s][a])
		}
	}
	q := make([][]float64, m.States)
	for s := range q {
		q[s] = make([]float64, m.Actions)
	}
	v := make([]float64, m.States+1)
	for {
		delta := 0.0
		for s := range q {
			for a := range q[s] {
				x := r[s][a]
				for t := range m.States {
					x += gamma * p[s][a][t] * v[t]
				}
				q[s][a] = x
			}
		}
		for s := range q {
			best := q[s][0]
			for _, x := range q[s][1:] {
				best = max(best, x)
			}
			delta = max(delta, math.Abs(best-v[s]))
			v[s] = best
		}
		if delta <= tol {
			return q
		}
	}
}

// FiniteHorizon returns the largest expected undiscounted return of h
// steps from each state (finite-horizon value iteration), the benchmark
// that regret over episodes of h steps is measured against.
func (m *MDP) FiniteHorizon(h int) []float64 {
	p := make([]float64, m.States+1)
	v, next := make([]float64, m.States), make([]float64, m.States)
	for range h {
		for s := range m.States {
			best := math.Inf(-1)
			for a := range m.Actions {
				x := m.Mean(s, a, p)
				for t, pt := range p[:m.States] {
					x += pt * v[t]
				}
				best = max(best, x)
			}
			next[s] = best
		}
		v, next = next, v
	}
	return v
}

// FrozenLake returns Gymnasium's FrozenLake-v1 on its default 4×4 map
//
//	SFFF
//	FHFH
//	FFFH
//	HFFG
//
// with slippery ice: the agent moves in the chosen direction (0 left, 1
// down, 2 right, 3 up) or in either perpendicular one, each with
// probability 1/3, and stays put at an edge. Reaching G gives reward 1 and
// ends the episode; falling into a hole H ends it with reward 0. States are
// row·4 + column; every episode starts at S.
func FrozenLake() *MDP {
	grid := []string{"SFFF", "FHFH", "FFFH", "HFFG"}
	const n = 4
	moves := [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} // left, down, right, up as (row, column)
	trans := make([][][]Outcome, n*n)
	for s := range trans {
		r, c := s/n, s%n
		trans[s] = make([][]Outcome, 4)
		for a := range 4 {
			if grid[r][c] == 'H' || grid[r][c] == 'G' {
				// Never entered as a running state: steps end there.
				trans[s][a] = []Outcome{{P: 1, Next: s, Terminal: true}}
				continue
			}
			for _, d := range []int{(a + 3) % 4, a, (a + 1) % 4} {
				nr := min(max(r+moves[d][0], 0), n-1)
				nc := min(max(c+moves[d][1], 0), n-1)
				cell := grid[nr][nc]
				o := Outcome{P: 1.0 / 3, Next: nr*n + nc, Terminal: cell == 'H' || cell == 'G'}
				if cell == 'G' {
					o.Reward = 1
				}
				trans[s][a] = append(trans[s][a], o)
			}
		}
	}
	start := make([]float64, n*n)
	start[0] = 1
	m, err := New("FrozenLake-v1", n*n, 4, trans, start)
	if err != nil {
		panic(err) // the tables above are valid
	}
	return m
}

// NChain returns the chain of Strens (2000) as Gym's NChain-v0 had it: n
// states in a row and two actions, 0 (forward) and 1 (back), each swapped
// for the other with probability slip. Forward moves one state along for
// reward 0, or at the last state stays there for reward large; back returns
// to state 0 for reward small. Episodes start at state 0 and never
// terminate (a time limit ends them). NChain(5, 0.2, 2, 10) is NChain-v0.
func NChain(n int, slip, small, large float64) (*MDP, error) {
	if n < 2 || !(slip >= 0 && slip <= 1) {
		return nil, fmt.Errorf("%w: NChain(%d, slip %v): want n ≥ 2 and slip in [0, 1]", ErrMDP, n, slip)
	}
	step := func(s, a int) Outcome {
		switch {
		case a == 1:
			return Outcome{Next: 0, Reward: small}
		case s < n-1:
			return Outcome{Next: s + 1}
		default:
			return Outcome{Next: s, Reward: large}
		}
	}
	trans := make([][][]Outcome, n)
	for s := range trans {
		trans[s] = make([][]Outcome, 2)
		for a := range 2 {
			var outs []Outcome
			for _, x := range []struct {
				p float64
				a int
			}{{1 - slip, a}, {slip, 1 - a}} {
				if x.p > 0 {
					o := step(s, x.a)
					o.P = x.p
					outs = append(outs, o)
				}
			}
			trans[s][a] = outs
		}
	}
	start := make([]float64, n)
	start[0] = 1
	return New("NChain-v0", n, 2, trans, start)
}
