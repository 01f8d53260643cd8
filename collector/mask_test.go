package collector_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// maskEnv is a masked env of 5 actions whose mask is fixed, except that
// from step emptyAt on (when positive) it allows nothing. It counts the
// actions it receives and never ends its episodes.
type maskEnv struct {
	space   *env.Dict
	act     *env.Discrete
	obs     *batch.Batch
	mask    []int8
	allowed []int8
	emptyAt int
	steps   int
	counts  []int
	info    env.Info // with the mask when it is in the info instead
	plain   env.Space
}

func newMaskEnv(t *testing.T, allowed []int8, emptyAt int) *maskEnv {
	t.Helper()
	box, err := env.NewBox(0.0, 1.0, []int{1}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	space, err := env.NewMasked(box, len(allowed))
	if err != nil {
		t.Fatal(err)
	}
	act, err := env.NewDiscrete(int64(len(allowed)), 0)
	if err != nil {
		t.Fatal(err)
	}
	m := nd.Zeros(nd.Int8, len(allowed))
	return &maskEnv{space: space, act: act, obs: batch.MustNew(batch.KeyObs, nd.Zeros(nd.Float32, 1), env.KeyActionMask, m),
		mask: nd.Data[int8](m), allowed: allowed, emptyAt: emptyAt, counts: make([]int, len(allowed))}
}

func (e *maskEnv) ObservationSpace() env.Space {
	if e.info != nil {
		return e.plain
	}
	return e.space
}
func (e *maskEnv) ActionSpace() env.Space { return e.act }
func (e *maskEnv) Close() error           { return nil }

// inInfo moves the mask from the observation into the info.
func (e *maskEnv) inInfo(t *testing.T) {
	t.Helper()
	box, err := env.NewBox(0.0, 1.0, []int{1}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := e.obs.Get(env.KeyActionMask)
	o, _ := e.obs.Get(batch.KeyObs)
	e.space, e.info = nil, env.Info{env.KeyActionMask: m}
	e.obs = batch.MustNew(batch.KeyObs, o)
	e.plain = box
}

func (e *maskEnv) observation() any {
	if e.info != nil {
		v, _ := e.obs.Get(batch.KeyObs)
		return v
	}
	return e.obs
}

func (e *maskEnv) Reset(env.Seed) (any, env.Info, error) {
	e.steps = 0
	copy(e.mask, e.allowed)
	return e.observation(), e.info, nil
}

func (e *maskEnv) Step(a any) (any, float64, bool, bool, env.Info, error) {
	i, err := e.act.Int(a)
	if err != nil {
		return nil, 0, false, false, nil, err
	}
	e.counts[i]++
	e.steps++
	if e.emptyAt > 0 && e.steps >= e.emptyAt {
		clear(e.mask)
	}
	return e.observation(), 0, false, false, e.info, nil
}

// TestRandomMasked: the collector's random steps are uniform over the
// allowed actions, with the mask in the observation or in the info. 3 envs
// × 4,000 steps with the mask (1, 0, 1, 1, 0): the counts are tested with
// chi-squared against 1/3 each (2 degrees of freedom), and the forbidden
// actions are never sent.
func TestRandomMasked(t *testing.T) {
	for _, info := range []bool{false, true} {
		t.Run(map[bool]string{false: "obs", true: "info"}[info], func(t *testing.T) { randomMasked(t, info) })
	}
}

func randomMasked(t *testing.T, info bool) {
	allowed := []int8{1, 0, 1, 1, 0}
	envs := []*maskEnv{newMaskEnv(t, allowed, 0), newMaskEnv(t, allowed, 0), newMaskEnv(t, allowed, 0)}
	if info {
		for _, e := range envs {
			e.inInfo(t)
		}
	}
	c := maskCollector(t, envs)
	if _, err := c.Collect(context.Background(), collector.Request{NStep: 12000, Random: true}); err != nil {
		t.Fatal(err)
	}
	counts := make([]float64, len(allowed))
	for _, e := range envs {
		for i, n := range e.counts {
			counts[i] += float64(n)
		}
	}
	if counts[1] != 0 || counts[4] != 0 {
		t.Fatalf("forbidden actions sent: counts %v", counts)
	}
	exp := (counts[0] + counts[2] + counts[3]) / 3
	chi2 := 0.0
	for _, a := range []int{0, 2, 3} {
		chi2 += (counts[a] - exp) * (counts[a] - exp) / exp
	}
	if crit := (distuv.ChiSquared{K: 2}).Quantile(0.999); chi2 > crit {
		t.Errorf("chi² = %.2f > %.2f (p = 0.001, 2 df): counts %v", chi2, crit, counts)
	}
}

// TestEmptyMask: a mask that allows no action is an error naming the env
// and the step, for random and policy actions, in the observation or the
// info.
func TestEmptyMask(t *testing.T) {
	for _, info := range []bool{false, true} {
		for _, random := range []bool{true, false} {
			allowed := []int8{1, 1, 0}
			envs := []*maskEnv{newMaskEnv(t, allowed, 0), newMaskEnv(t, allowed, 3)}
			if info {
				envs[0].inInfo(t)
				envs[1].inInfo(t)
			}
			c := maskCollector(t, envs)
			_, err := c.Collect(context.Background(), collector.Request{NStep: 20, Random: random})
			if !errors.Is(err, env.ErrActionMask) || !strings.Contains(err.Error(), "env 1, step 3") {
				t.Errorf("info %v, random %v: error %v; want ErrActionMask naming env 1, step 3", info, random, err)
			}
		}
	}
}

func maskCollector(t *testing.T, envs []*maskEnv) *collector.Collector {
	t.Helper()
	es := make([]env.Env, len(envs))
	for i, e := range envs {
		es[i] = e
	}
	v, err := vector.NewSync(es)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	buf, err := buffer.NewVector(buffer.Config{Size: 100 * len(envs)}, len(envs))
	if err != nil {
		t.Fatal(err)
	}
	c, err := collector.New(collector.Config{Env: v, Policy: leftPolicy{}, Buffer: buf, Rand: rand.New(rand.NewPCG(11, 12))})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reset(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return c
}
