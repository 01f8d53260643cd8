package policy

import (
	"errors"
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Policy maps observations to actions, Tianshou's Policy. It only acts:
// optimizers, target networks and updates belong to the algorithm that owns
// the policy. Every Policy satisfies collector.Policy, so a collector runs it
// in vector envs.
//
// A policy is driven by one goroutine at a time and keeps the memory of its
// last call (a no-grad tape, the action arrays), so acting does not allocate.
type Policy interface {
	// Params returns the parameters the policy acts with: the networks a
	// best-policy file holds.
	nn.Module

	// Act computes actions for a batch of k observations, Tianshou's
	// forward followed, when explore is true, by add_exploration_noise.
	//
	// obs holds "obs", k observations stacked along a leading axis (an
	// *nd.Array, or a *batch.Batch of arrays for Dict spaces), and
	// optionally "info"; state is the hidden state Act wrote under "state"
	// for the same rows at the previous step (nil at the start, and for
	// policies without one).
	//
	// Act writes into dst, reusing the arrays it finds there: "act", the k
	// actions in the policy's form (int64 [k] for a Discrete space,
	// float32 [k, …] for a Box; an ActionMapper turns them into env
	// actions); "state" for recurrent policies; "policy", a Batch of
	// per-row data to store with the transitions. What it writes stays
	// valid until the next call.
	//
	// Whether the action is sampled from the policy's distribution or is
	// the most likely one follows the training-step flag (SetTrainingStep);
	// explore adds exploration noise (ε-greedy for Q-learning, whose ε
	// also follows the flag). Act returns an error wrapping ErrObs for
	// observations the network cannot take, and errors of the network's
	// output (a distribution with NaN parameters).
	Act(dst, obs *batch.Batch, state any, explore bool) error

	// SetTrainingStep sets the training-step flag (Tianshou's
	// is_within_training_step): true while collecting training data, false
	// when testing or deploying. It is not the networks' training mode
	// (nn.SetTraining).
	SetTrainingStep(on bool)
	// TrainingStep reports the training-step flag.
	TrainingStep() bool

	// ActionSpace returns the env action space the policy acts in.
	ActionSpace() env.Space
}

// ActionMapper is implemented by policies whose actions differ from the env's
// (Tianshou's map_action and map_action_inverse): actions in [−1, 1] for a
// Box with other bounds, or actions that must be clipped. It has the method
// set of collector.ActionMapper, so collectors map the actions of such
// policies.
type ActionMapper interface {
	// MapActionTo writes into env the env actions for the policy's
	// actions act. Both have shape [k, action shape…].
	MapActionTo(env, act *nd.Array) error
	// UnmapActionTo writes into act the policy actions for the env
	// actions env, the inverse of MapActionTo where it has one.
	UnmapActionTo(act, env *nd.Array) error
}

// Errors of package policy, wrapped with details; test with errors.Is.
var (
	// ErrObs: an observation batch without "obs", or with observations the
	// network cannot take (another shape, a non-numeric dtype).
	ErrObs = errors.New("policy: bad observation")
	// ErrAction: actions that do not fit the action space or the mapping
	// (another shape or dtype).
	ErrAction = errors.New("policy: bad action")
	// ErrConfig: an invalid configuration (ε outside [0, 1], an
	// unsupported action space, an unknown bound mode).
	ErrConfig = errors.New("policy: invalid configuration")
)

// ComputeAction returns the env action for one observation obs (an
// *nd.Array of the observation space, or a *batch.Batch for Dict spaces),
// Tianshou's compute_action: obs gets a batch axis of length 1, the policy
// acts on it without hidden state and without exploration noise (most likely
// action when the training-step flag is off), an ActionMapper maps the
// action, and the result comes without the batch axis (a 0-d int64 array
// for a Discrete space).
//
// ComputeAction allocates (the batch around obs and the result): use it
// for inference one observation at a time; collectors act on batches. It
// returns Act's and MapActionTo's errors, and an error wrapping ErrObs if
// obs is neither an *nd.Array nor a *batch.Batch.
func ComputeAction(p Policy, obs any) (*nd.Array, error) {
	var in any
	switch o := obs.(type) {
	case *nd.Array:
		in = o.Index(nd.NewAxis())
	case *batch.Batch:
		in = o.Index(nd.NewAxis())
	default:
		return nil, fmt.Errorf("%w: ComputeAction of a %T", ErrObs, obs)
	}
	b, err := batch.New(batch.KeyObs, in)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrObs, err)
	}
	out := &batch.Batch{}
	if err := p.Act(out, b, nil, false); err != nil {
		return nil, err
	}
	act, err := out.Array(batch.KeyAct)
	if err != nil {
		return nil, fmt.Errorf("%w: no act array: %w", ErrAction, err)
	}
	if m, ok := p.(ActionMapper); ok {
		sp := p.ActionSpace()
		mapped := nd.Zeros(sp.DType(), append([]int{1}, sp.Shape()...)...)
		if err := m.MapActionTo(mapped, act); err != nil {
			return nil, err
		}
		act = mapped
	}
	return act.Index(nd.I(0)).Copy(), nil
}

