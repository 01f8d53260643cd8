package marl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// SelfPlayConfig holds the settings of SelfPlay. DefaultSelfPlayConfig
// gives those of the tic-tac-toe run; a zero field is invalid unless its
// comment says otherwise.
type SelfPlayConfig struct {
	// DQN configures the learner: γ, the target network (TargetUpdateFreq
	// or Tau), Double, the loss, Adam, and ε from EpsTrain to
	// EpsTrainFinal over EpsDecaySteps of the learner's moves. NStep must
	// be 1: targets are one turn ahead. Its network fields are ignored.
	DQN dqn.Config `json:"dqn"`
	// Hidden lists the Q network's hidden layer sizes.
	Hidden []int `json:"hidden"`
	// Games is the number of training games.
	Games int `json:"games"`
	// BufferSize is the capacity of the learner's replay buffer in moves.
	BufferSize int `json:"buffer_size"`
	// BatchSize is the number of moves per gradient step.
	BatchSize int `json:"batch_size"`
	// Warmup is the number of the learner's moves stored before the first
	// gradient step; 0 means BatchSize.
	Warmup int `json:"warmup"`
	// UpdatesPerMove is the number of gradient steps per move of the
	// learner, taken after each game.
	UpdatesPerMove float64 `json:"updates_per_move"`
	// RandomShare is the share of games, in [0, 1], played against the
	// random player instead of a past copy of the learner.
	RandomShare float64 `json:"random_share"`
	// SnapshotEvery is the number of games between copies of the learner
	// into the pool of past opponents; the pool starts with the initial
	// network.
	SnapshotEvery int `json:"snapshot_every"`
	// PoolSize is the number of past copies kept (the oldest leaves).
	PoolSize int `json:"pool_size"`
	// OpponentEps is the ε of the past copies, in [0, 1]. 0: greedy.
	OpponentEps float64 `json:"opponent_eps"`
	// TestEvery is the number of games between tests of the greedy
	// learner against the random player, TestGames games from each seat;
	// the copy with the best mean test return (wins − losses) is kept as
	// Best, as Tianshou's trainers keep their best policy. 0: no tests.
	TestEvery int `json:"test_every"`
	TestGames int `json:"test_games"`
	// Augment stores each of the learner's moves once per symmetry of the
	// game (the env must implement Symmetric): eight moves of tic-tac-toe
	// per move played.
	Augment bool `json:"augment"`
}

// DefaultSelfPlayConfig returns the tic-tac-toe settings: an MLP 18→128→
// 128→9, γ 0.9, a target network copied every 500 steps, double
// Q-learning, Adam with lr 3e-4, ε from 1 to 0.05 over 30,000 moves, 20,000
// games with one gradient step of 64 moves per move, each move stored with
// its symmetric images in a buffer of 200,000, 80% of the games against the
// random player and the rest against one of the last 5 copies of the
// learner, taken every 500 games, which play with ε 0.1; a test of 500
// games from each seat every 500 games keeps the best copy.
func DefaultSelfPlayConfig() SelfPlayConfig {
	c := dqn.DefaultConfig()
	c.Hidden = nil
	c.NStep = 1
	c.TargetUpdateFreq = 500
	c.EpsTrain, c.EpsTrainFinal, c.EpsDecaySteps, c.EpsTest = 1, 0.05, 30_000, 0
	c.Optim.LR = 3e-4
	return SelfPlayConfig{
		DQN: c, Hidden: []int{128, 128}, Games: 20_000, BufferSize: 200_000, BatchSize: 64, Augment: true,
		UpdatesPerMove: 1, RandomShare: 0.8, SnapshotEvery: 500, PoolSize: 5, OpponentEps: 0.1,
		TestEvery: 500, TestGames: 500,
	}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c SelfPlayConfig) Validate() error {
	if err := c.DQN.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	unit := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case c.DQN.NStep != 1:
		return fmt.Errorf("%w: dqn.n_step %d; self-play targets are one turn ahead (1)", ErrConfig, c.DQN.NStep)
	case len(c.Hidden) == 0 || slices.Min(c.Hidden) < 1:
		return fmt.Errorf("%w: hidden %v", ErrConfig, c.Hidden)
	case c.Games < 1 || c.BufferSize < 1 || c.BatchSize < 1 || c.Warmup < 0:
		return fmt.Errorf("%w: games %d, buffer_size %d, batch_size %d, warmup %d", ErrConfig, c.Games, c.BufferSize, c.BatchSize, c.Warmup)
	case !(c.UpdatesPerMove > 0):
		return fmt.Errorf("%w: updates_per_move %v", ErrConfig, c.UpdatesPerMove)
	case !unit(c.RandomShare) || !unit(c.OpponentEps):
		return fmt.Errorf("%w: random_share %v, opponent_eps %v outside [0, 1]", ErrConfig, c.RandomShare, c.OpponentEps)
	case c.SnapshotEvery < 1 || c.PoolSize < 1:
		return fmt.Errorf("%w: snapshot_every %d, pool_size %d", ErrConfig, c.SnapshotEvery, c.PoolSize)
	case c.TestEvery < 0 || (c.TestEvery > 0 && c.TestGames < 1):
		return fmt.Errorf("%w: test_every %d, test_games %d", ErrConfig, c.TestEvery, c.TestGames)
	}
	return nil
}

