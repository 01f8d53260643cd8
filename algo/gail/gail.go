package gail

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// GAIL is PPO on the rewards of a discriminator trained against expert
// data (see the package doc). It is an algo.OnPolicy algorithm; its policy
// is PPO's *policy.Actor.
//
// A GAIL is driven by one goroutine at a time.
type GAIL struct {
	*ppo.PPO
	cfg    Config
	expert buffer.Buffer
	obsDim int
	disc   *nn.MLP
	ps     nn.Params
	opt    *optim.Adam
	src    *rand.PCG // the shares of the collection and the expert samples
	rng    *rand.Rand
	space  env.Space
	nAct   int // the one-hot width of a Discrete space, 0 for a Box
	actDim int

	view   rewards
	acts   [2]algo.DiscreteActions // of the collection and of the expert samples
	piX    *tensor.Tensor          // the collection's inputs [N, in]
	expX   *tensor.Tensor          // an expert sample's inputs [bsz, in]
	expB   batch.Batch
	expIdx []int
	perm   []int
	tp     tensor.Tape
	ntp    tensor.Tape
	stats  map[string]float64
	rew    float64 // mean reward of the last Preprocess
}

// rewards is a buffer whose rewards at the indices of the last Preprocess
// are the discriminator's: what PPO's GAE reads. Other indices hold stale
// values and are not read.
type rewards struct {
	buffer.Buffer
	rew []float64
}

// Rew returns the rewards with the discriminator's at the collection's
// indices.
func (r *rewards) Rew() []float64 { return r.rew }

