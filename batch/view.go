package batch

import (
	"strings"

	"github.com/gorl/gorl/nd"
)

// The typed views (the package documentation's "Typed views" lists them)
// are structs embedding the *Batch and one part per group of keys; each
// part holds the same *Batch and gives the accessors of its keys.

// keyKind is what a view requires of a key's value.
type keyKind int

const (
	anyValue keyKind = iota
	arrayValue
	leafValue
)

type keySpec struct {
	key  string
	kind keyKind
}

var (
	obsKeys     = []keySpec{{KeyObs, anyValue}, {KeyInfo, anyValue}}
	actKeys     = []keySpec{{KeyAct, arrayValue}}
	stateKeys   = []keySpec{{KeyState, anyValue}}
	rolloutKeys = []keySpec{{KeyObsNext, anyValue}, {KeyRew, arrayValue}, {KeyTerminated, arrayValue}, {KeyTruncated, arrayValue}}
	returnsKeys = []keySpec{{KeyReturns, arrayValue}}
	advKeys     = []keySpec{{KeyAdv, arrayValue}, {KeyVS, arrayValue}}
	logpOldKeys = []keySpec{{KeyLogpOld, arrayValue}}
	logitsKeys  = []keySpec{{KeyLogits, anyValue}}
	distKeys    = []keySpec{{KeyDist, leafValue}}
	logProbKeys = []keySpec{{KeyLogProb, anyValue}}
	actStateAll = [][]keySpec{actKeys, stateKeys}
	rolloutAll  = [][]keySpec{obsKeys, actKeys, rolloutKeys}
	returnsAll  = [][]keySpec{obsKeys, actKeys, rolloutKeys, returnsKeys}
	advAll      = [][]keySpec{obsKeys, actKeys, rolloutKeys, returnsKeys, advKeys}
	logpOldAll  = [][]keySpec{obsKeys, actKeys, rolloutKeys, returnsKeys, advKeys, logpOldKeys}
	modelOutAll = [][]keySpec{actKeys, stateKeys, logitsKeys}
	distAll     = [][]keySpec{actKeys, stateKeys, logitsKeys, distKeys}
	distLogPAll = [][]keySpec{actKeys, stateKeys, logitsKeys, distKeys, logProbKeys}
)

// checkView returns an error wrapping ErrKey naming every key of specs
// that b lacks, or ErrType naming a key whose value is not of the required
// kind.
func checkView(name string, b *Batch, specs ...[]keySpec) error {
	var missing []string
	for _, group := range specs {
		for _, s := range group {
			if b.find(s.key) < 0 {
				missing = append(missing, s.key)
			}
		}
	}
	if len(missing) > 0 {
		return &Error{Kind: ErrKey, Msg: name + " view: missing keys " + strings.Join(missing, ", ")}
	}
	for _, group := range specs {
		for _, s := range group {
			v := b.ents[b.find(s.key)].val
			switch s.kind {
			case arrayValue:
				if _, ok := v.(*nd.Array); !ok {
					return &Error{Kind: ErrType, Path: s.key, Msg: name + " view: holds " + describe(v) + ", not an array"}
				}
			case leafValue:
				if _, ok := v.(Leaf); !ok {
					return &Error{Kind: ErrType, Path: s.key, Msg: name + " view: holds " + describe(v) + ", not a custom leaf"}
				}
			}
		}
	}
	return nil
}

func (b *Batch) value(key string) any {
	if i := b.find(key); i >= 0 {
		return b.ents[i].val
	}
	return nil
}

func (b *Batch) array(key string) *nd.Array {
	a, _ := b.value(key).(*nd.Array)
	return a
}

// obsPart gives the accessors of obs and info.
type obsPart struct{ b *Batch }

// Obs returns the observation of step t (an array, or a Batch for dict
// observations).
func (p obsPart) Obs() any { return p.b.value(KeyObs) }

// SetObs stores the observation (converted as New converts values).
func (p obsPart) SetObs(v any) error { return p.b.Set(KeyObs, v) }

// Info returns the info of step t.
func (p obsPart) Info() any { return p.b.value(KeyInfo) }

// SetInfo stores the info (converted as New converts values).
func (p obsPart) SetInfo(v any) error { return p.b.Set(KeyInfo, v) }

// actPart gives the accessors of act.
type actPart struct{ b *Batch }

// Act returns the action array.
func (p actPart) Act() *nd.Array { return p.b.array(KeyAct) }

// SetAct stores the action array.
func (p actPart) SetAct(a *nd.Array) { p.b.put(KeyAct, a) }

// statePart gives the accessors of state.
type statePart struct{ b *Batch }

// State returns the policy's hidden state (nil when it has none).
func (p statePart) State() any { return p.b.value(KeyState) }

