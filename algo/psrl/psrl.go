package psrl

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// PSRL is posterior sampling for finite MDPs (see the package doc). It is
// an algo.OnPolicy algorithm; its policy is a *policy.Q acting greedily on
// the action values of the last drawn MDP.
//
// A PSRL is driven by one goroutine at a time.
type PSRL struct {
	cfg    Config
	ns, na int
	obs    *env.Discrete
	act    *env.Discrete

	post  posterior
	table *table
	pol   *policy.Q
	src   *rand.PCG // draws of the MDPs
	rng   *rand.Rand
	pSrc  *rand.PCG // the policy's (unused while ε is 0, saved all the same)

	// Scratch of a draw: probabilities [ns·na·(ns+1)], mean rewards
	// [ns·na], values [ns].
	p, r, v []float64
	stats   map[string]float64
}

// posterior holds the sufficient statistics of the observations, saved as
// they are. Trans is indexed [(s·na + a)·(ns+1) + s′], s′ = ns the end of
// the episode; the reward statistics [s·na + a].
type posterior struct {
	Trans  []float64 `json:"trans"`
	RewN   []float64 `json:"rew_n"`
	RewSum []float64 `json:"rew_sum"`
	RewSq  []float64 `json:"rew_sq"`
	Value  []float64 `json:"value"` // the last solution's state values
	// Updates counts the posterior updates, Sweeps the value-iteration
	// sweeps of the last one.
	Updates int64 `json:"updates"`
	Sweeps  int   `json:"sweeps"`
}

// New returns a PSRL for an env with Discrete observation and action
// spaces, its random sources seeded from rng. Before its first update it
// acts on an MDP drawn from the prior, as Tianshou's does.
//
// New returns an error wrapping ErrConfig for an invalid cfg or spaces that
// are not Discrete, naming the space.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*PSRL, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	as, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: PSRL needs a Discrete action space, not %v", ErrConfig, act)
	}
	os, ok := obs.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: PSRL needs a Discrete observation space, not %v", ErrConfig, obs)
	}
	ns, na := int(os.N()), int(as.N())
	if ns*na*(ns+1) > 1<<26 {
		return nil, fmt.Errorf("%w: %d states × %d actions is too large a table", ErrConfig, ns, na)
	}
	p := &PSRL{
		cfg: cfg, ns: ns, na: na, obs: os, act: as,
		post: posterior{
			Trans: make([]float64, ns*na*(ns+1)), RewN: make([]float64, ns*na), RewSum: make([]float64, ns*na),
			RewSq: make([]float64, ns*na), Value: make([]float64, ns),
		},
		table: newTable(ns, na, os.Start()),
		src:   rand.NewPCG(rng.Uint64(), rng.Uint64()),
		pSrc:  rand.NewPCG(rng.Uint64(), rng.Uint64()),
		p:     make([]float64, ns*na*(ns+1)), r: make([]float64, ns*na), v: make([]float64, ns),
		stats: map[string]float64{"sweeps": 0, "transitions": 0},
	}
	p.rng = rand.New(p.src)
	var err error
	if p.pol, err = policy.NewQ(p.table, as, rand.New(p.pSrc)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := p.pol.SetEps(0, 0); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	p.draw()
	p.post.Sweeps = p.solve()
	return p, nil
}

// Config returns the configuration.
func (p *PSRL) Config() Config { return p.cfg }

// Policy returns the greedy *policy.Q over the last solution.
func (p *PSRL) Policy() policy.Policy { return p.pol }

// Q returns the action values of the last drawn MDP, [states, actions]
// (the policy's table; do not modify).
func (p *PSRL) Q() *tensor.Tensor { return p.table.q }

// Updates returns the number of posterior updates.
func (p *PSRL) Updates() int64 { return p.post.Updates }

