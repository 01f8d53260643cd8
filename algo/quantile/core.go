package quantile

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Discrete returns act as a Discrete space, or an error wrapping errConfig
// naming the algorithm and the space: the quantile algorithms value a
// finite set of actions.
func Discrete(name string, act env.Space, errConfig error) (*env.Discrete, error) {
	d, ok := act.(*env.Discrete)
	if !ok {
		return nil, fmt.Errorf("%w: %s needs a Discrete action space, not %v", errConfig, name, act)
	}
	return d, nil
}

// Counters are the parts of a Core's state that are not tensors, saved as
// JSON.
type Counters struct {
	Updates  int64   `json:"updates"`   // gradient steps taken
	EnvSteps int64   `json:"env_steps"` // last value given to Schedule
	EpsTrain float64 `json:"eps_train"` // current ε of the policy
	EpsTest  float64 `json:"eps_test"`
	algo.BetaSchedule
}

// Core is the off-policy machinery of a quantile algorithm around its
// network: the ε-greedy policy, distributional n-step returns, batch
// reading, the gradient step with the target update, priorities, schedules
// and state. The algorithm computes the target quantiles (Preprocess) and
// each transition's loss (Update); the Core does the rest.
//
// A Core is driven by one goroutine at a time.
type Core struct {
	cfg    Common
	name   string
	space  *env.Discrete
	nAct   int
	online nn.Params
	target nn.Params // nil without a target network
	opt    *algo.QOptim
	pol    *policy.Q
	src    *rand.PCG // the policy's random source

	counters Counters

	// Returns computes the n-step returns of Preprocess
	// (QReturns.PreprocessRows).
	Returns algo.QReturns

	acts     algo.DiscreteActions
	rets     algo.Returns
	retT, wT *tensor.Tensor
	wN       *nd.Array
	gather   []int
	greedy   []int
	nextMask env.ActionMask // action masks of obs_next
	prios    []float64
	stats    map[string]float64
}

// NewCore returns the Core of the algorithm name (for messages) training
// the parameters online with Adam. target, the parameters of a network of
// the same structure, is nil exactly when cfg keeps no target network, and
// starts as a copy of online. actor is the network the ε-greedy policy acts
// with: its output for k observations is the Q-values [k, n] of the n
// actions of space. The seed of the policy's random source is drawn from
// rng.
//
// NewCore returns an error wrapping errConfig for an invalid cfg, a missing
// or unexpected target, or a target whose parameters do not match online's.
func NewCore(name string, cfg Common, online, target nn.Params, actor policy.Network, space *env.Discrete, rng *rand.Rand, errConfig error) (*Core, error) {
	if err := cfg.Validate(errConfig); err != nil {
		return nil, err
	}
	if cfg.Kappa == 0 {
		cfg.Kappa = 1
	}
	if (target != nil) != cfg.Target() {
		return nil, fmt.Errorf("%w: target network given: %v, configured: %v", errConfig, target != nil, cfg.Target())
	}
	c := &Core{
		cfg: cfg, name: name, space: space, nAct: int(space.N()), online: online, target: target,
		src:   rand.NewPCG(rng.Uint64(), rng.Uint64()),
		stats: map[string]float64{"loss": 0},
	}
	var err error
	if c.opt, err = algo.NewQOptim(algo.QOptimConfig{Params: online, Online: online, Target: target, Adam: cfg.Optim,
		TargetUpdateFreq: cfg.TargetUpdateFreq, Tau: cfg.Tau, MaxGradNorm: cfg.MaxGradNorm, Updates: &c.counters.Updates}, errConfig); err != nil {
		return nil, err
	}
	if c.pol, err = policy.NewQ(actor, space, rand.New(c.src)); err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	c.counters.EpsTrain, c.counters.EpsTest = cfg.EpsTrain, cfg.EpsTest
	if err := c.pol.SetEps(cfg.EpsTrain, cfg.EpsTest); err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	if err := c.pol.SetHold(cfg.Hold); err != nil {
		return nil, fmt.Errorf("%w: %w", errConfig, err)
	}
	return c, nil
}

// Common returns the shared configuration, Kappa defaulted.
func (c *Core) Common() Common { return c.cfg }

