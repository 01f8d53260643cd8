package apex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// DDPGConfig holds Ape-X DDPG's settings; the fields it shares with Config
// mean the same.
type DDPGConfig struct {
	// DDPG configures the learner's actor and critic, their targets, γ, τ,
	// the n-step length and the exploration noise, whose σ is the base of
	// the actors' (see NoiseSpread).
	DDPG ddpg.Config `json:"ddpg"`
	// Actors is the number of actors N, at least 1. Default 4.
	Actors int `json:"actors"`
	// NoiseSpread gives actor i its noise scale σᵢ = σ·spread^(½ − i/(N−1))
	// (σ for one actor): from σ·√spread down to σ/√spread, around σ.
	// Default 4; 1 gives every actor σ.
	NoiseSpread float64 `json:"noise_spread"`
	// BufferSize is the capacity of each actor's shard. Default 20,000.
	BufferSize int `json:"buffer_size"`
	// PriorityAlpha and PriorityBeta are prioritized replay's α and β.
	// Default 0.6 and 0.4.
	PriorityAlpha float64 `json:"priority_alpha"`
	PriorityBeta  float64 `json:"priority_beta"`
	// BatchSize is the learner's minibatch. Default 128.
	BatchSize int `json:"batch_size"`
	// LearningStarts is the number of transitions across the shards before
	// the first update. Default 1,000.
	LearningStarts int `json:"learning_starts"`
	// FlushEvery is how many transitions an actor gathers before it
	// computes their priorities and adds them to its shard. Default 50.
	FlushEvery int `json:"flush_every"`
	// PublishEvery is the number of updates between two publications of
	// the learner's weights. Default 25.
	PublishEvery int `json:"publish_every"`
	// SyncEvery is the number of env steps between an actor's checks for
	// newer weights. Default 100.
	SyncEvery int `json:"sync_every"`
	// StepsPerUpdate holds the actors back as Config.StepsPerUpdate does.
	// Default 0: actors run freely.
	StepsPerUpdate float64 `json:"steps_per_update"`
}

// DefaultDDPGConfig returns ddpg.DefaultConfig's learner (Tianshou's
// Pendulum settings) with 4 actors whose noise scales spread by 4 around
// its σ, and Config's replay and synchronization settings with a
// minibatch of 128, Tianshou's DDPG test's.
func DefaultDDPGConfig() DDPGConfig {
	return DDPGConfig{
		DDPG:           ddpg.DefaultConfig(),
		Actors:         4,
		NoiseSpread:    4,
		BufferSize:     20_000,
		PriorityAlpha:  0.6,
		PriorityBeta:   0.4,
		BatchSize:      128,
		LearningStarts: 1000,
		FlushEvery:     50,
		PublishEvery:   25,
		SyncEvery:      100,
	}
}

// settings returns the loop's share of c.
func (c DDPGConfig) settings() loopSettings {
	return loopSettings{
		actors: c.Actors, bufferSize: c.BufferSize, batchSize: c.BatchSize,
		learningStarts: c.LearningStarts, flushEvery: c.FlushEvery, publishEvery: c.PublishEvery,
		syncEvery: c.SyncEvery, nstep: max(1, c.DDPG.NStep), gamma: c.DDPG.Gamma,
		priorityAlpha: c.PriorityAlpha, priorityBeta: c.PriorityBeta, stepsPerUpdate: c.StepsPerUpdate,
	}
}

// Validate names the first invalid field.
func (c DDPGConfig) Validate() error {
	if !(c.NoiseSpread >= 1) || math.IsInf(c.NoiseSpread, 0) {
		return fmt.Errorf("%w: noise_spread = %v, want finite and ≥ 1", ErrConfig, c.NoiseSpread)
	}
	if err := c.settings().validate(); err != nil {
		return err
	}
	if err := c.DDPG.Validate(); err != nil {
		return fmt.Errorf("%w: ddpg: %w", ErrConfig, err)
	}
	return nil
}

// ActorSigma returns actor i's noise scale of n: sigma·spread^(½ − i/(n−1)),
// or sigma when n is 1.
func ActorSigma(sigma, spread float64, i, n int) float64 {
	if n <= 1 {
		return sigma
	}
	return sigma * math.Pow(spread, 0.5-float64(i)/float64(n-1))
}

// DDPGSetup is what RunDDPG needs besides the configuration; see Setup.
type DDPGSetup struct {
	Transport cluster.Transport
	Group     string
	MakeEnv   func(actor int) (env.Env, error)
	Seed      uint64
	// After is called after every update with the learner's DDPG; it stops
	// the run by returning true or an error. Required.
	After     func(d *ddpg.DDPG, p Progress) (stop bool, err error)
	ChunkSize int
	// Remote and Restore are Setup's: actors in other processes
	// (RunDDPGActor), and a saved state loaded into the new learner.
	Remote  bool
	Restore func(d *ddpg.DDPG) (Progress, error)
}

