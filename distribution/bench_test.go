package distribution_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/tensor"
)

var sink *tensor.Tensor

// Sizes: 64 rows is a PPO minibatch; 2 categories are CartPole's actions and
// 1 dimension is Pendulum's action.

// categoricalStep is one steady-state step on a reused tape and
// distribution: collection (Sample, LogProb of the sample) when backward is
// false, a PPO minibatch (LogProb of stored actions, Entropy, Backward)
// otherwise.
func categoricalStep(tp *tensor.Tape, d *distribution.Categorical, logits, acts *tensor.Tensor, rng *rand.Rand, backward bool) {
	tp.Reset()
	if err := d.SetLogits(tp, logits); err != nil {
		panic(err)
	}
	if !backward {
		sink = d.LogProb(d.Sample(rng))
		return
	}
	loss := tp.Sub(tp.Mean(d.LogProb(acts)), tp.MulScalar(tp.Mean(d.Entropy()), 0.01))
	tp.Backward(loss)
	sink = loss
}

func normalStep(tp *tensor.Tape, d *distribution.Normal, loc, scale, acts *tensor.Tensor, rng *rand.Rand, backward bool) {
	tp.Reset()
	if err := d.Set(tp, loc, scale); err != nil {
		panic(err)
	}
	if !backward {
		sink = d.LogProb(d.Sample(rng))
		return
	}
	loss := tp.Sub(tp.Mean(d.LogProb(acts)), tp.MulScalar(tp.Mean(d.Entropy()), 0.01))
	tp.Backward(loss)
	sink = loss
}

func categoricalInputs() (logits, acts *tensor.Tensor, rng *rand.Rand) {
	rng = rand.New(rand.NewPCG(1, 2))
	logits = uniform(rng, -1, 1, 64, 2).SetRequiresGrad(true)
	acts = tensor.New(64)
	for i := range acts.Data() {
		acts.Data()[i] = float32(i % 2)
	}
	return logits, acts, rng
}

func normalInputs() (loc, scale, acts *tensor.Tensor, rng *rand.Rand) {
	rng = rand.New(rand.NewPCG(1, 2))
	loc = uniform(rng, -1, 1, 64, 1).SetRequiresGrad(true)
	scale = uniform(rng, 0.5, 1, 1).SetRequiresGrad(true) // state-independent
	acts = uniform(rng, -2, 2, 64, 1)
	return loc, scale, acts, rng
}

func BenchmarkCategorical(b *testing.B) {
	for _, bc := range []struct {
		name     string
		backward bool
	}{{"SampleLogProb64x2", false}, {"LogProbEntropyBackward64x2", true}} {
		b.Run(bc.name, func(b *testing.B) {
			logits, acts, rng := categoricalInputs()
			tp, d := new(tensor.Tape), new(distribution.Categorical)
			cputime.Measure(b, func() { categoricalStep(tp, d, logits, acts, rng, bc.backward) })
		})
	}
}

func BenchmarkNormal(b *testing.B) {
	for _, bc := range []struct {
		name     string
		backward bool
	}{{"SampleLogProb64x1", false}, {"LogProbEntropyBackward64x1", true}} {
		b.Run(bc.name, func(b *testing.B) {
			loc, scale, acts, rng := normalInputs()
			tp, d := new(tensor.Tape), new(distribution.Normal)
			cputime.Measure(b, func() { normalStep(tp, d, loc, scale, acts, rng, bc.backward) })
		})
	}
}

// sacStep is the actor step of SAC on a reused tape: a squashed Gaussian
// over 1-dimensional actions (Pendulum) for 64 states, a reparameterized
// action, its log-probability and the backward pass of a loss on both.
func sacStep(tp *tensor.Tape, sq *distribution.TanhNormal, pi *distribution.Independent, loc, scale *tensor.Tensor, rng *rand.Rand) {
	tp.Reset()
	if err := sq.Set(tp, loc, scale); err != nil {
		panic(err)
	}
	pi.Set(tp, sq, 1)
	a := pi.RSample(rng)
	loss := tp.Sub(tp.MulScalar(tp.Mean(pi.LogProb(a)), 0.2), tp.Mean(a))
	tp.Backward(loss)
	sink = loss
}

func sacInputs() (loc, scale *tensor.Tensor, rng *rand.Rand) {
	rng = rand.New(rand.NewPCG(1, 2))
	loc = uniform(rng, -1, 1, 64, 1).SetRequiresGrad(true)
	scale = uniform(rng, 0.5, 1, 64, 1).SetRequiresGrad(true)
	return loc, scale, rng
}

func BenchmarkTanhNormal(b *testing.B) {
	b.Run("RSampleLogProbBackward64x1", func(b *testing.B) {
		loc, scale, rng := sacInputs()
		tp := new(tensor.Tape)
		var sq distribution.TanhNormal
		var pi distribution.Independent
		cputime.Measure(b, func() { sacStep(tp, &sq, &pi, loc, scale, rng) })
	})
}