// Preprocess does nothing: the update reads the transitions as the buffer
// stores them.
func (p *PSRL) Preprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Postprocess does nothing.
func (p *PSRL) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// UpdateRepeat adds the transitions of b (obs, act and obs_next as int64
// arrays [N], rew as float64 and terminated as bool, as a buffer stores
// them) to the posterior, draws an MDP from it and solves it; the policy
// then acts greedily on the drawn MDP's action values. batchSize and repeat
// are ignored. It returns "transitions" (the number of transitions observed
// so far) and "sweeps" (those of value iteration), in a map owned by the
// PSRL.
//
// UpdateRepeat returns an error, changing nothing, if b lacks a key, holds
// another dtype, or holds a state or action outside the spaces.
func (p *PSRL) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	obs, err := batch.Values[int64](b, batch.KeyObs)
	if err != nil {
		return nil, fmt.Errorf("psrl: %w", err)
	}
	next, err := batch.Values[int64](b, batch.KeyObsNext)
	if err != nil {
		return nil, fmt.Errorf("psrl: %w", err)
	}
	act, err := batch.Values[int64](b, batch.KeyAct)
	if err != nil {
		return nil, fmt.Errorf("psrl: %w", err)
	}
	rew, err := batch.Values[float64](b, batch.KeyRew)
	if err != nil {
		return nil, fmt.Errorf("psrl: %w", err)
	}
	term, err := batch.Values[bool](b, batch.KeyTerminated)
	if err != nil {
		return nil, fmt.Errorf("psrl: %w", err)
	}
	n := len(obs)
	if len(next) != n || len(act) != n || len(rew) != n || len(term) != n {
		return nil, fmt.Errorf("psrl: obs %d, obs_next %d, act %d, rew %d, terminated %d rows", n, len(next), len(act), len(rew), len(term))
	}
	os, as := p.obs.Start(), p.act.Start()
	for i := range n {
		s, s2, a := obs[i]-os, next[i]-os, act[i]-as
		if s < 0 || s >= int64(p.ns) || s2 < 0 || s2 >= int64(p.ns) || a < 0 || a >= int64(p.na) {
			return nil, fmt.Errorf("psrl: transition %d: state %d, action %d, next state %d outside %v × %v", i, obs[i], act[i], next[i], p.obs, p.act)
		}
		if math.IsNaN(rew[i]) || math.IsInf(rew[i], 0) {
			return nil, fmt.Errorf("psrl: transition %d: reward %v", i, rew[i])
		}
	}
	for i := range n {
		sa := int(obs[i]-os)*p.na + int(act[i]-as)
		to := int(next[i] - os)
		if term[i] {
			to = p.ns
		}
		p.post.Trans[sa*(p.ns+1)+to]++
		p.post.RewN[sa]++
		p.post.RewSum[sa] += rew[i]
		p.post.RewSq[sa] += rew[i] * rew[i]
	}
	p.draw()
	p.post.Sweeps = p.solve()
	p.post.Updates++
	total := 0.0
	for _, c := range p.post.RewN {
		total += c
	}
	p.stats["transitions"], p.stats["sweeps"] = total, float64(p.post.Sweeps)
	return p.stats, nil
}

// draw fills p.p and p.r with an MDP drawn from the posterior.
func (p *PSRL) draw() {
	c := p.cfg
	beta0 := c.RewPriorShape * c.RewStdPrior * c.RewStdPrior
	w := p.ns + 1
	for sa := range p.r {
		row, counts := p.p[sa*w:(sa+1)*w], p.post.Trans[sa*w:(sa+1)*w]
		sum := 0.0
		for j, k := range counts {
			alpha := k
			if j < p.ns {
				alpha += c.TransCountPrior
			}
			row[j] = 0
			if alpha > 0 {
				row[j] = gamma(p.rng, alpha)
			}
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum
		}
		// Normal-Gamma posterior of the mean reward.
		n := p.post.RewN[sa]
		kn, mu, an, bn := c.RewPriorCount, c.RewMeanPrior, c.RewPriorShape, beta0
		if n > 0 {
			mean := p.post.RewSum[sa] / n
			m2 := max(p.post.RewSq[sa]-n*mean*mean, 0)
			kn = c.RewPriorCount + n
			mu = (c.RewPriorCount*c.RewMeanPrior + n*mean) / kn
			an = c.RewPriorShape + n/2
			d := mean - c.RewMeanPrior
			bn = beta0 + m2/2 + c.RewPriorCount*n*d*d/(2*kn)
		}
		tau := gamma(p.rng, an) / bn
		p.r[sa] = mu + p.rng.NormFloat64()/math.Sqrt(kn*tau)
	}
}