// ObsNet adapts a Layer whose input is the observation array to nn.Model:
// its single input is "obs". Policies call their networks through nn.Caller,
// which feeds float32 arrays without copying.
type ObsNet struct {
	nn.Layer
}

var obsInputs = []string{batch.KeyObs}

// Inputs returns ["obs"] (the same slice every call).
func (ObsNet) Inputs() []string { return obsInputs }

// Call returns the layer's output for in[0].
func (n ObsNet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	return n.Layer.Forward(tp, in[0])
}

// DiscreteActTo returns the k int64 actions under "act" in dst, for a
// policy of a Discrete space to write its actions into (the space's start
// added). They are the data of the array dst holds under "act" if it is a
// contiguous int64 array of shape [k], as after the previous call, so that
// acting does not allocate; otherwise DiscreteActTo stores a new zeroed
// array [k] there first. DiscreteActTo panics if k is negative.
func DiscreteActTo(dst *batch.Batch, k int) []int64 {
	return nd.Data[int64](actArray(dst, nd.Int64, k))
}

// BoxActTo returns the float32 actions [k, m] under "act" in dst (k·m
// values, row-major), for a policy of a Box of shape [m] to write its
// actions into. Like DiscreteActTo, it reuses the array dst holds under
// "act" if it is contiguous and of that dtype and shape, and otherwise
// stores a new zeroed one first. BoxActTo panics if k or m is negative.
func BoxActTo(dst *batch.Batch, k, m int) []float32 {
	return nd.Data[float32](actArray(dst, nd.Float32, k, m))
}

// MultiDiscreteActTo returns the int64 actions [k, m] under "act" in dst,
// for a policy of a MultiDiscrete space of shape [m] to write its actions
// into, reusing the array there as BoxActTo does. It panics if k or m is
// negative.
func MultiDiscreteActTo(dst *batch.Batch, k, m int) []int64 {
	return nd.Data[int64](actArray(dst, nd.Int64, k, m))
}

// actArray returns the array stored under "act" in dst if it is a
// contiguous array of dtype dt and the given shape, and otherwise a new one,
// stored there.
func actArray(dst *batch.Batch, dt nd.DType, shape ...int) *nd.Array {
	if v, ok := dst.Get(batch.KeyAct); ok {
		if a, ok := v.(*nd.Array); ok && a.DType() == dt && a.IsContiguous() && a.Ndim() == len(shape) {
			same := true
			for i, d := range shape {
				same = same && a.Dim(i) == d
			}
			if same {
				return a
			}
		}
	}
	a := nd.Zeros(dt, shape...)
	if err := dst.Set(batch.KeyAct, a); err != nil {
		panic(err) // "act" is a valid key and an array a valid value
	}
	return a
}
