package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/a3c"
	"github.com/gorl/gorl/algo/apex"
	"github.com/gorl/gorl/algo/ddpg"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/algo/impala"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
)

// distAlgo is a distributed algorithm as the command runs it: a learner
// and actors that share data over NATS (gorl train runs them in one
// process, gorl learner and gorl actor in several).
type distAlgo struct {
	// doc is a one-line description for gorl list.
	doc string
	// config returns the algorithm's defaults for the command.
	config func() distConfig
	// actorsField is the configuration field that --actors sets; "" for
	// "actors".
	actorsField string
}

// distConfig is a distributed algorithm's configuration (a pointer to a
// struct with its JSON fields) and what the command does with it.
type distConfig interface {
	Validate() error
	// actors returns the number of actors (A3C's workers).
	actors() int
	// policy builds the policy that the learner tests and the run's
	// policy files hold, for an env with these spaces.
	policy(obs, act env.Space, rng *rand.Rand) (policy.Policy, error)
	// learn runs the learner, and the actors unless s.remote, with l
	// restoring it, testing, logging and checkpointing.
	learn(ctx context.Context, s distSetup, l *distLearner) error
	// act runs actor id for a learner in another process.
	act(ctx context.Context, s distSetup, id int) error
}

// distSetup is what every algorithm's run needs besides its configuration.
type distSetup struct {
	t       cluster.Transport
	group   string
	makeEnv func(int) (env.Env, error)
	seed    uint64
	remote  bool
}

// setup returns the distSetup of the run on t.
func (r distRun) setup(t cluster.Transport, remote bool) distSetup {
	envID := r.Env
	return distSetup{t: t, group: r.Group, seed: r.Seed, remote: remote,
		makeEnv: func(int) (env.Env, error) { return env.Make(envID) }}
}

var distAlgos = map[string]distAlgo{
	"apex-dqn": {
		doc: "Ape-X DQN: actors with their own ε feed a prioritized replay spread over them; one learner",
		config: func() distConfig {
			c := apexDQNDist{apex.DefaultConfig()}
			c.StepsPerUpdate = 10 // DQN's CartPole test: 10 env steps per gradient step
			return &c
		},
	},
	"impala": {
		doc: "IMPALA: actors send unrolls of their behaviour policy; the learner corrects them with V-trace",
		config: func() distConfig {
			c := impalaDist{impala.DefaultConfig()}
			c.UnrollsPerUpdate = float64(c.BatchSize) // each unroll sampled about once
			return &c
		},
	},
	"apex-ddpg": {
		doc: "Ape-X DDPG: actors with their own noise scale feed a prioritized replay spread over them; one learner",
		config: func() distConfig {
			c := apexDDPGDist{apex.DefaultDDPGConfig()}
			c.StepsPerUpdate = 1 // on a few cores, free-running actors starve the learner
			return &c
		},
	},
	"a3c": {
		doc:         "A3C: workers push n-step actor-critic gradients to the shared model and pull its weights",
		config:      func() distConfig { c := a3cDist{a3c.DefaultConfig()}; return &c },
		actorsField: "workers",
	},
}

// apexDQNDist is Ape-X DQN's configuration; its JSON is apex.Config's.
type apexDQNDist struct{ apex.Config }

func (c *apexDQNDist) actors() int { return c.Actors }

func (c *apexDQNDist) policy(obs, act env.Space, rng *rand.Rand) (policy.Policy, error) {
	d, err := dqn.New(c.DQN, obs, act, rng)
	if err != nil {
		return nil, err
	}
	return d.Policy(), nil
}

func (c *apexDQNDist) setup(s distSetup) apex.Setup {
	return apex.Setup{Transport: s.t, Group: s.group, MakeEnv: s.makeEnv, Seed: s.seed, Remote: s.remote}
}

func (c *apexDQNDist) learn(ctx context.Context, s distSetup, l *distLearner) error {
	as := c.setup(s)
	as.Restore = func(d *dqn.DQN) (apex.Progress, error) {
		err := l.restore(d)
		return apex.Progress{Updates: l.ck.Updates, EnvSteps: l.ck.EnvSteps, Episodes: l.ck.Episodes, LastReturn: l.ck.LastReturn}, err
	}
	as.After = func(d *dqn.DQN, p apex.Progress) (bool, error) {
		return l.after(ctx, d, d.Policy(), distProgress{Updates: p.Updates, EnvSteps: p.EnvSteps, Episodes: p.Episodes, LastReturn: p.LastReturn, Loss: p.Loss})
	}
	_, err := apex.Run(ctx, c.Config, as)
	return err
}

func (c *apexDQNDist) act(ctx context.Context, s distSetup, id int) error {
	return apex.RunActor(ctx, c.Config, c.setup(s), id)
}

// impalaDist is IMPALA's configuration; its JSON is impala.Config's.
type impalaDist struct{ impala.Config }

func (c *impalaDist) actors() int { return c.Actors }

func (c *impalaDist) policy(obs, act env.Space, rng *rand.Rand) (policy.Policy, error) {
	il, err := impala.NewLearner(c.Config, obs, act, rng)
	if err != nil {
		return nil, err
	}
	return il.Actor, nil
}

func (c *impalaDist) setup(s distSetup) impala.Setup {
	return impala.Setup{Transport: s.t, Group: s.group, MakeEnv: s.makeEnv, Seed: s.seed, Remote: s.remote}
}