// solve runs value iteration on the drawn MDP from the last values,
// stores the action values in the policy's table and the state values in
// the posterior, and returns the number of sweeps.
func (p *PSRL) solve() int {
	copy(p.v, p.post.Value)
	q := p.table.q.Data()
	w := p.ns + 1
	g := p.cfg.Gamma
	sweeps := 0
	for {
		sweeps++
		delta := 0.0
		for s := range p.ns {
			best := math.Inf(-1)
			for a := range p.na {
				sa := s*p.na + a
				x := p.r[sa]
				for t, pt := range p.p[sa*w : sa*w+p.ns] {
					x += g * pt * p.v[t]
				}
				q[sa] = float32(x)
				best = max(best, x)
			}
			delta = max(delta, math.Abs(best-p.v[s]))
			p.v[s] = best
		}
		// γ < 1 makes the sweeps a contraction; the bound is a guard
		// against rounding that keeps delta above Epsilon.
		if delta <= p.cfg.Epsilon || sweeps >= 100_000 {
			break
		}
	}
	copy(p.post.Value, p.v)
	return sweeps
}

// gamma returns a draw of Gamma(a, 1), a > 0 (Marsaglia and Tsang, "A
// Simple Method for Generating Gamma Variables", 2000, with the boost
// Gamma(a) = Gamma(a + 1)·U^(1/a) for a < 1).
func gamma(rng *rand.Rand, a float64) float64 {
	if a < 1 {
		u := rng.Float64()
		return gamma(rng, a+1) * math.Pow(u, 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// Save writes the state: the posterior's statistics and last values, the
// action-value table, and the random sources, with algo.SaveParts.
func (p *PSRL) Save(w io.Writer) error { return algo.SaveParts(w, p.parts()...) }

// Load restores a state written by Save into a PSRL made with the same
// configuration and spaces. It returns an error wrapping algo.ErrState for a
// state that does not fit; the PSRL may then be partly restored.
func (p *PSRL) Load(r io.Reader) error {
	sizes := [...]int{len(p.post.Trans), len(p.post.RewN), len(p.post.Value)}
	if err := algo.LoadParts(r, p.parts()...); err != nil {
		return err
	}
	got := [...]int{len(p.post.Trans), len(p.post.RewN), len(p.post.Value)}
	if got != sizes || len(p.post.RewSum) != sizes[1] || len(p.post.RewSq) != sizes[1] {
		return fmt.Errorf("%w: psrl: a posterior of other sizes (%v, want %v)", algo.ErrState, got, sizes)
	}
	return nil
}

func (p *PSRL) parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("q", p.table.Params()),
		algo.JSONPart("posterior", &p.post),
		algo.BinaryPart("rng", p.src),
		algo.BinaryPart("policy_rng", p.pSrc),
	}
}

// table is the policy's network: the action values [states, actions] of
// the last solution, looked up by state.
type table struct {
	q     *tensor.Tensor
	start int64
	idx   []int
	ps    nn.Params
}

func newTable(ns, na int, start int64) *table {
	q := tensor.New(ns, na)
	return &table{q: q, start: start, ps: nn.Params{{Name: "q", Tensor: q}}}
}

var tableInputs = []string{batch.KeyObs}

// Inputs returns ["obs"].
func (t *table) Inputs() []string { return tableInputs }

// Call returns the rows of the table for the states in[0] holds (a tensor
// [k] of state values). It panics, as IndexSelect does, for a state outside
// the table; the collector gives it states of the env's space.
func (t *table) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	x := in[0].Data()
	if cap(t.idx) < len(x) {
		t.idx = make([]int, len(x))
	}
	t.idx = t.idx[:len(x)]
	for i, v := range x {
		t.idx[i] = int(v) - int(t.start)
	}
	return tp.IndexSelect(t.q, 0, t.idx)
}

// Params returns the table as the parameter "q".
func (t *table) Params() nn.Params { return t.ps }
