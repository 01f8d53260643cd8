package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// CollectSpec describes a dataset collected by a trained policy: Steps env
// steps on Envs envs of Env (seeds Seed, Seed+1, …) acting with Policy's
// most likely actions plus Noise or Epsilon, or with its samples with
// Sample (see datasetPolicy).
type CollectSpec struct {
	Policy  policy.Policy
	Env     string
	Steps   int
	Envs    int
	Noise   float64
	Epsilon float64
	Sample  bool
	Seed    uint64
}

// collectDataset collects the dataset of spec into a new buffer.Vector of
// Steps transitions (one sub-buffer per env), whose "act" holds env
// actions. It is the code path of gorl collect and of the datasets the
// benchmarks build.
func collectDataset(ctx context.Context, spec CollectSpec) (buffer.Buffer, collector.Stats, error) {
	var st collector.Stats
	if spec.Steps < 1 || spec.Envs < 1 {
		return nil, st, fmt.Errorf("collect: --steps %d and --envs %d must be positive", spec.Steps, spec.Envs)
	}
	p, err := newDatasetPolicy(spec.Policy, spec.Noise, spec.Epsilon, spec.Sample, rand.New(rand.NewPCG(spec.Seed, 0xc011ec7)))
	if err != nil {
		return nil, st, err
	}
	es, err := makeEnvs(spec.Env, spec.Envs)
	if err != nil {
		return nil, st, err
	}
	if obs, act := es[0].ObservationSpace(), es[0].ActionSpace(); act.String() != p.inner.ActionSpace().String() {
		closeEnvs(es)
		return nil, st, fmt.Errorf("collect: the policy acts in %v, %s's action space is %v (observations %v)",
			p.inner.ActionSpace(), spec.Env, act, obs)
	}
	vec, err := vector.NewSync(es)
	if err != nil {
		closeEnvs(es)
		return nil, st, err
	}
	defer vec.Close()
	data, err := buffer.NewVector(buffer.Config{Size: max(spec.Steps, spec.Envs)}, spec.Envs)
	if err != nil {
		return nil, st, err
	}
	c, err := collector.New(collector.Config{Env: vec, Policy: p, Buffer: data})
	if err != nil {
		return nil, st, err
	}
	seeds := make([]env.Seed, spec.Envs)
	for i := range seeds {
		seeds[i] = env.SeedOf(spec.Seed + uint64(i))
	}
	if err := c.Reset(ctx, seeds); err != nil {
		return nil, st, err
	}
	st, err = c.Collect(ctx, collector.Request{NStep: spec.Steps})
	return data, st, err
}

// datasetPolicy acts with a trained policy's most likely actions (its
// training-step flag off, no exploration), or with sample with its samples
// (the flag on, as in a training step), turned into env actions with its
// action map, then adds, for a Box, Gaussian noise of σ = noise times the
// half-width of each dimension, clipped to the bounds, and with probability
// epsilon replaces a row's action by a uniform random one (any space). Its
// actions are env actions: it is not a policy.ActionMapper, so the buffer
// stores what the env received, the form datasets hold.
type datasetPolicy struct {
	inner  policy.Policy
	mapper policy.ActionMapper // nil: the inner policy acts in env units
	box    *env.Box
	disc   *env.Discrete
	low    []float64
	high   []float64
	noise  float64
	eps    float64
	rng    *rand.Rand
	flag   bool
}

func newDatasetPolicy(p policy.Policy, noise, eps float64, sample bool, rng *rand.Rand) (*datasetPolicy, error) {
	if !(noise >= 0) || !(eps >= 0 && eps <= 1) {
		return nil, fmt.Errorf("collect: --noise %v must be ≥ 0 and --epsilon %v in [0, 1]", noise, eps)
	}
	d := &datasetPolicy{inner: p, noise: noise, eps: eps, rng: rng}
	d.mapper, _ = p.(policy.ActionMapper)
	switch s := p.ActionSpace().(type) {
	case *env.Discrete:
		if noise != 0 {
			return nil, fmt.Errorf("collect: --noise adds Gaussian noise to Box actions; the action space is %v (use --epsilon)", s)
		}
		d.disc = s
	case *env.Box:
		lo, err := s.Low().AsType(nd.Float64)
		if err != nil {
			return nil, err
		}
		hi, err := s.High().AsType(nd.Float64)
		if err != nil {
			return nil, err
		}
		d.box, d.low, d.high = s, nd.Data[float64](lo.Copy()), nd.Data[float64](hi.Copy())
		for j := range d.low {
			if (noise != 0 || eps != 0) && (math.IsInf(d.low[j], 0) || math.IsInf(d.high[j], 0)) {
				return nil, fmt.Errorf("collect: --noise and --epsilon need finite action bounds; %v has none in dimension %d", s, j)
			}
		}
	default:
		return nil, fmt.Errorf("collect: a Discrete or Box action space, not %v", s)
	}
	p.SetTrainingStep(sample)
	return d, nil
}

