package dqn

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// MachinConfig configures Machin's DQN face; DefaultMachinConfig returns
// Machin's defaults.
type MachinConfig struct {
	// Mode is vanilla, fixed_target or double. Machin: double.
	Mode Mode `json:"mode"`
	// BatchSize is the number of transitions per update. Machin: 100.
	BatchSize int `json:"batch_size"`
	// Discount is γ in [0, 1]. Machin: 0.99.
	Discount float64 `json:"discount"`
	// UpdateRate, when positive, soft-updates the target network after
	// every update with τ = UpdateRate; 0 copies it every UpdateSteps
	// updates instead (both 0: τ = 0.005). Machin: 0.005.
	UpdateRate  float64 `json:"update_rate"`
	UpdateSteps int     `json:"update_steps"`
	// LR is Adam's learning rate. Machin: 1e-3.
	LR float64 `json:"lr"`
	// Loss is the criterion, MSE (Machin's default) or Huber.
	Loss Loss `json:"loss"`
	// GradientMax clips the gradients' global norm; 0 or +Inf means no
	// clipping (Machin's default).
	GradientMax float64 `json:"gradient_max"`
	// ReplaySize is the capacity of the replay memory. Machin: 500,000.
	ReplaySize int `json:"replay_size"`
	// Epsilon is the starting ε of ActDiscreteWithNoise, multiplied by
	// EpsilonDecay at every call. Machin: 1 and 0.9999.
	Epsilon      float64 `json:"epsilon"`
	EpsilonDecay float64 `json:"epsilon_decay"`
}

// DefaultMachinConfig returns Machin's DQN defaults: double mode, batches of
// 100, γ 0.99, soft updates with τ 0.005, Adam with lr 1e-3, MSE, no
// gradient clipping, a replay memory of 500,000, ε from 1 decaying by 0.9999.
func DefaultMachinConfig() MachinConfig {
	return MachinConfig{Mode: Double, BatchSize: 100, Discount: 0.99, UpdateRate: 0.005, LR: 1e-3, Loss: MSE,
		ReplaySize: 500_000, Epsilon: 1, EpsilonDecay: 0.9999}
}

// Machin is Machin's DQN framework over this package's DQN: transitions in
// Machin's form go into a replay memory (buffer.Memory), Update samples a
// batch with random_unique and concatenation, calls the Q networks with the
// named inputs of the sampled state (nn.Caller, Machin's safe_call), and
// learns from the one-step targets y = r + γ·(1 − terminal)·Q′(s′) (Q′ by
// Mode). Criticize and the Act methods are Machin's criticize,
// act_discrete and act_discrete_with_noise.
//
// Transitions hold the major attributes "state", "action" ({"action": the
// action index, shape [1, 1]}) and "next_state", and the sub attributes
// "reward" and "terminal" (buffer.NewDefaultTransition makes them). The
// networks declare their inputs (nn.Model), looked up among the keys of
// "state" and "next_state", and output [k, actions].
type Machin struct {
	d       *DQN
	net     policy.Network
	target  policy.Network
	mem     *buffer.Memory
	cfg     MachinConfig
	eps     float64
	rng     *rand.Rand
	in      *batch.Batch
	targets []float32
}

