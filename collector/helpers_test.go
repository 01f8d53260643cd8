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
	Action int64
	// Record makes the policy record what it is given.
	Record   bool
	calls    int
	explore  []bool
	obsSeen  [][]float32 // a copy of every obs array
	statesIn []any
	// State, when set, makes the policy return a hidden state [k, 1]
	// float32 holding the previous state + 1 (0 for a nil state), and
	// policy data {"n": calls as float64}.
	State bool
}

func (p *fixedPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	p.calls++
	if p.Record {
		p.explore = append(p.explore, explore)
	}
	k, err := obs.Len()
	if err != nil {
		return err
	}
	if o, err := obs.Array("obs"); err == nil && p.Record {
		p.obsSeen = append(p.obsSeen, nd.ToSlice[float32](o))
	}
	act := arrayIn(dst, "act", nd.Int64, k)
	for i := range nd.Data[int64](act) {
		nd.Data[int64](act)[i] = p.Action
	}
	if !p.State {
		return nil
	}
	if p.Record {
		p.statesIn = append(p.statesIn, cloneState(state))
	}
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
	if v, ok := dst.Get(key); ok {
		if a, ok := v.(*nd.Array); ok && a.DType() == dt && a.Ndim() == 1+len(rest) && a.Dim(0) == k {
			fits := true
			for i, d := range rest {
				fits = fits && a.Dim(i+1) == d
			}
			if fits {
				return a
			}
		}
	}
	a := nd.Zeros(dt, append([]int{k}, rest...)...)
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

// scriptEnv is an env whose episodes last Len steps, with observation
// [t] (float32, the step count) and action space Act (Box(-2.0, 2.0, (1,),
// float32) by default); it returns Infos[t] after step t (Infos[0] at
// Reset, nil when Infos is short) and, with Record, records the actions it
// gets.
type scriptEnv struct {
	Len     int
	Act     env.Space
	Infos   []env.Info
	Record  bool
	actions []any // copies of the actions received
	obs     *nd.Array
	t       int
}

func newScriptEnv(length int) *scriptEnv {
	act, err := env.NewBox(-2, 2, []int{1}, nd.Float32)
	if err != nil {
		panic(err)
	}
	return &scriptEnv{Len: length, Act: act, obs: nd.Zeros(nd.Float32, 1)}
}

func (s *scriptEnv) ObservationSpace() env.Space {
	b, err := env.NewBox(0, 1000, []int{1}, nd.Float32)
	if err != nil {
		panic(err)
	}
	return b
}
func (s *scriptEnv) ActionSpace() env.Space { return s.Act }
func (s *scriptEnv) Close() error           { return nil }

func (s *scriptEnv) info(t int) env.Info {
	if t < len(s.Infos) {
		return s.Infos[t]
	}
	return nil
}

func (s *scriptEnv) Reset(env.Seed) (any, env.Info, error) {
	s.t = 0
	nd.Data[float32](s.obs)[0] = 0
	return s.obs, s.info(0), nil
}

func (s *scriptEnv) Step(a any) (any, float64, bool, bool, env.Info, error) {
	if !s.Act.Contains(a) {
		return nil, 0, false, false, nil, fmt.Errorf("scriptEnv: %w: %v", env.ErrAction, a)
	}
	switch x := a.(type) {
	case *nd.Array:
		if s.Record {
			s.actions = append(s.actions, x.Copy())
		}
	case *batch.Batch:
		if s.Record {
			s.actions = append(s.actions, x.Clone())
		}
	}
	s.t++
	nd.Data[float32](s.obs)[0] = float32(s.t)
	return s.obs, 1, s.t >= s.Len, false, s.info(s.t), nil
}

// scriptVec returns a Sync vector env of the given scriptEnvs.
func scriptVec(tb testing.TB, es ...*scriptEnv) *vector.Sync {
	tb.Helper()
	var envs []env.Env
	for _, e := range es {
		envs = append(envs, e)
	}
	v, err := vector.NewSync(envs)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { v.Close() })
	return v
}
