package maddpg

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Agent holds one agent's networks: its actor and critic, their targets
// and their optimizers.
type Agent struct {
	Actor, Target             *actorcritic.DeterministicActor
	ActorParams, TargetParams nn.Params
	ActorOpt                  *actorcritic.Optimizer
	// Critic is the centralised critic and its target, over the
	// concatenated observations and actions of all agents.
	Critic *actorcritic.Critics
}

// Counters are the parts of the state that are not tensors.
type Counters struct {
	// Updates counts the calls of Update that trained.
	Updates int64 `json:"updates"`
	// EnvSteps counts the transitions Episode stored.
	EnvSteps int64 `json:"env_steps"`
}

// MADDPG trains one actor and one centralised critic per agent of a
// Parallel env. It is driven by one goroutine at a time.
type MADDPG struct {
	// Agents are in the env's PossibleAgents order.
	Agents   []Agent
	Counters Counters

	cfg        Config
	ids        []string
	obsDim     []int
	actDim     []int
	obsOff     []int // offset of each agent's part in the joint vectors
	actOff     []int
	sumObs     int
	sumAct     int
	low, scale [][]float32 // env action = low + scale·(raw + 1)
	src        *rand.PCG   // exploration noise and sampling
	rng        *rand.Rand
	buf        replay
	raw        []float32 // the joint raw actions of the last Act
	prev       []float32 // the joint observations of the last Act
	envAct     map[string]any
	envArr     []*nd.Array
	tp, ntp    tensor.Tape
	obsT, actT []*tensor.Tensor // per agent [B, dᵢ]
	nextT      []*tensor.Tensor
	anT        []*tensor.Tensor // per agent μ′ᵢ(o′ᵢ) [B, dᵢ]
	x, a, xn   *tensor.Tensor   // joint [B, Σ]
	an, y      *tensor.Tensor
	rew, done  []float32 // [B] for the agent being updated
	idx        []int
	parts      []*tensor.Tensor
	actIn      []*tensor.Tensor // [1, dᵢ] per agent, for Act
	stats      map[string]float64
	critKey    []string
	actKey     []string
	acted      bool
}