func (c *impalaDist) learn(ctx context.Context, s distSetup, l *distLearner) error {
	is := c.setup(s)
	is.Restore = func(il *impala.Learner) (impala.Progress, error) {
		err := l.restore(il)
		return impala.Progress{Updates: l.ck.Updates, EnvSteps: l.ck.EnvSteps, Unrolls: l.ck.Unrolls}, err
	}
	is.After = func(il *impala.Learner, p impala.Progress) (bool, error) {
		return l.after(ctx, il, il.Actor, distProgress{Updates: p.Updates, EnvSteps: p.EnvSteps, Unrolls: p.Unrolls, Loss: p.Loss})
	}
	_, err := impala.Run(ctx, c.Config, is)
	return err
}

func (c *impalaDist) act(ctx context.Context, s distSetup, id int) error {
	return impala.RunActor(ctx, c.Config, c.setup(s), id)
}

// apexDDPGDist is Ape-X DDPG's configuration; its JSON is
// apex.DDPGConfig's.
type apexDDPGDist struct{ apex.DDPGConfig }

func (c *apexDDPGDist) actors() int { return c.Actors }

func (c *apexDDPGDist) policy(obs, act env.Space, rng *rand.Rand) (policy.Policy, error) {
	d, err := ddpg.New(c.DDPG, obs, act, rng)
	if err != nil {
		return nil, err
	}
	return d.Policy(), nil
}

func (c *apexDDPGDist) setup(s distSetup) apex.DDPGSetup {
	return apex.DDPGSetup{Transport: s.t, Group: s.group, MakeEnv: s.makeEnv, Seed: s.seed, Remote: s.remote}
}

func (c *apexDDPGDist) learn(ctx context.Context, s distSetup, l *distLearner) error {
	as := c.setup(s)
	as.Restore = func(d *ddpg.DDPG) (apex.Progress, error) {
		err := l.restore(d)
		return apex.Progress{Updates: l.ck.Updates, EnvSteps: l.ck.EnvSteps, Episodes: l.ck.Episodes, LastReturn: l.ck.LastReturn}, err
	}
	as.After = func(d *ddpg.DDPG, p apex.Progress) (bool, error) {
		return l.after(ctx, d, d.Policy(), distProgress{Updates: p.Updates, EnvSteps: p.EnvSteps, Episodes: p.Episodes, LastReturn: p.LastReturn, Loss: p.Loss})
	}
	_, err := apex.RunDDPG(ctx, c.DDPGConfig, as)
	return err
}

func (c *apexDDPGDist) act(ctx context.Context, s distSetup, id int) error {
	return apex.RunDDPGActor(ctx, c.DDPGConfig, c.setup(s), id)
}

// a3cDist is A3C's configuration; its JSON is a3c.Config's. Its actors
// are A3C's workers.
type a3cDist struct{ a3c.Config }

func (c *a3cDist) actors() int { return c.Workers }

func (c *a3cDist) policy(obs, act env.Space, rng *rand.Rand) (policy.Policy, error) {
	a, err := a2c.New(c.A2C, obs, act, rng)
	if err != nil {
		return nil, err
	}
	return a.Policy(), nil
}

func (c *a3cDist) setup(s distSetup) a3c.Setup {
	return a3c.Setup{Transport: s.t, Group: s.group, MakeEnv: s.makeEnv, Seed: s.seed, Remote: s.remote}
}

func (c *a3cDist) learn(ctx context.Context, s distSetup, l *distLearner) error {
	as := c.setup(s)
	as.Restore = func(a *a2c.A2C) (a3c.Progress, error) {
		err := l.restore(a)
		return a3c.Progress{Updates: l.ck.Updates, EnvSteps: l.ck.EnvSteps, Episodes: l.ck.Episodes, LastReturn: l.ck.LastReturn}, err
	}
	as.After = func(a *a2c.A2C, p a3c.Progress) (bool, error) {
		// The shared model applies the workers' gradients: no loss of
		// its own.
		return l.after(ctx, a, a.Policy(), distProgress{Updates: p.Updates, EnvSteps: p.EnvSteps, Episodes: p.Episodes, LastReturn: p.LastReturn, Loss: math.NaN()})
	}
	_, err := a3c.Run(ctx, c.Config, as)
	return err
}

func (c *a3cDist) act(ctx context.Context, s distSetup, id int) error {
	return a3c.RunWorker(ctx, c.Config, c.setup(s), id)
}

// distPolicy builds the policy of a distributed run's policy file from
// its header (the run's config.json), for loadPolicy: the run's
// configuration as a RunConfig with its algorithm, env and seed, and the
// policy, its parameters not yet loaded.
func distPolicy(header []byte) (RunConfig, policy.Policy, error) {
	var r distRun
	if err := strictDecode(header, &r); err != nil {
		return RunConfig{}, nil, fmt.Errorf("config: %w", err)
	}
	_, acfg, err := distDefaults(r.Algo, r.Env)
	if err != nil {
		return RunConfig{}, nil, err
	}
	if err := strictDecode(r.Algorithm, acfg); err != nil {
		return RunConfig{}, nil, fmt.Errorf("config: %s: %w", r.Algo, err)
	}
	probe, err := env.Make(r.Env)
	if err != nil {
		return RunConfig{}, nil, err
	}
	obs, act := probe.ObservationSpace(), probe.ActionSpace()
	probe.Close()
	p, err := acfg.policy(obs, act, rand.New(rand.NewPCG(r.Seed, 0)))
	if err != nil {
		return RunConfig{}, nil, err
	}
	return RunConfig{Algo: r.Algo, Env: r.Env, Seed: r.Seed, Algorithm: json.RawMessage(r.Algorithm)}, p, nil
}