// New returns a GAIL for an env with the given spaces (a Box of one axis
// for the observations) imitating the transitions of expert, with PPO's
// networks and the discriminator drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an
// observation space that is not a Box of one axis, and an empty expert
// buffer or one whose observations or actions do not fit the spaces; and
// PPO's errors.
func New(cfg Config, obs, act env.Space, expert buffer.Buffer, rng *rand.Rand) (*GAIL, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := CheckSpaces(obs, act); err != nil {
		return nil, err
	}
	box := obs.(*env.Box)
	if expert == nil || expert.Len() == 0 {
		return nil, fmt.Errorf("%w: no expert transitions", ErrConfig)
	}
	p, err := ppo.New(cfg.Config, obs, act, rng)
	if err != nil {
		return nil, err
	}
	cfg.DiscHidden = slices.Clone(cfg.DiscHidden)
	g := &GAIL{PPO: p, cfg: cfg, expert: expert, obsDim: box.Shape()[0], space: act,
		stats: map[string]float64{"disc/loss": 0, "disc/acc_pi": 0, "disc/acc_exp": 0, "disc/reward": 0}}
	switch a := act.(type) {
	case *env.Discrete:
		g.nAct, g.actDim = int(a.N()), int(a.N())
	case *env.Box:
		g.actDim = a.Shape()[0]
	}
	if g.disc, err = nn.NewMLP(nn.MLPConfig{In: g.obsDim + g.actDim, Hidden: cfg.DiscHidden, Out: 1, Activation: nn.Tanh}, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	g.ps = g.disc.Params()
	for _, q := range g.ps {
		if strings.HasSuffix(q.Name, "weight") {
			q.Tensor.FillOrthogonal(rng, math.Sqrt2)
		} else {
			q.Tensor.Fill(0)
		}
	}
	if g.opt, err = optim.NewAdam(g.ps, cfg.DiscOptim); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	g.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	g.rng = rand.New(g.src)
	g.ntp.SetGradEnabled(false)
	// The expert's first transition must fit the spaces.
	if err := expert.TakeTo(&g.expB, []int{expert.SampleIndices(0, nil)[0]}); err != nil {
		return nil, fmt.Errorf("%w: expert data: %w", ErrConfig, err)
	}
	if _, err := g.inputs(&g.expX, &g.expB); err != nil {
		return nil, fmt.Errorf("%w: expert data: %w", ErrConfig, err)
	}
	return g, nil
}

// CheckSpaces returns an error wrapping ErrConfig, naming the space,
// unless obs is a Box of one axis and act a Discrete space or a Box of one
// axis: the spaces the discriminator takes.
func CheckSpaces(obs, act env.Space) error {
	switch a := act.(type) {
	case *env.Discrete:
	case *env.Box:
		if len(a.Shape()) != 1 {
			return fmt.Errorf("%w: GAIL needs a Box action space of one axis, not %v", ErrConfig, act)
		}
	default:
		return fmt.Errorf("%w: GAIL needs a Discrete or Box action space, not %v", ErrConfig, act)
	}
	if box, ok := obs.(*env.Box); !ok || len(box.Shape()) != 1 {
		return fmt.Errorf("%w: GAIL needs a Box observation space of one axis, not %v", ErrConfig, obs)
	}
	return nil
}

// Config returns the configuration.
func (g *GAIL) Config() Config { return g.cfg }

// Discriminator returns the discriminator's parameters.
func (g *GAIL) Discriminator() nn.Params { return g.ps }

// inputs fills *dst (made or remade for the batch's length) with the
// discriminator's inputs of the transitions in b: obs, then the action (a
// Box's values, or a Discrete's one-hot vector). It returns the number of
// transitions, or an error naming what does not fit.
func (g *GAIL) inputs(dst **tensor.Tensor, b *batch.Batch) (int, error) {
	acts := &g.acts[0]
	if dst == &g.expX {
		acts = &g.acts[1]
	}
	obs, err := b.Array(batch.KeyObs)
	if err != nil {
		return 0, fmt.Errorf("gail: %w", err)
	}
	if obs.Ndim() != 2 || obs.Dim(1) != g.obsDim {
		return 0, fmt.Errorf("gail: observations of shape %v; want [N, %d]", obs.Shape(), g.obsDim)
	}
	n, w := obs.Dim(0), g.obsDim+g.actDim
	if *dst == nil || (*dst).Dim(0) != n {
		*dst = tensor.New(n, w)
	}
	x := (*dst).Data()
	if err := copyRows(x, w, 0, obs); err != nil {
		return 0, fmt.Errorf("gail: obs: %w", err)
	}
	if g.nAct > 0 {
		idx, err := acts.Read(b, g.space.(*env.Discrete))
		if err != nil {
			return 0, fmt.Errorf("gail: %w", err)
		}
		if len(idx) != n {
			return 0, fmt.Errorf("gail: %d actions for %d observations", len(idx), n)
		}
		for i, a := range idx {
			row := x[i*w+g.obsDim : (i+1)*w]
			clear(row)
			row[a] = 1
		}
		return n, nil
	}
	act, err := b.Array(batch.KeyAct)
	if err != nil {
		return 0, fmt.Errorf("gail: %w", err)
	}
	if act.Ndim() != 2 || act.Dim(0) != n || act.Dim(1) != g.actDim {
		return 0, fmt.Errorf("gail: actions of shape %v; want [%d, %d]", act.Shape(), n, g.actDim)
	}
	if err := copyRows(x, w, g.obsDim, act); err != nil {
		return 0, fmt.Errorf("gail: act: %w", err)
	}
	return n, nil
}

// copyRows copies the rows of a, a contiguous float array [N, m], into x
// at columns [off, off+m) of rows of width w.
func copyRows(x []float32, w, off int, a *nd.Array) error {
	if !a.IsContiguous() {
		return fmt.Errorf("a strided array")
	}
	n, m := a.Dim(0), a.Dim(1)
	switch a.DType() {
	case nd.Float32:
		d := nd.Data[float32](a)
		for i := range n {
			copy(x[i*w+off:i*w+off+m], d[i*m:(i+1)*m])
		}
	case nd.Float64:
		d := nd.Data[float64](a)
		for i := range n {
			for j := range m {
				x[i*w+off+j] = float32(d[i*m+j])
			}
		}
	default:
		return fmt.Errorf("dtype %v; want float32 or float64", a.DType())
	}
	for _, v := range x {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("a value %v", v)
		}
	}
	return nil
}

// softplus returns log(1 + eˣ) without overflow.
func softplus(x float64) float64 { return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }

// Preprocess computes the discriminator's rewards r = −log(1 − D(s, a)) of
// the collection b (the transitions of buf at indices) and runs PPO's
// Preprocess with a view of buf whose rewards at indices are r. buf itself
// is not changed.
//
// It returns an error if the discriminator cannot take the observations or
// actions, and PPO's errors.
func (g *GAIL) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	n, err := g.inputs(&g.piX, b)
	if err != nil {
		return err
	}
	if n != len(indices) {
		return fmt.Errorf("gail: %d transitions for %d indices", n, len(indices))
	}
	g.ntp.Reset()
	d := g.disc.Forward(&g.ntp, g.piX).Data()
	rew := buf.Rew()
	if len(g.view.rew) != len(rew) {
		g.view.rew = make([]float64, len(rew))
	}
	sum := 0.0
	for k, i := range indices {
		r := softplus(float64(d[k]))
		g.view.rew[i] = r
		sum += r
	}
	g.rew = sum / float64(n)
	g.view.Buffer = buf
	return g.PPO.Preprocess(b, &g.view, indices)
}