// NewMachin returns Machin's DQN over qnet and its target qnetTarget (built
// with the same constructor; it starts as a copy of qnet and is not used in
// vanilla mode) for n discrete actions. rng draws the samples and the
// exploration.
//
// It returns an error wrapping ErrConfig for an invalid configuration.
func NewMachin(qnet, qnetTarget policy.Network, actions int, cfg MachinConfig, rng *rand.Rand) (*Machin, error) {
	c := Config{
		Gamma: cfg.Discount, NStep: 1, Loss: cfg.Loss, HuberDelta: 1, Optim: DefaultConfig().Optim,
		EpsTrain: 0, EpsTest: 0,
	}
	c.Optim.LR = cfg.LR
	if cfg.GradientMax > 0 && !math.IsInf(cfg.GradientMax, 1) {
		c.MaxGradNorm = cfg.GradientMax
	}
	if cfg.UpdateRate > 0 {
		c.Tau = cfg.UpdateRate
	} else {
		c.TargetUpdateFreq = cfg.UpdateSteps
	}
	if err := c.ApplyMode(cfg.Mode); err != nil {
		return nil, err
	}
	if cfg.BatchSize < 1 || cfg.ReplaySize < 1 || !(cfg.Epsilon >= 0 && cfg.Epsilon <= 1) ||
		!(cfg.EpsilonDecay >= 0 && cfg.EpsilonDecay <= 1) {
		return nil, fmt.Errorf("%w: batch size %d, replay size %d, ε %v decaying by %v", ErrConfig,
			cfg.BatchSize, cfg.ReplaySize, cfg.Epsilon, cfg.EpsilonDecay)
	}
	space, err := env.NewDiscrete(int64(actions), 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	tgt := qnetTarget
	if cfg.Mode == Vanilla {
		tgt = nil
	}
	d, err := NewWithNetworks(c, qnet, tgt, space, rng)
	if err != nil {
		return nil, err
	}
	mem, err := buffer.NewMemory(cfg.ReplaySize, buffer.DefaultRequired...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return &Machin{d: d, net: qnet, target: qnetTarget, mem: mem, cfg: cfg, eps: cfg.Epsilon, rng: rng, in: &batch.Batch{}}, nil
}

// DQN returns the DQN the face runs on.
func (m *Machin) DQN() *DQN { return m.d }

// Memory returns the replay memory.
func (m *Machin) Memory() *buffer.Memory { return m.mem }

// StoreTransition appends a transition to the replay memory (Machin's
// store_transition). It returns the memory's error for a transition without
// the default attributes.
func (m *Machin) StoreTransition(t *buffer.Transition) error {
	_, err := m.mem.Append(t)
	return err
}

// StoreEpisode stores the transitions of an episode in order (Machin's
// store_episode).
func (m *Machin) StoreEpisode(ts []*buffer.Transition) error {
	for _, t := range ts {
		if err := m.StoreTransition(t); err != nil {
			return err
		}
	}
	return nil
}

var machinAttrs = []string{"state", "action", "reward", "next_state", "terminal", "*"}

// Update samples BatchSize transitions (fewer while the memory holds fewer)
// with random_unique and concatenation, makes one gradient step of the Q
// network on the one-step targets and updates the target network, and
// returns the loss. It returns an error if the memory is empty or its
// transitions do not fit the networks.
func (m *Machin) Update() (float64, error) {
	n, vals, err := m.mem.SampleBatch(m.cfg.BatchSize, true, buffer.SampleRandomUnique, machinAttrs, nil, m.rng)
	if err != nil {
		return 0, fmt.Errorf("dqn: sample: %w", err)
	}
	if n == 0 {
		return 0, fmt.Errorf("dqn: sample: %w", buffer.ErrEmpty)
	}
	state, action, nextState := vals[0].(*batch.Batch), vals[1].(*batch.Batch), vals[3].(*batch.Batch)
	reward, terminal := vals[2].(*nd.Array), vals[4].(*nd.Array)
	m.targets = slices.Grow(m.targets[:0], n)[:n]
	if err := m.d.targets(m.targets, nextState); err != nil {
		return 0, err
	}
	rew, err := reward.AsType(nd.Float64)
	if err != nil {
		return 0, fmt.Errorf("dqn: reward: %w", err)
	}
	term, err := terminal.AsType(nd.Float64)
	if err != nil {
		return 0, fmt.Errorf("dqn: terminal: %w", err)
	}
	r, done := nd.ToSlice[float64](rew), nd.ToSlice[float64](term)
	if len(r) != n || len(done) != n {
		return 0, fmt.Errorf("dqn: reward and terminal hold %d and %d values for %d transitions", len(r), len(done), n)
	}
	y := make([]float32, n)
	for i := range y {
		y[i] = float32(r[i] + m.cfg.Discount*(1-done[i])*float64(m.targets[i]))
	}
	act, ok := action.Get("action")
	if !ok {
		return 0, fmt.Errorf("dqn: the action attribute has no \"action\"")
	}
	a, ok := act.(*nd.Array)
	if !ok || a.Size() != n {
		return 0, fmt.Errorf("dqn: actions %v for %d transitions", act, n)
	}
	flat, err := a.Reshape(n)
	if err != nil {
		return 0, fmt.Errorf("dqn: actions: %w", err)
	}
	m.in = state.Clone()
	if err := m.in.Update(batch.KeyAct, flat, batch.KeyReturns, nd.MustNew(y)); err != nil {
		return 0, fmt.Errorf("dqn: %w", err)
	}
	stats, err := m.d.Update(m.in)
	if err != nil {
		return 0, err
	}
	return stats["loss"], nil
}

// Criticize returns the Q-values [k, actions] of the states in state (a
// Batch holding the networks' inputs, k rows), from the target network if
// useTarget (Machin's criticize). The result is a new tensor without
// gradient.
func (m *Machin) Criticize(state *batch.Batch, useTarget bool) (*tensor.Tensor, error) {
	net := m.net
	if useTarget {
		net = m.target
	}
	var c nn.Caller
	q, err := c.Call(nil, net, state)
	if err != nil {
		return nil, fmt.Errorf("dqn: criticize: %w", err)
	}
	return q, nil
}

// ActDiscrete returns the greedy action of each state (Machin's
// act_discrete), from the target network if useTarget.
func (m *Machin) ActDiscrete(state *batch.Batch, useTarget bool) ([]int, error) {
	q, err := m.Criticize(state, useTarget)
	if err != nil {
		return nil, err
	}
	if q.NDim() != 2 {
		return nil, fmt.Errorf("dqn: Q-values of shape %v", q.Shape())
	}
	return tensor.ArgMaxTo(make([]int, q.Dim(0)), q, 1), nil
}

// ActDiscreteWithNoise returns, for each state, a uniformly random action
// with probability ε and the greedy one otherwise, then multiplies ε by
// EpsilonDecay (Machin's act_discrete_with_noise with decay_epsilon).
func (m *Machin) ActDiscreteWithNoise(state *batch.Batch, useTarget bool) ([]int, error) {
	act, err := m.ActDiscrete(state, useTarget)
	if err != nil {
		return nil, err
	}
	for i := range act {
		if m.rng.Float64() < m.eps {
			act[i] = m.rng.IntN(m.d.nAct)
		}
	}
	m.eps *= m.cfg.EpsilonDecay
	return act, nil
}

// Epsilon returns the current ε of ActDiscreteWithNoise.
func (m *Machin) Epsilon() float64 { return m.eps }

// Save writes the state of the networks and the optimizer (DQN.Save); the
// replay memory saves itself (buffer.Memory.Save).
func (m *Machin) Save(w io.Writer) error { return m.d.Save(w) }

// Load restores what Save wrote.
func (m *Machin) Load(r io.Reader) error { return m.d.Load(r) }