func (d *datasetPolicy) Params() nn.Params       { return d.inner.Params() }
func (d *datasetPolicy) ActionSpace() env.Space  { return d.inner.ActionSpace() }
func (d *datasetPolicy) SetTrainingStep(on bool) { d.flag = on }
func (d *datasetPolicy) TrainingStep() bool      { return d.flag }

func (d *datasetPolicy) Act(dst, obs *batch.Batch, state any, explore bool) error {
	if err := d.inner.Act(dst, obs, state, false); err != nil {
		return err
	}
	act, err := dst.Array(batch.KeyAct)
	if err != nil {
		return err
	}
	k := act.Dim(0)
	if d.disc != nil {
		vals := act.Copy() // dst's act is overwritten below
		if d.mapper != nil {
			vals = nd.Zeros(nd.Int64, k)
			if err := d.mapper.MapActionTo(vals, act); err != nil {
				return err
			}
		}
		if vals, err = vals.AsType(nd.Int64); err != nil {
			return err
		}
		out := policy.DiscreteActTo(dst, k)
		copy(out, nd.Data[int64](vals.Copy()))
		for i := range out {
			if d.eps > 0 && d.rng.Float64() < d.eps {
				out[i] = d.disc.Start() + d.rng.Int64N(d.disc.N())
			}
		}
		return nil
	}
	m := len(d.low)
	envAct := nd.Zeros(nd.Float32, k, m)
	if d.mapper != nil {
		if err := d.mapper.MapActionTo(envAct, act); err != nil {
			return err
		}
	} else if err := nd.CopyTo(envAct, act); err != nil {
		return err
	}
	src := nd.Data[float32](envAct)
	out := policy.BoxActTo(dst, k, m)
	for i := range k {
		random := d.eps > 0 && d.rng.Float64() < d.eps
		for j := range m {
			lo, hi := d.low[j], d.high[j]
			v := float64(src[i*m+j])
			switch {
			case random:
				v = lo + (hi-lo)*d.rng.Float64()
			case d.noise > 0:
				v += d.noise * (hi - lo) / 2 * d.rng.NormFloat64()
			}
			out[i*m+j] = float32(min(max(v, lo), hi))
		}
	}
	return nil
}

func cmdCollect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("collect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	polPath := fs.String("policy", "", "policy file or run directory (its best.gorl) to collect with")
	envID := fs.String("env", "", "env to collect in (default: the policy's)")
	steps := fs.Int("steps", 0, "env steps to collect")
	out := fs.String("out", "", "dataset file to write: .h5 or .hdf5 in the D4RL layout (build tag hdf5), anything else in the buffer format")
	noise := fs.Float64("noise", 0, "Gaussian noise on Box actions, σ in units of each dimension's half-width")
	eps := fs.Float64("epsilon", 0, "probability of a uniform random action")
	envs := fs.Int("envs", 10, "envs collecting side by side")
	seed := fs.Uint64("seed", 2_000_000, "seed of the envs (env i gets seed+i) and of the noise")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *polPath == "" || *out == "" || *steps < 1 || fs.NArg() != 0 {
		return fmt.Errorf("collect: want --policy RUN_DIR --steps N --out FILE [--env ID] [--noise σ | --epsilon ε]")
	}
	if *noise != 0 && *eps != 0 {
		return fmt.Errorf("collect: give --noise or --epsilon, not both")
	}
	path := *polPath
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, bestFile)
	}
	rc, pol, norm, err := loadPolicy(path)
	if err != nil {
		return err
	}
	if norm != nil {
		return fmt.Errorf("collect: %s normalizes observations; a dataset holds the env's own observations, which that policy cannot read", path)
	}
	if *envID == "" {
		*envID = rc.Env
	}
	data, st, err := collectDataset(ctx, CollectSpec{Policy: pol, Env: *envID, Steps: *steps, Envs: *envs, Noise: *noise, Epsilon: *eps, Seed: *seed})
	if err != nil {
		return err
	}
	if err := saveDataset(*out, data); err != nil {
		return err
	}
	size := int64(0)
	if fi, err := os.Stat(*out); err == nil {
		size = fi.Size()
	}
	fmt.Fprintf(stdout, "collected %d steps of %s with %s (%s): %d episodes, return %.2f ± %.2f; wrote %s (%.2f MB)\n",
		st.Steps, *envID, rc.Algo, path, st.Episodes, st.Return.Mean, st.Return.Std, *out, float64(size)/1e6)
	return nil
}