// SelfPlay trains a DQN for a two-player turn-based game with masked
// Discrete actions, whose observations are seen from the acting player's
// side (so one network plays either seat): the learner alternates seats
// game by game, and plays the random player (RandomShare of the games) or
// one of its own past copies. Only the learner's moves are stored and
// learnt from. A SelfPlay is driven by one goroutine.
type SelfPlay struct {
	cfg     SelfPlayConfig
	env     multiagent.AEC
	agents  []string
	n       int
	in      int
	dqn     *dqn.DQN
	learner *MaskedQ
	random  *Random
	pool    []*MaskedQ
	best    *MaskedQ // the best tested copy, nil before the first test
	bestNet *QNet
	bestRet float64
	buf     *buffer.Replay
	bufs    map[string]Store
	store   Store // the learner's buffer, augmented with Augment
	coll    *AECCollector
	disp    *Dispatcher
	rng     *rand.Rand

	games, moves, updates int64
	stored                int // the learner's moves stored in the current game

	// Scratch of the update.
	sample   batch.Batch
	next     batch.Batch
	tp       tensor.Tape
	tgtCall  nn.Caller
	onCall   nn.Caller
	vals     []float32
	mask     env.ActionMask
	retArr   *nd.Array
	lastLoss float64
}

// NewSelfPlay returns a SelfPlay for e, a two-player AEC env whose agents
// have the same Discrete(n) action space (starting at 0) and the same
// observation space, a Dict with "obs" and "action_mask". Weights, the
// exploration and the opponents' choices are drawn from streams seeded by
// rng. It returns an error wrapping ErrConfig for an invalid cfg or an env
// that does not fit.
func NewSelfPlay(cfg SelfPlayConfig, e multiagent.AEC, rng *rand.Rand) (*SelfPlay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	agents := e.PossibleAgents()
	if len(agents) != 2 {
		return nil, fmt.Errorf("%w: self-play needs two agents, not %q", ErrConfig, agents)
	}
	act, ok := e.ActionSpace(agents[0]).(*env.Discrete)
	if !ok || act.Start() != 0 || !act.Equal(e.ActionSpace(agents[1])) {
		return nil, fmt.Errorf("%w: self-play needs one Discrete action space starting at 0 for both agents", ErrConfig)
	}
	obs, ok := e.ObservationSpace(agents[0]).(*env.Dict)
	if !ok || !obs.Equal(e.ObservationSpace(agents[1])) {
		return nil, fmt.Errorf("%w: self-play needs one Dict observation space for both agents", ErrConfig)
	}
	inner, ok1 := obs.Space(multiagent.KeyObs)
	_, ok2 := obs.Space(multiagent.KeyActionMask)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%w: observations %v lack %q or %q", ErrConfig, obs, multiagent.KeyObs, multiagent.KeyActionMask)
	}
	in := 1
	for _, d := range inner.Shape() {
		in *= d
	}
	n := int(act.N())
	s := &SelfPlay{cfg: cfg, env: e, agents: agents, n: n, in: in, rng: rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))}
	net, err := NewQNet(in, cfg.Hidden, n, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	target, err := NewQNet(in, cfg.Hidden, n, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if s.dqn, err = dqn.NewWithNetworks(cfg.DQN, net, target, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.learner = NewMaskedQ(net, n, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
	s.random = &Random{N: n, Rng: rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))}
	if err := s.snapshot(); err != nil {
		return nil, err
	}
	if s.buf, err = buffer.New(buffer.Config{Size: cfg.BufferSize}); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	s.bufs, s.store = map[string]Store{}, s.buf
	if cfg.Augment {
		sym, ok := e.(Symmetric)
		if !ok {
			return nil, fmt.Errorf("%w: augment: %T has no symmetries", ErrConfig, e)
		}
		o, a := sym.Symmetries()
		s.store = augmented{Store: s.buf, obs: o, act: a}
	}
	if s.disp, err = NewDispatcher(agents, map[string]Actor{agents[0]: s.learner, agents[1]: s.random}); err != nil {
		return nil, err
	}
	s.coll = NewAECCollector(e, s.disp, s.bufs, env.SeedOf(rng.Uint64()))
	return s, nil
}

// Learner returns the learner's policy (greedy unless told to explore).
func (s *SelfPlay) Learner() *MaskedQ { return s.learner }

// Best returns the greedy policy of the copy of the learner with the best
// test return so far, and that return; the learner itself and NaN before
// the first test.
func (s *SelfPlay) Best() (*MaskedQ, float64) {
	if s.best == nil {
		return s.learner, math.NaN()
	}
	return s.best, s.bestRet
}

// BestNetwork returns the Q network of Best.
func (s *SelfPlay) BestNetwork() *QNet {
	if s.bestNet == nil {
		return s.Network()
	}
	return s.bestNet
}

// test plays the greedy learner against the random player from each seat
// and keeps a copy if its mean return is the best so far.
func (s *SelfPlay) test() error {
	ret := 0.0
	for _, seat := range s.agents {
		r, err := Evaluate(s.env, seat, s.learner, s.random, s.cfg.TestGames, s.rng.Uint64())
		if err != nil {
			return err
		}
		ret += (r.WinRate() - r.LossRate()) / float64(len(s.agents))
	}
	if s.best != nil && ret <= s.bestRet {
		return nil
	}
	if s.bestNet == nil {
		net, err := NewQNet(s.in, s.cfg.Hidden, s.n, s.rng)
		if err != nil {
			return err
		}
		s.bestNet, s.best = net, NewMaskedQ(net, s.n, rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64())))
	}
	s.bestRet = ret
	return nn.Copy(s.bestNet.Params(), s.dqn.Network().Params())
}

