package collector

import (
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// Policy is what a collector needs from a policy: actions for the
// observations of a batch of envs, with an optional hidden state. Packages
// that define policies implement it; the collector does not import them.
type Policy interface {
	// Act chooses the actions of k envs.
	//
	// obs holds "obs", the envs' observations stacked along a leading axis
	// of k rows (an *nd.Array, or a *batch.Batch for Dict and Tuple
	// spaces), and "info", their latest Infos as a Batch of k rows, with
	// "env_id" holding each env's id as in Tianshou: the
	// Batch(obs=…, info=…) Tianshou's collector passes to forward. state is
	// the hidden state Act last returned for these envs, k rows, with the
	// rows of envs whose episode has just begun set to zero; it is nil until
	// Act has returned one. explore is the collector's Config.Explore: true
	// when collecting training data (exploration noise, ε-greedy, sampling
	// from an action distribution), false when evaluating.
	//
	// Act sets in dst:
	//   - "act": the actions, an *nd.Array of shape [k, action shape…] (a
	//     *batch.Batch of such arrays for Dict and Tuple action spaces),
	//     stored in the buffer and sent to the envs (through MapActionTo
	//     when the policy is an ActionMapper); an array should have the
	//     action space's dtype, since the vector env casts any other dtype
	//     with an allocation per env;
	//   - "state" (optional): the new hidden state, k rows, an *nd.Array or
	//     a *batch.Batch of arrays;
	//   - "policy" (optional): a *batch.Batch of k rows stored in the buffer
	//     under "policy" (Tianshou's policy data, such as log-probabilities
	//     or values).
	//
	// dst is the same Batch on every call with k rows and keeps what Act
	// put in it, so that a policy can reuse the arrays it finds there and
	// act without allocating; a key once set must be set on every call.
	// The collector reads dst after Act returns and does not write into it.
	// obs and state belong to the collector and are valid during the call
	// only: Act must not keep or modify them. An error from Act ends the
	// collection and is returned, wrapped.
	Act(dst, obs *batch.Batch, state any, explore bool) error
}

// ActionMapper is implemented by policies whose actions are stored in one
// form and sent to the envs in another, Tianshou's map_action and
// map_action_inverse: a policy whose network outputs actions in [−1, 1]
// that the env expects in its Box bounds, say. Collectors use it for array
// action spaces only.
type ActionMapper interface {
	// MapActionTo writes into env the env actions for the policy's
	// actions act (the "act" Act set). env is an array of the action
	// space's dtype and shape [k, action shape…].
	MapActionTo(env, act *nd.Array) error
	// UnmapActionTo writes into act the policy actions for the env
	// actions env, the inverse of MapActionTo. Random collection samples
	// env actions from the action space and stores the unmapped ones, so
	// that the buffer holds actions in one form. act is an array of the
	// action space's dtype and shape [k, action shape…].
	UnmapActionTo(act, env *nd.Array) error
}
