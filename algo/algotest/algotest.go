package algotest

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers CartPole-v1
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Discrete returns Discrete(n) starting at start: actions start … start+n−1.
func Discrete(t testing.TB, n, start int64) *env.Discrete {
	t.Helper()
	d, err := env.NewDiscrete(n, start)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Box returns a float32 Box [lo, hi]ⁿ of shape [n].
func Box(t testing.TB, lo, hi float64, n int) *env.Box {
	t.Helper()
	b, err := env.NewBox(lo, hi, []int{n}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Linear returns a linear layer y = W·x without bias, W given by rows (all
// of one length), whose weight requires gradients: a network whose outputs
// a test computes by hand. Wrap it in policy.ObsNet for a policy's network.
func Linear(rows ...[]float32) *nn.Linear {
	data := make([]float32, 0, len(rows)*len(rows[0]))
	for _, r := range rows {
		data = append(data, r...)
	}
	return &nn.Linear{Weight: tensor.MustFromSlice(data, len(rows), len(rows[0])).SetRequiresGrad(true)}
}

// Collection returns a vector buffer holding steps transitions of each of
// envs envs, drawn from rng: observations are a 4-dimensional random walk
// (float32), actions random in act (int64 for a Discrete space, float32 [m]
// for a Box), rewards 1, and episodes terminate with probability 1/30 and
// are truncated with probability 1/100 per step. The buffer holds exactly
// the collection, as an on-policy trainer's does.
func Collection(t testing.TB, envs, steps int, act env.Space, rng *rand.Rand) buffer.Buffer {
	t.Helper()
	buf, err := buffer.NewVector(buffer.Config{Size: envs * steps}, envs)
	if err != nil {
		t.Fatal(err)
	}
	obs := make([][]float32, envs)
	for range steps {
		next := make([][]float32, envs)
		acts := make([]any, envs)
		rew := make([]float64, envs)
		term, trunc := make([]bool, envs), make([]bool, envs)
		for j := range envs {
			if obs[j] == nil {
				obs[j] = []float32{0, 0, 0, 0}
			}
			next[j] = make([]float32, 4)
			for k := range 4 {
				next[j][k] = obs[j][k] + float32(rng.NormFloat64())*0.1
			}
			acts[j] = act.Sample(rng)
			rew[j] = 1
			term[j] = rng.IntN(30) == 0
			trunc[j] = !term[j] && rng.IntN(100) == 0
		}
		a, err := nd.Stack(0, arrays(t, acts)...)
		if err != nil {
			t.Fatal(err)
		}
		b := batch.MustNew(batch.KeyObs, obs, batch.KeyAct, a, batch.KeyRew, rew, batch.KeyTerminated, term, batch.KeyTruncated, trunc, batch.KeyObsNext, next)
		if _, err := buf.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
		for j := range envs {
			obs[j] = next[j]
			if term[j] || trunc[j] {
				obs[j] = nil
			}
		}
	}
	return buf
}

func arrays(t testing.TB, vs []any) []*nd.Array {
	out := make([]*nd.Array, len(vs))
	for i, v := range vs {
		a, ok := v.(*nd.Array)
		if !ok {
			t.Fatalf("a space sampled %T, not an array", v)
		}
		out[i] = a
	}
	return out
}

// Take returns the whole collection of buf in time order (the batch and
// the indices an on-policy update gets from algo.Learner.StepAll).
func Take(t testing.TB, buf buffer.Buffer) (*batch.Batch, []int) {
	t.Helper()
	idx := append([]int(nil), buf.SampleIndices(0, nil)...)
	b := new(batch.Batch)
	if err := buf.TakeTo(b, idx); err != nil {
		t.Fatal(err)
	}
	return b, idx
}

// EqualParams reports whether a and b hold the same number of tensors and
// each of a equals, bit for bit, the one at the same position of b: what a
// determinism or resume test compares.
func EqualParams(a, b nn.Params) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Tensor.Equal(b[i].Tensor) {
			return false
		}
	}
	return true
}

// CartPoles returns n CartPole-v1 envs, as env.Make builds them.
func CartPoles(t testing.TB, n int) []env.Env {
	t.Helper()
	es := make([]env.Env, n)
	for i := range es {
		e, err := env.Make("CartPole-v1")
		if err != nil {
			t.Fatal(err)
		}
		es[i] = e
	}
	return es
}

// RandomCartPoleData returns a Vector buffer of 2 sub-buffers holding
// steps transitions that a collector gathered with random actions from two
// CartPole-v1 envs seeded seed and seed+1: offline training data.
func RandomCartPoleData(t testing.TB, steps int, seed uint64) buffer.Buffer {
	t.Helper()
	buf, err := buffer.NewVector(buffer.Config{Size: steps + 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	vec, err := vector.NewSync(CartPoles(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	defer vec.Close()
	c, err := collector.New(collector.Config{Env: vec, Buffer: buf, Rand: rand.New(rand.NewPCG(seed, 1))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Reset(ctx, []env.Seed{env.SeedOf(seed), env.SeedOf(seed + 1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(ctx, collector.Request{NStep: steps, Random: true}); err != nil {
		t.Fatal(err)
	}
	return buf
}

// BLASTag names the BLAS the tensor package runs on, as the name of a
// sub-benchmark: "blas=" and the first word of tensor.BLASName()
// ("blas=openblas", "blas=gonum"), so that results of the two can be told
// apart.
func BLASTag() string {
	name, _, _ := strings.Cut(tensor.BLASName(), " ")
	return "blas=" + name
}

// MLP64 evaluates, in float64, the ReLU MLP whose Linear layers are the
// parameters of ps named prefix+"<i>.weight" and prefix+"<i>.bias", in
// order (an nn.MLP's), on x: the reference of the loss tests.
func MLP64(ps nn.Params, prefix string, x []float64) []float64 {
	var layers [][2][]float32
	for _, p := range ps {
		name, ok := strings.CutPrefix(p.Name, prefix)
		if !ok || !strings.HasSuffix(name, ".weight") {
			continue
		}
		b := ps.Lookup(prefix + strings.TrimSuffix(name, "weight") + "bias")
		layers = append(layers, [2][]float32{p.Tensor.Data(), b.Data()})
	}
	for l, wb := range layers {
		out := make([]float64, len(wb[1]))
		for o := range out {
			v := float64(wb[1][o])
			for i, xi := range x {
				v += float64(wb[0][o*len(x)+i]) * xi
			}
			if l < len(layers)-1 {
				v = max(v, 0)
			}
			out[o] = v
		}
		x = out
	}
	return x
}