// Network returns the learner's Q network.
func (s *SelfPlay) Network() *QNet { return s.dqn.Network().(*QNet) }

// snapshot copies the learner into the pool of past opponents.
func (s *SelfPlay) snapshot() error {
	net, err := NewQNet(s.in, s.cfg.Hidden, s.n, s.rng)
	if err != nil {
		return err
	}
	if err := nn.Copy(net.Params(), s.dqn.Network().Params()); err != nil {
		return err
	}
	p := NewMaskedQ(net, s.n, rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64())))
	if err := p.SetEps(s.cfg.OpponentEps); err != nil {
		return err
	}
	s.pool = append(s.pool, p)
	if len(s.pool) > s.cfg.PoolSize {
		s.pool = slices.Delete(s.pool, 0, 1)
	}
	return nil
}

// Progress is what Train reports after each game.
type Progress struct {
	Games, Moves, Updates int64
	// Loss is the DQN loss of the last gradient step.
	Loss float64
	// Eps is the learner's current ε.
	Eps float64
	// BestReturn is the best test return so far (NaN before the first
	// test).
	BestReturn float64
}

// Train plays games training games (see SelfPlay), calling report, if not
// nil, after each. It stops early with ctx's error when ctx is done, and
// returns the first error of the env, a policy, the buffer or an update.
func (s *SelfPlay) Train(ctx context.Context, games int, report func(Progress)) error {
	warm := s.cfg.Warmup
	if warm == 0 {
		warm = s.cfg.BatchSize
	}
	credit := 0.0
	for range games {
		if err := ctx.Err(); err != nil {
			return err
		}
		seat := int(s.games % 2)
		learnerID, oppID := s.agents[seat], s.agents[1-seat]
		var opp Actor = s.random
		if s.rng.Float64() >= s.cfg.RandomShare {
			opp = s.pool[s.rng.IntN(len(s.pool))]
		}
		if err := s.disp.Set(learnerID, s.learner); err != nil {
			return err
		}
		if err := s.disp.Set(oppID, opp); err != nil {
			return err
		}
		clear(s.bufs)
		s.bufs[learnerID] = counted{s.store, &s.stored}
		eps := algo.Anneal(s.cfg.DQN.EpsTrain, s.cfg.DQN.EpsTrainFinal, s.moves, s.cfg.DQN.EpsDecaySteps)
		if err := s.learner.SetEps(eps); err != nil {
			return err
		}
		s.stored = 0
		if _, err := s.coll.Collect(1, true); err != nil {
			return err
		}
		moved := int64(s.stored)
		s.moves += moved
		s.games++
		if s.buf.Len() >= warm {
			credit += float64(moved) * s.cfg.UpdatesPerMove
			for ; credit >= 1; credit-- {
				if err := s.update(); err != nil {
					return err
				}
			}
		}
		if s.games%int64(s.cfg.SnapshotEvery) == 0 {
			if err := s.snapshot(); err != nil {
				return err
			}
		}
		if s.cfg.TestEvery > 0 && s.games%int64(s.cfg.TestEvery) == 0 {
			if err := s.test(); err != nil {
				return err
			}
		}
		if report != nil {
			_, best := s.Best()
			report(Progress{Games: s.games, Moves: s.moves, Updates: s.updates, Loss: s.lastLoss, Eps: eps, BestReturn: best})
		}
	}
	return nil
}

