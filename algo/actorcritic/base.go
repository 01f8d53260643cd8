package actorcritic

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// Base is the state every on-policy algorithm of this family keeps, and the
// methods they share: PG, A2C (package a2c) and PPO (package ppo) embed it
// and add their Preprocess and UpdateRepeat. It holds the networks, their
// optimizer, the actor policy and its random source, the random source of
// the minibatches' order, the counters, and the scratch of an update (the
// collection and the tape). Its fields are for the algorithms built on it.
type Base struct {
	// Net holds the networks; Opt trains Net.Params().
	Net *Net
	Opt *Optimizer
	// Actor is the policy, acting with Net's actor in Space.
	Actor *policy.Actor
	Space env.Space
	// Shuffle orders the minibatches (Rollout.Shuffle).
	Shuffle *rand.Rand
	// Counters are saved with the state.
	Counters Counters
	// Roll and Tape are the scratch of an update: the collection and the
	// tape the losses are recorded on.
	Roll Rollout
	Tape tensor.Tape

	polSrc, shufSrc *rand.PCG
}

// Counters are the parts of an algorithm's state that are not tensors.
type Counters struct {
	// Updates counts the gradient steps taken.
	Updates int64 `json:"updates"`
	// EnvSteps is the last value given to Schedule.
	EnvSteps int64 `json:"env_steps"`
	// Returns holds the running statistics of the returns (return
	// standardization or scaling).
	Returns RunningMeanStd `json:"returns"`
}

// Init sets b up to learn with net in the action space act (the space net
// was made for): an Optimizer with t over net.Params(), a policy.Actor with
// pc, and random sources for the policy and the minibatches seeded from rng.
// It returns an error wrapping ErrConfig for settings or a space that do not
// fit.
func (b *Base) Init(net *Net, act env.Space, pc policy.ActorConfig, t Training, rng *rand.Rand) error {
	w, err := headWidth(net.head, act)
	if err != nil {
		return err
	}
	if w != net.out {
		return fmt.Errorf("%w: the actor outputs %d values for %v", ErrConfig, net.out, act)
	}
	opt, err := NewOptimizer(net.Params(), t)
	if err != nil {
		return err
	}
	polSrc := rand.NewPCG(rng.Uint64(), rng.Uint64())
	actor, err := policy.NewActor(net.ActorNetwork(), net.Head(), act, rand.New(polSrc), pc)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	shufSrc := rand.NewPCG(rng.Uint64(), rng.Uint64())
	*b = Base{Net: net, Opt: opt, Actor: actor, Space: act, Shuffle: rand.New(shufSrc), polSrc: polSrc, shufSrc: shufSrc}
	return nil
}

// Policy returns the actor policy (a *policy.Actor).
func (b *Base) Policy() policy.Policy { return b.Actor }

// Updates returns the number of gradient steps taken.
func (b *Base) Updates() int64 { return b.Counters.Updates }

// Schedule sets the learning rate for envSteps env steps of training (see
// Training.LRDecaySteps). It implements algo.Scheduled.
func (b *Base) Schedule(envSteps int64) {
	b.Counters.EnvSteps = envSteps
	b.Opt.Schedule(envSteps)
}

// Postprocess does nothing: these algorithms give nothing back to the
// buffer.
func (b *Base) Postprocess(*batch.Batch, buffer.Buffer, []int) error { return nil }

// Save writes the state: the networks, Adam's state, the random sources of
// the policy and of the minibatches, the counters, and the exploration state
// of a head that keeps one (SDEHead), with algo.SaveParts.
func (b *Base) Save(w io.Writer) error { return algo.SaveParts(w, b.parts()...) }

// Load restores a state written by Save into an algorithm made with the
// same configuration. It returns an error wrapping algo.ErrState for a state
// that does not fit; the algorithm may then be partly restored.
func (b *Base) Load(r io.Reader) error { return algo.LoadParts(r, b.parts()...) }

func (b *Base) parts() []algo.Part {
	ps := []algo.Part{
		algo.ParamsPart("net", b.Net.Params()),
		{Name: "optim", Save: b.Opt.Save, Load: b.Opt.Load},
		algo.BinaryPart("policy_rng", b.polSrc),
		algo.BinaryPart("shuffle_rng", b.shufSrc),
		algo.JSONPart("counters", &b.Counters),
	}
	if h, ok := b.Net.head.(algo.BinaryState); ok {
		// A head that explores with a state of its own (SDEHead).
		ps = append(ps, algo.BinaryPart("head", h))
	}
	return ps
}

// CheckRepeat panics with an *algo.Error wrapping algo.ErrValue unless
// repeat ≥ 1 and batchSize ≥ 0: the arguments of UpdateRepeat.
func CheckRepeat(batchSize, repeat int) {
	if repeat < 1 || batchSize < 0 {
		panic(&algo.Error{Kind: algo.ErrValue, Msg: fmt.Sprintf("UpdateRepeat: batch size %d, repeat %d; want ≥ 0 and ≥ 1", batchSize, repeat)})
	}
}

// Critic is the Base of an actor-critic algorithm with GAE (A2C, PPO): the
// Base and the GAE its Preprocess estimates values, returns and advantages
// with. Both algorithms embed it and set it up with Init, their one shared
// constructor path.
type Critic struct {
	Base
	GAE GAE
}

// Init sets c up to learn with net, which must have a critic, in the action
// space act (the space net was made for), with the settings of cfg: Base.Init
// with cfg.Policy and cfg.Training, and a GAE with cfg's γ, λ and return
// scaling. It does not validate cfg. It returns an error wrapping ErrConfig
// for a net without critic and Base.Init's errors.
func (c *Critic) Init(cfg OnPolicy, net *Net, act env.Space, rng *rand.Rand) error {
	if net == nil || !net.HasCritic() {
		return fmt.Errorf("%w: an actor-critic algorithm needs a Net with a critic", ErrConfig)
	}
	if err := c.Base.Init(net, act, cfg.Policy, cfg.Training, rng); err != nil {
		return err
	}
	c.GAE = GAE{Gamma: cfg.Gamma, Lambda: cfg.GAELambda, ReturnScaling: cfg.ReturnScaling}
	return nil
}

// Estimate loads the collection b with its next observations into Roll and
// fills Roll's columns "v_s", "returns" and "adv" with GAE (see
// GAE.Compute), for the transitions of buf at indices: the common start of
// the algorithms' Preprocess, which then store the columns they need in b.
func (c *Critic) Estimate(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	if err := c.Roll.Load(b, c.Space, true); err != nil {
		return err
	}
	return c.GAE.Compute(&c.Roll, c.Net, buf, indices, &c.Counters.Returns)
}
