package marl

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// Actor is what a Dispatcher needs from a policy: policy.Policy's Act.
type Actor interface {
	Act(dst, obs *batch.Batch, state any, explore bool) error
}

// ErrConfig is wrapped by the errors of constructors given an invalid
// configuration.
var ErrConfig = errors.New("marl: invalid configuration")

// Dispatcher routes each agent's observation to the policy that acts for
// it, Tianshou's MultiAgentPolicyManager. Several agents may share a
// policy. A Dispatcher is not safe for concurrent use.
type Dispatcher struct {
	agents []string
	slots  []slot
}

// slot is one agent's policy and the reused batches it acts through.
type slot struct {
	pol    Actor
	in     *batch.Batch // "obs": the observation with a batch axis of 1
	row    any          // where an observation goes: a view of in's only row (*nd.Array), or the stacked Batch itself
	out    batch.Batch
	actArr *nd.Array // the "act" array of out the view was made from
	act    *nd.Array // a view of its only row
}

// NewDispatcher returns a Dispatcher acting for agents with policies, one
// per agent (the same Actor for several agents shares it). It returns an
// error wrapping ErrConfig if an agent has no policy, a policy is nil, or a
// policy is given for an agent not in agents.
func NewDispatcher(agents []string, policies map[string]Actor) (*Dispatcher, error) {
	d := &Dispatcher{agents: slices.Clone(agents), slots: make([]slot, len(agents))}
	for i, a := range agents {
		p := policies[a]
		if p == nil {
			return nil, fmt.Errorf("%w: no policy for agent %q", ErrConfig, a)
		}
		d.slots[i].pol = p
	}
	for a := range policies {
		if !slices.Contains(agents, a) {
			return nil, fmt.Errorf("%w: a policy for %q, who is not an agent of %q", ErrConfig, a, agents)
		}
	}
	return d, nil
}

// Agents returns the agents (a copy).
func (d *Dispatcher) Agents() []string { return slices.Clone(d.agents) }

func (d *Dispatcher) index(agent string) int { return slices.Index(d.agents, agent) }

// Policy returns agent's policy, nil for an unknown agent.
func (d *Dispatcher) Policy(agent string) Actor {
	if i := d.index(agent); i >= 0 {
		return d.slots[i].pol
	}
	return nil
}

// Set makes p act for agent. It returns an error wrapping ErrConfig for an
// unknown agent or a nil p.
func (d *Dispatcher) Set(agent string, p Actor) error {
	i := d.index(agent)
	if i < 0 || p == nil {
		return fmt.Errorf("%w: Set(%q, %v): unknown agent or no policy", ErrConfig, agent, p)
	}
	d.slots[i].pol = p
	return nil
}

// Act returns agent's action for its observation obs (an *nd.Array or a
// *batch.Batch, as the env gives it): the policy acts on a batch of one, and
// the action comes without the batch axis (a 0-d int64 array for a Discrete
// space). The action is owned by the Dispatcher and overwritten by the next
// Act for the same agent. Act does not map actions: give policies that act
// in the env's own action space.
func (d *Dispatcher) Act(agent string, obs any, explore bool) (any, error) {
	i := d.index(agent)
	if i < 0 {
		return nil, fmt.Errorf("marl: no policy for agent %q", agent)
	}
	s := &d.slots[i]
	if err := s.load(obs); err != nil {
		return nil, fmt.Errorf("marl: %s's observation: %w", agent, err)
	}
	if err := s.pol.Act(&s.out, s.in, nil, explore); err != nil {
		return nil, fmt.Errorf("marl: %s's policy: %w", agent, err)
	}
	a, err := s.out.Array(batch.KeyAct)
	if err != nil || a.Ndim() < 1 || a.Dim(0) != 1 {
		return nil, fmt.Errorf("marl: %s's policy gave no action for one observation (%v)", agent, err)
	}
	if a != s.actArr {
		s.actArr, s.act = a, a.Index(nd.I(0))
	}
	return s.act, nil
}

// load copies obs into the slot's input batch, made on first use (and again
// if the observation's structure changes).
func (s *slot) load(obs any) error {
	for range 2 {
		if s.in != nil {
			var err error
			switch row := s.row.(type) {
			case *nd.Array:
				o, ok := obs.(*nd.Array)
				if !ok {
					break
				}
				err = nd.CopyTo(row, o)
			case *batch.Batch:
				o, ok := obs.(*batch.Batch)
				if !ok {
					break
				}
				err = row.SetRow(0, o)
			}
			if err == nil {
				return nil
			}
		}
		switch o := obs.(type) {
		case *nd.Array:
			a := nd.Zeros(o.DType(), append([]int{1}, o.Shape()...)...)
			s.in, s.row = batch.MustNew(batch.KeyObs, a), a.Index(nd.I(0))
		case *batch.Batch:
			b := batch.ZerosStacked(o, 1)
			s.in, s.row = batch.MustNew(batch.KeyObs, b), b
		default:
			return fmt.Errorf("an observation of type %T", obs)
		}
	}
	return errors.New("cannot copy the observation")
}