// SetState stores the hidden state (converted as New converts values).
func (p statePart) SetState(v any) error { return p.b.Set(KeyState, v) }

// rolloutPart gives the accessors of obs_next, rew, terminated and
// truncated.
type rolloutPart struct{ b *Batch }

// ObsNext returns the observation of step t+1.
func (p rolloutPart) ObsNext() any { return p.b.value(KeyObsNext) }

// SetObsNext stores the next observation (converted as New converts
// values).
func (p rolloutPart) SetObsNext(v any) error { return p.b.Set(KeyObsNext, v) }

// Rew returns the reward array.
func (p rolloutPart) Rew() *nd.Array { return p.b.array(KeyRew) }

// SetRew stores the reward array.
func (p rolloutPart) SetRew(a *nd.Array) { p.b.put(KeyRew, a) }

// Terminated returns the terminated flags.
func (p rolloutPart) Terminated() *nd.Array { return p.b.array(KeyTerminated) }

// SetTerminated stores the terminated flags.
func (p rolloutPart) SetTerminated(a *nd.Array) { p.b.put(KeyTerminated, a) }

// Truncated returns the truncated flags.
func (p rolloutPart) Truncated() *nd.Array { return p.b.array(KeyTruncated) }

// SetTruncated stores the truncated flags.
func (p rolloutPart) SetTruncated(a *nd.Array) { p.b.put(KeyTruncated, a) }

// returnsPart gives the accessors of returns.
type returnsPart struct{ b *Batch }

// Returns returns the computed returns.
func (p returnsPart) Returns() *nd.Array { return p.b.array(KeyReturns) }

// SetReturns stores the returns.
func (p returnsPart) SetReturns(a *nd.Array) { p.b.put(KeyReturns, a) }

// advPart gives the accessors of adv and v_s.
type advPart struct{ b *Batch }

// Adv returns the advantages.
func (p advPart) Adv() *nd.Array { return p.b.array(KeyAdv) }

// SetAdv stores the advantages.
func (p advPart) SetAdv(a *nd.Array) { p.b.put(KeyAdv, a) }

// VS returns the state values V(s) (key v_s).
func (p advPart) VS() *nd.Array { return p.b.array(KeyVS) }

// SetVS stores the state values.
func (p advPart) SetVS(a *nd.Array) { p.b.put(KeyVS, a) }

// logpOldPart gives the accessors of logp_old.
type logpOldPart struct{ b *Batch }

// LogpOld returns the log-probabilities of the actions under the policy
// that collected them.
func (p logpOldPart) LogpOld() *nd.Array { return p.b.array(KeyLogpOld) }

// SetLogpOld stores the old log-probabilities.
func (p logpOldPart) SetLogpOld(a *nd.Array) { p.b.put(KeyLogpOld, a) }

// logitsPart gives the accessors of logits.
type logitsPart struct{ b *Batch }

// Logits returns the model's raw output (an array or a custom leaf such
// as an autodiff tensor).
func (p logitsPart) Logits() any { return p.b.value(KeyLogits) }

// SetLogits stores the logits (converted as New converts values).
func (p logitsPart) SetLogits(v any) error { return p.b.Set(KeyLogits, v) }

// distPart gives the accessors of dist.
type distPart struct{ b *Batch }

// Dist returns the action distribution.
func (p distPart) Dist() Leaf {
	l, _ := p.b.value(KeyDist).(Leaf)
	return l
}

// SetDist stores the action distribution.
func (p distPart) SetDist(l Leaf) { p.b.put(KeyDist, l) }

// logProbPart gives the accessors of log_prob.
type logProbPart struct{ b *Batch }

// LogProb returns the log-probabilities of the actions.
func (p logProbPart) LogProb() any { return p.b.value(KeyLogProb) }

// SetLogProb stores the log-probabilities (converted as New converts
// values).
func (p logProbPart) SetLogProb(v any) error { return p.b.Set(KeyLogProb, v) }

// Obs is a Batch with obs and info (ObsBatchProtocol).
type Obs struct {
	*Batch
	obsPart
}

// AsObs returns b as an Obs view, or an error wrapping ErrKey naming the
// missing keys.
func AsObs(b *Batch) (Obs, error) {
	if err := checkView("Obs", b, obsKeys); err != nil {
		return Obs{}, err
	}
	return Obs{b, obsPart{b}}, nil
}

// Act is a Batch with act (ActBatchProtocol).
type Act struct {
	*Batch
	actPart
}

// AsAct returns b as an Act view, or an error wrapping ErrKey naming the
// missing keys (ErrType if act is not an array).
func AsAct(b *Batch) (Act, error) {
	if err := checkView("Act", b, actKeys); err != nil {
		return Act{}, err
	}
	return Act{b, actPart{b}}, nil
}