// New returns a MADDPG for the agents of e (every agent's observation
// space a Box of one axis, its action space a bounded float32 Box of one
// axis), drawing from rng, agent after agent, the actor's weights, its
// target's, the critic's, then the seed of the exploration and sampling
// source. It returns an error wrapping ErrConfig for an invalid cfg or
// spaces it does not support.
func New(cfg Config, e multiagent.Spaces, rng *rand.Rand) (*MADDPG, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ids := e.PossibleAgents()
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: no agents", ErrConfig)
	}
	m := &MADDPG{cfg: cfg, ids: ids, envAct: map[string]any{}, stats: map[string]float64{}}
	for _, id := range ids {
		od, ad, err := actorcritic.ContinuousDims(e.ObservationSpace(id), e.ActionSpace(id))
		if err != nil {
			return nil, fmt.Errorf("%w: agent %s: %w", ErrConfig, id, err)
		}
		box, ok := e.ActionSpace(id).(*env.Box)
		if !ok || box.DType() != nd.Float32 {
			return nil, fmt.Errorf("%w: agent %s: action space %v; want a float32 Box", ErrConfig, id, e.ActionSpace(id))
		}
		lo, hi := nd.Data[float32](box.Low()), nd.Data[float32](box.High())
		sc := make([]float32, ad)
		for k := range sc {
			if math.IsInf(float64(lo[k]), 0) || math.IsInf(float64(hi[k]), 0) {
				return nil, fmt.Errorf("%w: agent %s: action space %v is unbounded", ErrConfig, id, box)
			}
			sc[k] = (hi[k] - lo[k]) / 2
		}
		m.low, m.scale = append(m.low, lo), append(m.scale, sc)
		m.obsOff, m.actOff = append(m.obsOff, m.sumObs), append(m.actOff, m.sumAct)
		m.obsDim, m.actDim = append(m.obsDim, od), append(m.actDim, ad)
		m.sumObs += od
		m.sumAct += ad
		m.envArr = append(m.envArr, nd.Zeros(nd.Float32, ad))
		m.critKey = append(m.critKey, "loss/critic/"+id)
		m.actKey = append(m.actKey, "loss/actor/"+id)
	}
	for i := range ids {
		var ag Agent
		var err error
		if ag.Actor, err = actorcritic.NewDeterministicActor(m.obsDim[i], m.actDim[i], cfg.ActorHidden, 1, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		if ag.Target, err = actorcritic.NewDeterministicActor(m.obsDim[i], m.actDim[i], cfg.ActorHidden, 1, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		ag.ActorParams, ag.TargetParams = ag.Actor.Params(), ag.Target.Params()
		if err := nn.Copy(ag.TargetParams, ag.ActorParams); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		if ag.ActorOpt, err = actorcritic.NewOptimizer(ag.ActorParams, cfg.ActorOptim); err != nil {
			return nil, fmt.Errorf("%w: actor_optim: %w", ErrConfig, err)
		}
		co, ca := m.sumObs, m.sumAct
		if cfg.Independent {
			co, ca = m.obsDim[i], m.actDim[i]
		}
		if ag.Critic, err = actorcritic.NewCritics(1, cfg.Critic, co, ca, cfg.CriticOptim, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		m.Agents = append(m.Agents, ag)
	}
	m.src = rand.NewPCG(rng.Uint64(), rng.Uint64())
	m.rng = rand.New(m.src)
	m.buf = newReplay(cfg.BufferSize, m.sumObs, m.sumAct, len(ids))
	m.raw, m.prev = make([]float32, m.sumAct), make([]float32, m.sumObs)
	m.alloc()
	m.ntp.SetGradEnabled(false)
	return m, nil
}

// alloc makes the update's scratch tensors.
func (m *MADDPG) alloc() {
	b := m.cfg.BatchSize
	for i := range m.ids {
		m.obsT = append(m.obsT, tensor.New(b, m.obsDim[i]))
		m.nextT = append(m.nextT, tensor.New(b, m.obsDim[i]))
		m.actT = append(m.actT, tensor.New(b, m.actDim[i]))
		m.anT = append(m.anT, tensor.New(b, m.actDim[i]))
		m.actIn = append(m.actIn, tensor.New(1, m.obsDim[i]))
	}
	m.x, m.xn = tensor.New(b, m.sumObs), tensor.New(b, m.sumObs)
	m.a, m.an = tensor.New(b, m.sumAct), tensor.New(b, m.sumAct)
	m.y = tensor.New(b)
	m.rew, m.done = make([]float32, b), make([]float32, b)
	m.idx = make([]int, b)
	m.parts = make([]*tensor.Tensor, len(m.ids))
}

// Config returns the configuration.
func (m *MADDPG) Config() Config { return m.cfg }

// IDs returns the agents' ids in order (not to be modified).
func (m *MADDPG) IDs() []string { return m.ids }

// Len returns the number of joint transitions stored.
func (m *MADDPG) Len() int { return m.buf.n }

// obsData returns agent i's observation in obs as float32 values.
func (m *MADDPG) obsData(obs map[string]any, i int) ([]float32, error) {
	id := m.ids[i]
	a, ok := obs[id].(*nd.Array)
	if !ok {
		return nil, fmt.Errorf("maddpg: observation of %s is %T; want *nd.Array", id, obs[id])
	}
	if a.DType() != nd.Float32 || !a.IsContiguous() || a.Size() != m.obsDim[i] {
		return nil, fmt.Errorf("maddpg: observation of %s: %v %v; want float32 [%d]", id, a.DType(), a.Shape(), m.obsDim[i])
	}
	return nd.Data[float32](a), nil
}

// Act returns every agent's action for the observations obs (one per
// agent, keyed by id): μᵢ(oᵢ), plus Gaussian noise of σ Sigma when
// explore, clipped to [−1, 1] and mapped onto the action space. The map
// and its arrays are owned by m and rewritten by the next Act. It returns
// an error for a missing or malformed observation.
func (m *MADDPG) Act(obs map[string]any, explore bool) (map[string]any, error) {
	for i := range m.ids {
		o, err := m.obsData(obs, i)
		if err != nil {
			return nil, err
		}
		copy(m.prev[m.obsOff[i]:], o)
		m.ntp.Reset()
		in := m.actIn[i]
		copy(in.Data(), o)
		out := m.Agents[i].Actor.Forward(&m.ntp, in).Data()
		raw := m.raw[m.actOff[i] : m.actOff[i]+m.actDim[i]]
		dst := nd.Data[float32](m.envArr[i])
		for k, v := range out {
			if explore && m.cfg.Sigma > 0 {
				v += float32(m.cfg.Sigma * m.rng.NormFloat64())
			}
			v = min(max(v, -1), 1)
			raw[k] = v
			dst[k] = m.low[i][k] + m.scale[i][k]*(v+1)
		}
		m.envAct[m.ids[i]] = m.envArr[i]
	}
	m.acted = true
	return m.envAct, nil
}

// Store adds to the buffer the joint transition from the observations of
// the last Act, with its raw actions, to next, with the rewards rew and the
// terminated flags term (a truncated agent is not terminated: its target
// bootstraps). It returns an error when no Act came before or for a
// missing observation.
func (m *MADDPG) Store(next map[string]any, rew map[string]float64, term map[string]bool) error {
	if !m.acted {
		return errors.New("maddpg: Store before Act")
	}
	slot := m.buf.slot()
	for i, id := range m.ids {
		n, err := m.obsData(next, i)
		if err != nil {
			return err
		}
		copy(slot.next[m.obsOff[i]:], n)
		slot.rew[i] = float32(rew[id])
		slot.done[i] = 0
		if term[id] {
			slot.done[i] = 1
		}
	}
	copy(slot.obs, m.prev)
	copy(slot.act, m.raw)
	m.buf.commit()
	return nil
}

// Update samples BatchSize joint transitions and makes, for every agent,
// one critic step and one actor step, then moves all targets by τ. It
// returns the losses ("loss/critic/ID", "loss/actor/ID") in a map owned by
// m, or nil and no error while the buffer holds fewer than BatchSize
// transitions.
func (m *MADDPG) Update() (map[string]float64, error) {
	if m.buf.n < m.cfg.BatchSize {
		return nil, nil
	}
	for k := range m.idx {
		m.idx[k] = m.rng.IntN(m.buf.n)
	}
	m.gather()
	m.targetActions()
	for i := range m.Agents {
		m.stats[m.critKey[i]] = m.criticStep(i)
		m.stats[m.actKey[i]] = m.actorStep(i)
	}
	for i := range m.Agents {
		ag := &m.Agents[i]
		algo.UpdateTarget(ag.TargetParams, ag.ActorParams, 0, 0, m.cfg.Tau)
		ag.Critic.SoftUpdate(m.cfg.Tau)
	}
	m.Counters.Updates++
	return m.stats, nil
}

// gather copies the sampled transitions into the scratch tensors.
func (m *MADDPG) gather() {
	x, xn, a := m.x.Data(), m.xn.Data(), m.a.Data()
	for r, j := range m.idx {
		copy(x[r*m.sumObs:(r+1)*m.sumObs], m.buf.obs[j*m.sumObs:])
		copy(xn[r*m.sumObs:(r+1)*m.sumObs], m.buf.next[j*m.sumObs:])
		copy(a[r*m.sumAct:(r+1)*m.sumAct], m.buf.act[j*m.sumAct:])
		for i := range m.ids {
			od, ad := m.obsDim[i], m.actDim[i]
			copy(m.obsT[i].Data()[r*od:(r+1)*od], x[r*m.sumObs+m.obsOff[i]:])
			copy(m.nextT[i].Data()[r*od:(r+1)*od], xn[r*m.sumObs+m.obsOff[i]:])
			copy(m.actT[i].Data()[r*ad:(r+1)*ad], a[r*m.sumAct+m.actOff[i]:])
		}
	}
}

// targetActions writes μ′ⱼ(o′ⱼ) of every agent into the joint next
// actions.
func (m *MADDPG) targetActions() {
	an := m.an.Data()
	for i := range m.Agents {
		m.ntp.Reset()
		out := m.Agents[i].Target.Forward(&m.ntp, m.nextT[i]).Data()
		copy(m.anT[i].Data(), out)
		ad := m.actDim[i]
		for r := range m.idx {
			copy(an[r*m.sumAct+m.actOff[i]:r*m.sumAct+m.actOff[i]+ad], out[r*ad:(r+1)*ad])
		}
	}
}

// targets writes into dst agent i's critic targets yᵢ for the transitions
// of the last gather.
func (m *MADDPG) targets(i int, dst []float32) {
	m.ntp.Reset()
	xn, an := m.xn, m.an
	if m.cfg.Independent {
		xn, an = m.nextT[i], m.anT[i]
	}
	m.Agents[i].Critic.TargetMinTo(dst, &m.ntp, xn, an, nil)
	g := float32(m.cfg.Gamma)
	for r, j := range m.idx {
		rew, done := m.buf.rew[j*len(m.ids)+i], m.buf.done[j*len(m.ids)+i]
		dst[r] = rew + g*(1-done)*dst[r]
	}
}

func (m *MADDPG) criticStep(i int) float64 {
	m.targets(i, m.y.Data())
	m.tp.Reset()
	if m.cfg.Independent {
		return m.Agents[i].Critic.Step(&m.tp, m.obsT[i], m.actT[i], m.y)
	}
	return m.Agents[i].Critic.Step(&m.tp, m.x, m.a, m.y)
}

func (m *MADDPG) actorStep(i int) float64 {
	ag := &m.Agents[i]
	m.tp.Reset()
	for j := range m.Agents {
		m.parts[j] = m.actT[j]
	}
	m.parts[i] = ag.Actor.Forward(&m.tp, m.obsT[i])
	var q *tensor.Tensor
	if m.cfg.Independent {
		q = ag.Critic.Online[0].Q(&m.tp, m.obsT[i], m.parts[i])
	} else {
		q = ag.Critic.Online[0].Q(&m.tp, m.x, m.tp.Concat(1, m.parts...))
	}
	loss := m.tp.Neg(m.tp.Mean(q))
	ag.ActorOpt.Step(&m.tp, loss)
	return float64(loss.Item())
}

// Params returns every agent's parameters, prefixed "ID/actor",
// "ID/actor_target", "ID/critic" and "ID/critic_target".
func (m *MADDPG) Params() nn.Params {
	var ps nn.Params
	for i, ag := range m.Agents {
		p := m.ids[i] + "/"
		ps = append(ps, ag.ActorParams.Prefixed(p+"actor")...)
		ps = append(ps, ag.TargetParams.Prefixed(p+"actor_target")...)
		ps = append(ps, ag.Critic.Params().Prefixed(p+"critic")...)
		ps = append(ps, ag.Critic.TargetParams().Prefixed(p+"critic_target")...)
	}
	return ps
}

func (m *MADDPG) stateParts() []algo.Part {
	var parts []algo.Part
	for i, ag := range m.Agents {
		p := m.ids[i] + "/"
		parts = append(parts,
			algo.ParamsPart(p+"actor", ag.ActorParams),
			algo.ParamsPart(p+"actor_target", ag.TargetParams),
			algo.Part{Name: p + "actor_optim", Save: ag.ActorOpt.Save, Load: ag.ActorOpt.Load})
		for _, c := range ag.Critic.Parts() {
			c.Name = p + c.Name
			parts = append(parts, c)
		}
	}
	return append(parts, algo.BinaryPart("rng", m.src), algo.JSONPart("counters", &m.Counters))
}

// Save writes the networks, optimizers, random source and counters (not
// the replay buffer) with algo.SaveParts.
func (m *MADDPG) Save(w io.Writer) error { return algo.SaveParts(w, m.stateParts()...) }

// Load restores a state written by Save into a MADDPG made with the same
// configuration and env; it returns an error wrapping algo.ErrState
// otherwise.
func (m *MADDPG) Load(r io.Reader) error { return algo.LoadParts(r, m.stateParts()...) }