// UpdateRepeat takes DiscUpdateNum Adam steps of the discriminator, each
// on a share of the collection b (shuffled, the remainder joining the last
// share) against as many expert transitions as a share holds, then runs
// PPO's UpdateRepeat(b, batchSize, repeat). It returns PPO's statistics
// with "disc/loss", "disc/acc_pi", "disc/acc_exp" (means over the steps)
// and "disc/reward" (of the last Preprocess), in a map owned by the GAIL.
//
// It returns an error if b or the expert data do not fit the
// discriminator, and PPO's errors; it panics as PPO's UpdateRepeat does
// for invalid arguments.
func (g *GAIL) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	n, err := g.inputs(&g.piX, b)
	if err != nil {
		return nil, err
	}
	k := g.cfg.DiscUpdateNum
	bsz := n / k
	if bsz == 0 {
		bsz, k = n, 1
	}
	g.perm = slices.Grow(g.perm[:0], n)[:n]
	for i := range g.perm {
		g.perm[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := g.rng.IntN(i + 1)
		g.perm[i], g.perm[j] = g.perm[j], g.perm[i]
	}
	g.expIdx = slices.Grow(g.expIdx[:0], bsz)[:bsz]
	var loss, accPi, accExp float64
	for s := range k {
		rows := g.perm[s*bsz : (s+1)*bsz]
		if s == k-1 {
			rows = g.perm[s*bsz:]
		}
		if err := g.expert.SampleTo(&g.expB, g.expIdx, g.rng); err != nil {
			return nil, fmt.Errorf("gail: expert sample: %w", err)
		}
		if _, err := g.inputs(&g.expX, &g.expB); err != nil {
			return nil, fmt.Errorf("expert data: %w", err)
		}
		tp := &g.tp
		tp.Reset()
		lp := g.disc.Forward(tp, tp.IndexSelect(g.piX, 0, rows))
		le := g.disc.Forward(tp, g.expX)
		l := tp.Add(tp.Mean(tp.Softplus(lp)), tp.Mean(tp.Softplus(tp.Neg(le))))
		g.opt.ZeroGrad()
		tp.Backward(l)
		g.opt.Step()
		loss += float64(l.Item())
		accPi += share(lp.Data(), func(x float32) bool { return x < 0 })
		accExp += share(le.Data(), func(x float32) bool { return x > 0 })
	}
	st, err := g.PPO.UpdateRepeat(b, batchSize, repeat)
	if err != nil {
		return nil, err
	}
	for key, v := range st {
		g.stats[key] = v
	}
	g.stats["disc/loss"], g.stats["disc/acc_pi"], g.stats["disc/acc_exp"] = loss/float64(k), accPi/float64(k), accExp/float64(k)
	g.stats["disc/reward"] = g.rew
	return g.stats, nil
}

// share returns the fraction of xs for which f holds.
func share(xs []float32, f func(float32) bool) float64 {
	c := 0
	for _, x := range xs {
		if f(x) {
			c++
		}
	}
	return float64(c) / float64(len(xs))
}

// Save writes PPO's state (a nested part), the discriminator, its Adam
// state and the random source of the shares and expert samples, with
// algo.SaveParts.
func (g *GAIL) Save(w io.Writer) error { return algo.SaveParts(w, g.parts()...) }

// Load restores a state written by Save into a GAIL made with the same
// configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the GAIL may then be partly restored.
func (g *GAIL) Load(r io.Reader) error { return algo.LoadParts(r, g.parts()...) }

func (g *GAIL) parts() []algo.Part {
	return []algo.Part{
		{Name: "ppo", Save: g.PPO.Save, Load: g.PPO.Load},
		algo.ParamsPart("disc", g.ps),
		{Name: "disc_optim", Save: g.opt.Save, Load: g.opt.Load},
		algo.BinaryPart("disc_rng", g.src),
	}
}
