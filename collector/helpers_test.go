package collector_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

var bg = context.Background()

// fakeVec returns a Sync vector env of fakes, env i configured by cfg with
// ID i and Lengths lengths[i].
func fakeVec(tb testing.TB, cfg envtest.Config, lengths ...[]int) *vector.Sync {
	tb.Helper()
	var envs []env.Env
	for i, l := range lengths {
		c := cfg
		c.ID, c.Lengths = i, l
		envs = append(envs, envtest.MustNew(c))
	}
	v, err := vector.NewSync(envs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	return v
}

// vecBuf returns a Vector buffer of n sub-buffers of size each.
func vecBuf(tb testing.TB, n, size int) *buffer.Vector {
	tb.Helper()
	cfg := buffer.DefaultConfig()
	cfg.Size = n * size
	b, err := buffer.NewVector(cfg, n)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// fixedPolicy acts with action Action in every env, reusing its arrays: the
// allocation-free policy the collector's steady state is measured with. It
// records what it was given.
type fixedPolicy struct {
	Action   int64
	calls    int
	explore  []bool
	obsSeen  [][]float32 // a copy of every obs batch
	statesIn []any
	// State, when set, makes the policy return a hidden state [k, 1]
	// float32 holding the previous state + 1 (0 for a nil state), and
	// policy data {"n": calls as float64}.
	State bool
}

func (p *fixedPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.calls++
	p.explore = append(p.explore, explore)
	o, err := obs.Array("obs")
	if err != nil {
		return err
	}
	if p.obsSeen != nil {
		p.obsSeen = append(p.obsSeen, nd.ToSlice[float32](o))
	}
	k := o.Dim(0)
	act := arrayIn(dst, "act", nd.Int64, k)
	for i := range nd.Data[int64](act) {
		nd.Data[int64](act)[i] = p.Action
	}
	if !p.State {
		return nil
	}
	p.statesIn = append(p.statesIn, cloneState(state))
	st := arrayIn(dst, "state", nd.Float32, k, 1)
	for i := range nd.Data[float32](st) {
		v := float32(0)
		if state != nil {
			v = nd.Data[float32](state.(*nd.Array))[i]
		}
		nd.Data[float32](st)[i] = v + 1
	}
	pd, _ := dst.Get("policy")
	if pd == nil {
		pd = batch.MustNew("n", nd.Zeros(nd.Float64, k))
		if err := dst.Set("policy", pd); err != nil {
			return err
		}
	}
	n, _ := pd.(*batch.Batch).Array("n")
	for i := range nd.Data[float64](n) {
		nd.Data[float64](n)[i] = float64(p.calls)
	}
	return nil
}

func cloneState(s any) any {
	if s == nil {
		return nil
	}
	return nd.ToSlice[float32](s.(*nd.Array))
}

// arrayIn returns dst[key] if it is an array of dtype dt and shape
// [k, rest…], and puts a new one there otherwise.
func arrayIn(dst *batch.Batch, key string, dt nd.DType, k int, rest ...int) *nd.Array {
	shape := append([]int{k}, rest...)
	if v, ok := dst.Get(key); ok {
		if a, ok := v.(*nd.Array); ok && a.DType() == dt && fmt.Sprint(a.Shape()) == fmt.Sprint(shape) {
			return a
		}
	}
	a := nd.Zeros(dt, shape...)
	if err := dst.Set(key, a); err != nil {
		panic(err)
	}
	return a
}

// rows returns the stored transitions of sub-buffer sub of b, oldest first,
// as "id.episode.step" strings of obs and obs_next and the rewards and done
// flags.
type row struct {
	obs, next string
	rew       float64
	done      bool
}

func subRows(tb testing.TB, b *buffer.Vector, sub, size int) []row {
	tb.Helper()
	var out []row
	for _, i := range b.SampleIndices(0, nil) {
		if i/size != sub {
			continue
		}
		t, err := b.Take([]int{i})
		if err != nil {
			tb.Fatal(err)
		}
		o, _ := t.Array("obs")
		n, _ := t.Array("obs_next")
		out = append(out, row{obs: key3(nd.ToSlice[float32](o)), next: key3(nd.ToSlice[float32](n)),
			rew: b.Rew()[i], done: b.Done()[i]})
	}
	return out
}

func key3(v []float32) string { return fmt.Sprintf("%g.%g.%g", v[0], v[1], v[2]) }