// Policy returns the ε-greedy policy.
func (c *Core) Policy() *policy.Q { return c.pol }

// Actions returns the number of actions.
func (c *Core) Actions() int { return c.nAct }

// Updates returns the number of gradient steps taken.
func (c *Core) Updates() int64 { return c.counters.Updates }

// HasTarget reports whether there is a target network.
func (c *Core) HasTarget() bool { return c.target != nil }

// Stats returns the statistics map Step fills, for the algorithm to add
// its own entries.
func (c *Core) Stats() map[string]float64 { return c.stats }

// Schedule sets the training ε for envSteps env steps of training (EpsTrain
// annealed linearly to EpsTrainFinal over EpsDecaySteps) and records
// envSteps for the β schedule. It implements algo.Scheduled.
func (c *Core) Schedule(envSteps int64) {
	c.counters.EnvSteps = envSteps
	if c.cfg.EpsDecaySteps > 0 {
		eps := algo.Anneal(c.cfg.EpsTrain, c.cfg.EpsTrainFinal, envSteps, c.cfg.EpsDecaySteps)
		c.counters.EpsTrain = eps
		c.pol.SetEps(eps, c.counters.EpsTest) // in [0, 1]: both ends are
	}
}

// Postprocess gives a prioritized buffer the transitions' losses of the
// last Step as priorities and moves its β along the schedule.
func (c *Core) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	err := c.counters.Prioritize(buf, indices, c.prios, c.cfg.BetaFinal, c.counters.EnvSteps, c.cfg.BetaAnnealSteps)
	if err != nil {
		return fmt.Errorf("%s: %w", c.name, err)
	}
	return nil
}

// Read checks b's act, returns and weight, and returns the action indices,
// the returns as a tensor [B, width], and the importance weights [B] (nil
// when b has none). The slices and tensors are the Core's memory, valid
// until the next Read.
//
// Read returns an error if b lacks act or returns, an action is outside the
// space, or returns or weight have another shape.
func (c *Core) Read(b *batch.Batch, width int) (acts []int, ret, w *tensor.Tensor, err error) {
	idx, err := c.acts.Read(b, c.space)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", c.name, err)
	}
	n := len(idx)
	if c.retT, err = c.rets.Read(b, n, width); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", c.name, err)
	}
	if c.wT == nil || c.wT.Len() != n {
		c.wT = tensor.New(n)
		c.wN = c.wT.ND()
		c.prios = make([]float64, n)
	}
	wv, ok := b.Get(batch.KeyWeight)
	if !ok {
		return idx, c.retT, nil, nil
	}
	wa, ok := wv.(*nd.Array)
	if !ok || wa.Ndim() != 1 || wa.Dim(0) != n {
		return nil, nil, nil, fmt.Errorf("%s: weight is %v; want an array [%d]", c.name, wv, n)
	}
	if err := copyFloats(c.wN, wa); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: weight: %w", c.name, err)
	}
	return idx, c.retT, c.wT, nil
}

// copyFloats copies a float32 or float64 array of dst's shape into dst.
func copyFloats(dst, a *nd.Array) error {
	if !a.DType().IsFloat() {
		return fmt.Errorf("dtype %v; want float32 or float64", a.DType())
	}
	return nd.CopyTo(dst, a)
}

// Taken returns the quantile values [k, M] of the actions acts (indices,
// one per row) from z [k, M, A], recorded on tp.
func (c *Core) Taken(tp *tensor.Tape, z *tensor.Tensor, acts []int) *tensor.Tensor {
	k, m := z.Dim(0), z.Dim(1)
	c.gather = slices.Grow(c.gather[:0], k*m)[:k*m]
	for i, a := range acts[:k] {
		row := c.gather[i*m : (i+1)*m]
		for j := range row {
			row[j] = a
		}
	}
	return tp.Gather(z, 2, c.gather)
}

// Greedy returns the action of largest value in each row of q [k, A], in
// the Core's memory (valid until the next call).
func (c *Core) Greedy(q *tensor.Tensor) []int {
	k := q.Dim(0)
	c.greedy = tensor.ArgMaxTo(slices.Grow(c.greedy[:0], k)[:k], q, 1)
	return c.greedy
}