// RunDDPG trains Ape-X DDPG until s.After stops it or ctx ends, and returns
// the learner's DDPG. The learner publishes its actor, critic and their
// targets: the actors compute initial priorities with the same targets.
func RunDDPG(ctx context.Context, cfg DDPGConfig, s DDPGSetup) (*ddpg.DDPG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if s.Transport == nil || s.MakeEnv == nil || s.After == nil {
		return nil, fmt.Errorf("%w: DDPGSetup needs Transport, MakeEnv and After", ErrConfig)
	}
	c := ddpgCore(cfg, s)
	c.after = func(a agent, p Progress) (bool, error) { return s.After(a.(*ddpgAgent).DDPG, p) }
	if s.Restore != nil {
		c.restore = func(a agent) (Progress, error) { return s.Restore(a.(*ddpgAgent).DDPG) }
	}
	l, err := c.run(ctx)
	if l == nil {
		return nil, err
	}
	return l.(*ddpgAgent).DDPG, err
}

// RunDDPGActor runs actor i of cfg.Actors (its σ is ActorSigma's) in this
// process for a learner that runs elsewhere with s.Remote set, as
// RunActor does for Ape-X DQN.
func RunDDPGActor(ctx context.Context, cfg DDPGConfig, s DDPGSetup, i int) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if s.Transport == nil || s.MakeEnv == nil {
		return fmt.Errorf("%w: DDPGSetup needs Transport and MakeEnv", ErrConfig)
	}
	if i < 0 || i >= cfg.Actors {
		return fmt.Errorf("%w: actor %d of %d", ErrConfig, i, cfg.Actors)
	}
	c := ddpgCore(cfg, s)
	return c.runActor(ctx, i)
}

// ddpgCore returns the Ape-X loop of Ape-X DDPG, without its after and
// restore.
func ddpgCore(cfg DDPGConfig, s DDPGSetup) core[float32] {
	if s.Group == "" {
		s.Group = "apex-ddpg"
	}
	c := core[float32]{st: cfg.settings(), s: common{Transport: s.Transport, Group: s.Group, MakeEnv: s.MakeEnv, Seed: s.Seed, ChunkSize: s.ChunkSize, Remote: s.Remote}}
	c.newLearner = func(obs, act env.Space, rng *rand.Rand) (agent, error) {
		d, err := ddpg.New(cfg.DDPG, obs, act, rng)
		if err != nil {
			return nil, err
		}
		return &ddpgAgent{DDPG: d}, nil
	}
	c.newActor = func(i int, obs, act env.Space, rng *rand.Rand) (agent, actionReader[float32], error) {
		dc := cfg.DDPG
		dc.Noise.Sigma = ActorSigma(cfg.DDPG.Noise.Sigma, cfg.NoiseSpread, i, cfg.Actors)
		d, err := ddpg.New(dc, obs, act, rng)
		if err != nil {
			return nil, nil, err
		}
		read, err := boxAction(d.Pol, act)
		if err != nil {
			return nil, nil, err
		}
		return &ddpgAgent{DDPG: d}, read, nil
	}
	return c
}

// ddpgAgent is a DDPG as the Ape-X loop sees it: its critic step weighs
// the TD errors by the importance weights and reports them.
type ddpgAgent struct {
	*ddpg.DDPG
	td    []float64
	stats map[string]float64
}

func (d *ddpgAgent) Weights() nn.Params { return d.Params() }

func (d *ddpgAgent) Update(b *batch.Batch) (map[string]float64, error) {
	n, err := b.Len()
	if err != nil {
		return nil, err
	}
	if len(d.td) != n {
		d.td = make([]float64, n)
	}
	critic, err := d.WeightedCriticStep(b, d.td)
	if err != nil {
		return nil, fmt.Errorf("apex: %w", err)
	}
	actor, err := d.ActorStep(b)
	if err != nil {
		return nil, fmt.Errorf("apex: %w", err)
	}
	d.Counters.Updates++
	if d.stats == nil {
		d.stats = map[string]float64{}
	}
	d.stats["loss/critic"], d.stats["loss/actor"] = critic, actor
	return d.stats, nil
}

func (d *ddpgAgent) TD() []float64 { return d.td }

// boxAction reads a deterministic policy's raw action of m values: the
// transition stores it, the env gets it mapped into its Box.
func boxAction(pol *policy.Deterministic, act env.Space) (actionReader[float32], error) {
	box, ok := act.(*env.Box)
	if !ok || len(box.Shape()) != 1 {
		return nil, fmt.Errorf("%w: Ape-X DDPG needs a Box action space of one axis, not %v", ErrConfig, act)
	}
	m := box.Shape()[0]
	mapped := nd.Zeros(nd.Float32, 1, m)
	envAct := nd.Zeros(nd.Float32, m)
	return func(out *batch.Batch, store []float32) (any, error) {
		a, err := out.Array(batch.KeyAct)
		if err != nil {
			return nil, err
		}
		if err := pol.MapActionTo(mapped, a); err != nil {
			return nil, err
		}
		copy(store, nd.ToSlice[float32](a))
		copy(nd.Data[float32](envAct), nd.Data[float32](mapped))
		return envAct, nil
	}, nil
}