// ActState is a Batch with act and state (ActStateBatchProtocol).
type ActState struct {
	*Batch
	actPart
	statePart
}

// AsActState returns b as an ActState view; see AsAct for the errors.
func AsActState(b *Batch) (ActState, error) {
	if err := checkView("ActState", b, actStateAll...); err != nil {
		return ActState{}, err
	}
	return ActState{b, actPart{b}, statePart{b}}, nil
}

// Rollout is a Batch with obs, obs_next, act, rew, terminated, truncated
// and info (RolloutBatchProtocol): the transitions collectors store and
// buffers return.
type Rollout struct {
	*Batch
	obsPart
	actPart
	rolloutPart
}

// AsRollout returns b as a Rollout view; see AsAct for the errors.
func AsRollout(b *Batch) (Rollout, error) {
	if err := checkView("Rollout", b, rolloutAll...); err != nil {
		return Rollout{}, err
	}
	return Rollout{b, obsPart{b}, actPart{b}, rolloutPart{b}}, nil
}

// WithReturns is a Rollout with returns (BatchWithReturnsProtocol).
type WithReturns struct {
	*Batch
	obsPart
	actPart
	rolloutPart
	returnsPart
}

// AsWithReturns returns b as a WithReturns view; see AsAct for the errors.
func AsWithReturns(b *Batch) (WithReturns, error) {
	if err := checkView("WithReturns", b, returnsAll...); err != nil {
		return WithReturns{}, err
	}
	return WithReturns{b, obsPart{b}, actPart{b}, rolloutPart{b}, returnsPart{b}}, nil
}

// WithAdvantages is a WithReturns with adv and v_s
// (BatchWithAdvantagesProtocol).
type WithAdvantages struct {
	*Batch
	obsPart
	actPart
	rolloutPart
	returnsPart
	advPart
}

// AsWithAdvantages returns b as a WithAdvantages view; see AsAct for the
// errors.
func AsWithAdvantages(b *Batch) (WithAdvantages, error) {
	if err := checkView("WithAdvantages", b, advAll...); err != nil {
		return WithAdvantages{}, err
	}
	return WithAdvantages{b, obsPart{b}, actPart{b}, rolloutPart{b}, returnsPart{b}, advPart{b}}, nil
}

// LogpOld is a WithAdvantages with logp_old (LogpOldProtocol), what PPO
// updates on.
type LogpOld struct {
	*Batch
	obsPart
	actPart
	rolloutPart
	returnsPart
	advPart
	logpOldPart
}

// AsLogpOld returns b as a LogpOld view; see AsAct for the errors.
func AsLogpOld(b *Batch) (LogpOld, error) {
	if err := checkView("LogpOld", b, logpOldAll...); err != nil {
		return LogpOld{}, err
	}
	return LogpOld{b, obsPart{b}, actPart{b}, rolloutPart{b}, returnsPart{b}, advPart{b}, logpOldPart{b}}, nil
}

// ModelOutput is an ActState with logits (ModelOutputBatchProtocol).
type ModelOutput struct {
	*Batch
	actPart
	statePart
	logitsPart
}

// AsModelOutput returns b as a ModelOutput view; see AsAct for the errors.
func AsModelOutput(b *Batch) (ModelOutput, error) {
	if err := checkView("ModelOutput", b, modelOutAll...); err != nil {
		return ModelOutput{}, err
	}
	return ModelOutput{b, actPart{b}, statePart{b}, logitsPart{b}}, nil
}

// Dist is a ModelOutput with dist (DistBatchProtocol).
type Dist struct {
	*Batch
	actPart
	statePart
	logitsPart
	distPart
}

// AsDist returns b as a Dist view; see AsAct for the errors (ErrType also
// if dist is not a custom Leaf).
func AsDist(b *Batch) (Dist, error) {
	if err := checkView("Dist", b, distAll...); err != nil {
		return Dist{}, err
	}
	return Dist{b, actPart{b}, statePart{b}, logitsPart{b}, distPart{b}}, nil
}

// DistLogProb is a Dist with log_prob (DistLogProbBatchProtocol).
type DistLogProb struct {
	*Batch
	actPart
	statePart
	logitsPart
	distPart
	logProbPart
}

// AsDistLogProb returns b as a DistLogProb view; see AsDist for the errors.
func AsDistLogProb(b *Batch) (DistLogProb, error) {
	if err := checkView("DistLogProb", b, distLogPAll...); err != nil {
		return DistLogProb{}, err
	}
	return DistLogProb{b, actPart{b}, statePart{b}, logitsPart{b}, distPart{b}, logProbPart{b}}, nil
}