// BenchmarkCategoricalIndex measures a Batch-style gather of 64 rows
// (batch.Take of a minibatch) from a Categorical over 1024 rows of 2
// categories; it allocates the new distribution and its parameters.
func BenchmarkCategoricalIndex(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d distribution.Categorical
	if err := d.SetLogits(nil, uniform(rng, -1, 1, 1024, 2)); err != nil {
		b.Fatal(err)
	}
	rows := make([]int, 64)
	for i := range rows {
		rows[i] = rng.IntN(1024)
	}
	idx := nd.Ints(rows...)
	cputime.Measure(b, func() { leafSink = d.Index(idx) })
}

var leafSink batch.Leaf

// TestSteadyStateAllocations checks that a reused distribution on a reused
// tape allocates no more than the tensor operations it is made of, done by
// hand (the naive version, whose results must agree), and nothing when
// those do not allocate: the collection step of a Categorical uses only
// operations that never allocate.
func TestSteadyStateAllocations(t *testing.T) {
	logits, cacts, crng := categoricalInputs()
	loc, scale, nacts, nrng := normalInputs()
	tp := new(tensor.Tape)
	sloc, sscale, srng := sacInputs()
	var c distribution.Categorical
	var n distribution.Normal
	var sq distribution.TanhNormal
	var pi distribution.Independent
	inf := float32(math.Inf(1))
	idx := make([]int, cacts.Len())
	for i, v := range cacts.Data() {
		idx[i] = int(v)
	}
	cases := []struct {
		name    string
		step    func()
		byHand  func() // nil: the step must not allocate
		sampled bool   // the step samples, so results differ from byHand's
	}{{
		name: "Categorical collection",
		step: func() { categoricalStep(tp, &c, logits, cacts, crng, false) },
	}, {
		name: "Categorical minibatch",
		step: func() { categoricalStep(tp, &c, logits, cacts, crng, true) },
		byHand: func() {
			tp.Reset()
			lg := tp.LogSoftmax(logits, -1)
			lp := tp.Gather(lg, -1, idx)
			ent := tp.Neg(tp.SumAxis(tp.Mul(tp.Clamp(lg, -math.MaxFloat32, inf), tp.Softmax(lg, -1)), -1, false))
			loss := tp.Sub(tp.Mean(lp), tp.MulScalar(tp.Mean(ent), 0.01))
			tp.Backward(loss)
			sink = loss
		},
	}, {
		name: "Normal collection",
		step: func() { normalStep(tp, &n, loc, scale, nacts, nrng, false) },
		byHand: func() {
			tp.Reset()
			s := tp.Where(loc, scale, scale)
			v := tp.AddScalar(tp.Detach(loc), 0)
			z := tp.Div(tp.Sub(v, loc), s)
			sink = tp.Sub(tp.MulScalar(tp.Mul(z, z), -0.5), tp.AddScalar(tp.Log(s), 0.9189385))
		},
		sampled: true,
	}, {
		name: "Normal minibatch",
		step: func() { normalStep(tp, &n, loc, scale, nacts, nrng, true) },
		byHand: func() {
			tp.Reset()
			s := tp.Where(loc, scale, scale)
			z := tp.Div(tp.Sub(nacts, loc), s)
			lp := tp.Sub(tp.MulScalar(tp.Mul(z, z), -0.5), tp.AddScalar(tp.Log(s), 0.9189385))
			ent := tp.AddScalar(tp.Log(s), 1.4189385)
			loss := tp.Sub(tp.Mean(lp), tp.MulScalar(tp.Mean(ent), 0.01))
			tp.Backward(loss)
			sink = loss
		},
	}, {
		name: "TanhNormal actor",
		step: func() { sacStep(tp, &sq, &pi, sloc, sscale, srng) },
		byHand: func() {
			tp.Reset()
			eps := tp.MulScalar(tp.Detach(sloc), 0)
			u := tp.Add(sloc, tp.Mul(sscale, eps))
			a := tp.Tanh(u)
			z := tp.Div(tp.Sub(u, sloc), sscale)
			lp := tp.Sub(tp.MulScalar(tp.Mul(z, z), -0.5), tp.AddScalar(tp.Log(sscale), 0.9189385))
			corr := tp.MulScalar(tp.AddScalar(tp.Add(u, tp.Softplus(tp.MulScalar(u, -2))), -0.6931472), 2)
			logp := tp.SumAxis(tp.Add(lp, corr), -1, false)
			loss := tp.Sub(tp.MulScalar(tp.Mean(logp), 0.2), tp.Mean(a))
			tp.Backward(loss)
			sink = loss
		},
		sampled: true,
	}}
	for _, c := range cases {
		c.step() // the first step sizes the tape's buffers
		got := testing.AllocsPerRun(50, c.step)
		limit := 0.0
		if c.byHand != nil {
			c.step()
			want := sink.Data()[0]
			c.byHand()
			if h := sink.Data()[0]; !c.sampled && math.Abs(float64(h-want)) > 1e-6 {
				t.Errorf("%s: result %g, by hand %g", c.name, want, h)
			}
			limit = testing.AllocsPerRun(50, c.byHand)
		}
		t.Logf("%s: %v allocations per step, %v for its tensor operations", c.name, got, limit)
		if got > limit {
			t.Errorf("%s: %v allocations per steady-state step, its tensor operations make %v", c.name, got, limit)
		}
	}
}