// counted is a Store that counts the transitions it adds.
type counted struct {
	Store
	n *int
}

func (c counted) Add(data *batch.Batch, ids []int, steps []buffer.Step) ([]buffer.Step, error) {
	*c.n++
	return c.Store.Add(data, ids, steps)
}

// update takes one gradient step on a sample of the learner's moves with
// one-turn targets r + γ·(1 − terminated)·maxₐ′ Q′(s′, a′), the maximum
// (with Double, the online network's choice) over the valid a′ only.
func (s *SelfPlay) update() error {
	k := s.cfg.BatchSize
	idx := s.buf.SampleIndices(k, s.rng)
	if err := s.buf.TakeTo(&s.sample, idx); err != nil {
		return err
	}
	next, err := s.sample.Batch(batch.KeyObsNext)
	if err != nil {
		return err
	}
	if err := s.next.Set(batch.KeyObs, next); err != nil {
		return err
	}
	s.tp.Reset()
	s.tp.SetGradEnabled(false)
	tq, err := s.tgtCall.Call(&s.tp, s.dqn.Target(), &s.next)
	if err != nil {
		return fmt.Errorf("marl: target network: %w", err)
	}
	var online []float32
	if s.cfg.DQN.Double {
		oq, err := s.onCall.Call(&s.tp, s.dqn.Network(), &s.next)
		if err != nil {
			return fmt.Errorf("marl: Q network: %w", err)
		}
		online = oq.Data()
	}
	mask, err := maskRows(&s.mask, &s.next, k, s.n)
	if err != nil {
		return err
	}
	s.vals = slices.Grow(s.vals[:0], k)[:k]
	maskedMaxTo(s.vals, tq.Data(), online, mask, s.n)
	if s.retArr == nil || s.retArr.Dim(0) != k {
		s.retArr = nd.Zeros(nd.Float32, k)
	}
	ret := nd.Data[float32](s.retArr)
	rew, term := s.buf.Rew(), s.buf.Terminated()
	g := float32(s.cfg.DQN.Gamma)
	for i, j := range idx {
		ret[i] = float32(rew[j])
		if !term[j] {
			ret[i] += g * s.vals[i]
		}
	}
	if err := s.sample.Set(batch.KeyReturns, s.retArr); err != nil {
		return err
	}
	st, err := s.dqn.Update(&s.sample)
	if err != nil {
		return err
	}
	s.updates++
	s.lastLoss = st["loss"]
	return nil
}

// Result counts the games of Evaluate from one player's side.
type Result struct {
	Games, Wins, Draws, Losses int
}

// WinRate, DrawRate and LossRate return the shares of the games.
func (r Result) WinRate() float64  { return float64(r.Wins) / float64(r.Games) }
func (r Result) DrawRate() float64 { return float64(r.Draws) / float64(r.Games) }
func (r Result) LossRate() float64 { return float64(r.Losses) / float64(r.Games) }

// Evaluate plays games games of e with p acting greedily for agent and
// opponent for the other agent of a two-player game, the first Reset seeded
// with seed, and counts p's wins (a positive return), draws (0) and losses.
func Evaluate(e multiagent.AEC, agent string, p, opponent Actor, games int, seed uint64) (Result, error) {
	agents := e.PossibleAgents()
	if len(agents) != 2 || !slices.Contains(agents, agent) {
		return Result{}, fmt.Errorf("%w: %q is not one of two agents %q", ErrConfig, agent, agents)
	}
	pols := map[string]Actor{}
	for _, a := range agents {
		pols[a] = opponent
	}
	pols[agent] = p
	d, err := NewDispatcher(agents, pols)
	if err != nil {
		return Result{}, err
	}
	eps, err := NewAECCollector(e, d, nil, env.SeedOf(seed)).Collect(games, false)
	if err != nil {
		return Result{}, err
	}
	r := Result{Games: games}
	for _, ep := range eps {
		switch v := ep.Returns[agent]; {
		case v > 0:
			r.Wins++
		case v < 0:
			r.Losses++
		default:
			r.Draws++
		}
	}
	return r, nil
}