// GreedyNext returns, like Greedy, the action of largest value in each row
// of q [k, A], the Q-values of the next observations in next; when they
// carry action masks (env.ActionMask), the best allowed action, or −1 for
// an observation that allows none (the last of an episode).
//
// It returns an error for a mask that is not [k, A].
func (c *Core) GreedyNext(q *tensor.Tensor, next *batch.Batch) ([]int, error) {
	k := q.Dim(0)
	mask, err := c.nextMask.Read(next, k, c.nAct)
	if err != nil {
		return nil, fmt.Errorf("%s: obs_next: %w", c.name, err)
	}
	if mask == nil {
		return c.Greedy(q), nil
	}
	c.greedy = slices.Grow(c.greedy[:0], k)[:k]
	qv, m := q.Data(), nd.Data[float32](mask)
	for i := range c.greedy {
		c.greedy[i] = policy.ArgMaxValid(qv[i*c.nAct:(i+1)*c.nAct], m[i*c.nAct:(i+1)*c.nAct])
	}
	return c.greedy, nil
}

// PickTo stores in dst [k·M] the quantile values of z [k, M, A] of the
// actions acts, row after row: the target quantiles of Preprocess. A row
// whose action is −1 (GreedyNext: nothing allowed) gets zeros.
func PickTo(dst []float32, z *tensor.Tensor, acts []int) {
	k, m, a := z.Dim(0), z.Dim(1), z.Dim(2)
	v := z.Data()
	for i := range k {
		if acts[i] < 0 {
			clear(dst[i*m : (i+1)*m])
			continue
		}
		for j := range m {
			dst[i*m+j] = v[(i*m+j)*a+acts[i]]
		}
	}
}

// Check returns an error unless z is the quantile values [k, m, A] of k
// observations (m = 0: any number of quantiles).
func (c *Core) Check(z *tensor.Tensor, k, m int) error {
	if z.NDim() != 3 || z.Dim(0) != k || (m > 0 && z.Dim(1) != m) || z.Dim(2) != c.nAct {
		return fmt.Errorf("%s: quantile values of shape %v for %d observations and %d actions", c.name, z.Shape(), k, c.nAct)
	}
	return nil
}

// Step makes the gradient step on the loss mean_b(w_b·rows_b), rows the
// quantile Huber losses [B] of the transitions of the last Read and w their
// importance weights (nil: 1), recorded on tp; then it updates the target
// network and keeps rows as the transitions' priorities. It returns the
// statistics map, "loss" set.
func (c *Core) Step(tp *tensor.Tape, rows, w *tensor.Tensor) map[string]float64 {
	return c.StepWith(tp, rows, w, nil)
}

// StepWith is Step with extra, a scalar recorded on tp (nil: none), added
// to the loss: a regularizer such as discrete CQL's conservative penalty.
func (c *Core) StepWith(tp *tensor.Tape, rows, w, extra *tensor.Tensor) map[string]float64 {
	loss := rows
	if w != nil {
		loss = tp.Mul(w, rows)
	}
	loss = tp.Mean(loss)
	if extra != nil {
		loss = tp.Add(loss, extra)
	}
	c.opt.Step(tp, loss)
	for i, x := range rows.Data() {
		c.prios[i] = float64(x)
	}
	c.stats["loss"] = float64(loss.Item())
	return c.stats
}

// Parts returns the parts of the saved state: the online and target
// networks, Adam's state, extra (the algorithm's own), the policy's random
// source and the counters.
func (c *Core) Parts(extra ...algo.Part) []algo.Part {
	ps := []algo.Part{algo.ParamsPart("q", c.online)}
	if c.target != nil {
		ps = append(ps, algo.ParamsPart("target", c.target))
	}
	ps = append(ps, c.opt.Part())
	ps = append(ps, extra...)
	return append(ps, algo.BinaryPart("rng", c.src), algo.JSONPart("counters", &c.counters))
}

// Loaded applies restored counters to the policy (its ε); call it after
// algo.LoadParts of Parts. It returns an error wrapping algo.ErrState for
// an ε outside [0, 1].
func (c *Core) Loaded() error {
	if err := c.pol.SetEps(c.counters.EpsTrain, c.counters.EpsTest); err != nil {
		return fmt.Errorf("%w: %w", algo.ErrState, err)
	}
	return nil
}
