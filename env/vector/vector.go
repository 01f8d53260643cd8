package vector

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math/rand/v2"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Env runs several envs of the same spaces side by side, Tianshou's
// BaseVectorEnv. Envs are addressed by their index in [0, Len()), their
// id; a nil ids slice means every env, in order. Envs are never reset
// automatically: the caller resets those whose episode ended, so the last
// observation of an episode is returned as it is.
//
// The *Result of a call is storage the vector env owns and reuses: it is
// valid until the next call of any method. A vector env is not safe for
// concurrent use (Async runs its envs concurrently, but is driven by one
// goroutine).
//
// Using ids out of range or repeated in one call, sending to an env that is
// still running, waiting when no env runs, and any call after Close are
// programmer errors: they panic with an error wrapping ErrID, ErrBusy,
// ErrNotRunning or ErrClosed.
type Env interface {
	// Len returns the number of envs.
	Len() int
	// ObservationSpace returns the observation space shared by the envs.
	ObservationSpace() env.Space
	// ActionSpace returns the action space shared by the envs.
	ActionSpace() env.Space

	// Reset resets the envs ids, env ids[j] with seeds[j] (seeds may be
	// nil: no seeds), and returns their first observations in that order.
	Reset(ctx context.Context, ids []int, seeds []env.Seed) (*Result, error)
	// Step steps the envs ids, env ids[j] with row j of actions (an
	// *nd.Array of shape [len(ids), action shape…], or a *batch.Batch of
	// such arrays for Dict and Tuple spaces), and returns their results in
	// that order.
	Step(ctx context.Context, ids []int, actions any) (*Result, error)

	// Send starts stepping the envs ids with the rows of actions (copied
	// before Send returns) and returns without waiting: Tianshou's step
	// of an async vector env. Their results come from Recv.
	Send(ids []int, actions any) error
	// Recv waits until waitNum of the envs started by Send have finished
	// (all of them when waitNum ≤ 0 or exceeds their number) and returns
	// those results in the order they finished, Tianshou's wait_num. When
	// ctx is done first, it returns the results of the envs that have
	// finished by then, or, if none has, a nil Result and ctx's error:
	// Tianshou's timeout. Envs not received stay running.
	Recv(ctx context.Context, waitNum int) (*Result, error)
	// Running returns the number of envs started by Send and not yet
	// returned by Recv.
	Running() int

	// Render returns the frames of the envs ids (env.Render of each); the
	// frames may be owned by the envs and redrawn by their next call.
	Render(ids []int) ([]image.Image, error)
	// MarshalState returns the saved states of every env (env.MarshalState
	// of each); no env may be running.
	MarshalState() ([]byte, error)
	// UnmarshalState restores states MarshalState returned, all or none:
	// if an env rejects its state, the envs restored before it are put
	// back as they were. No env may be running.
	UnmarshalState(data []byte) error

	// Close closes every env, waiting for running ones first. Calling it
	// more than once is allowed; later calls return nil.
	Close() error
}

// Result holds the results of the envs that answered a call, row j for env
// IDs[j]. Its slices and arrays are owned by the vector env and valid until
// its next call; Reset fills Rewards, Terminated and Truncated with zeros.
type Result struct {
	IDs        []int      // env ids, one per row
	Obs        any        // *nd.Array [len(IDs), obs shape…], or *batch.Batch for Dict and Tuple spaces
	Rewards    []float64  // rewards
	Terminated []bool     // terminated flags
	Truncated  []bool     // truncated flags
	Infos      []env.Info // the envs' Infos (owned by the envs)
}

// Len returns the number of rows.
func (r *Result) Len() int { return len(r.IDs) }

// Programmer errors, wrapped by the values vector envs panic with.
var (
	// ErrID: an env id out of range, or repeated in one call.
	ErrID = errors.New("vector: bad env id")
	// ErrBusy: a call for an env that is still running after Send.
	ErrBusy = errors.New("vector: env is running")
	// ErrNotRunning: Recv when no env has been sent.
	ErrNotRunning = errors.New("vector: no env is running")
	// ErrClosed: a call after Close.
	ErrClosed = errors.New("vector: use after Close")
)

// Errors of the envs' results and of envs that do not return, tested with
// errors.Is. After ErrStepTimeout the vector env is unusable: every later
// call but Close returns the same error.
var (
	// ErrStepTimeout is wrapped by the error of a call in which an env's
	// Reset, Step or Render ran longer than Config.StepTimeout.
	ErrStepTimeout = errors.New("vector: env did not return in time")
	// ErrNonFinite is wrapped by the error of a call in which an env
	// returned a NaN or infinite reward or observation element, unless
	// Config.AllowNonFinite is set.
	ErrNonFinite = errors.New("vector: non-finite value")
)

// Config configures the vector env New makes. The zero Config is what
// NewSync and NewAsync use: sequential, no step timeout, non-finite values
// refused.
type Config struct {
	// Async runs each env in a goroutine of its own (Async) instead of one
	// after the other in the caller's goroutine (Sync).
	Async bool `json:"async"`
	// StepTimeout bounds every call of an env's Reset, Step and Render;
	// zero means no bound. An env that runs longer fails the call with an
	// error wrapping ErrStepTimeout that names the env and its step. Go
	// cannot stop a goroutine: the env's call is abandoned where it is,
	// still running, the vector env is unusable from then on (every later
	// call but Close returns the error), and Close does not close that env
	// or wait for it. With a timeout, Sync runs its envs' calls in one
	// goroutine of its own, so that it can stop waiting.
	StepTimeout time.Duration `json:"step_timeout"`
	// AllowNonFinite accepts NaN and ±Inf rewards and floating-point
	// observation elements. By default they fail the call with an error
	// wrapping ErrNonFinite that names the env and its step.
	AllowNonFinite bool `json:"allow_non_finite"`
}

// Validate returns an error for a negative StepTimeout.
func (c Config) Validate() error {
	if c.StepTimeout < 0 {
		return fmt.Errorf("vector: negative step_timeout %v", c.StepTimeout)
	}
	return nil
}

// New returns a Sync or, with cfg.Async, an Async running envs, configured
// by cfg. It owns the envs from then on. It returns an error for an
// invalid cfg, no env, or envs whose spaces differ.
func New(envs []env.Env, cfg Config) (Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Async {
		return newAsync(envs, cfg)
	}
	return newSync(envs, cfg)
}

// ErrPartialRestore is wrapped by the error of UnmarshalState in the
// unlikely case that an env rejects its state and an env restored before it
// then rejects the state it had: the vector env holds a mix of states.
var ErrPartialRestore = errors.New("vector: state partly restored")

// PanicError is the error a vector env returns when an env panics: the
// panic is recovered in the goroutine that ran the env, and the vector env
// stays usable.
type PanicError struct {
	Env   int    // id of the env that panicked
	Value any    // the value it panicked with
	Stack []byte // the stack of the panicking goroutine
}

// Error returns "env <id>: panic: <value>".
func (e *PanicError) Error() string { return fmt.Sprintf("env %d: panic: %v", e.Env, e.Value) }

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// envError names the env in err.
func envError(id int, err error) error { return fmt.Errorf("env %d: %w", id, err) }

// timeoutError is the error of env id's call of kind that ran past d.
func (c *common) timeoutError(id int, kind commandKind, d time.Duration) error {
	return fmt.Errorf("env %d: %s did not return within %v (the vector env is unusable from now on): %w",
		id, c.callName(id, kind), d, ErrStepTimeout)
}

// callName names env id's call of kind for an error.
func (c *common) callName(id int, kind commandKind) string {
	switch kind {
	case cmdReset:
		return "reset"
	case cmdRender:
		return "render"
	}
	return c.stepName(id)
}

// stepName names env id's current step: its number in the episode and in
// the env's life.
func (c *common) stepName(id int) string {
	return fmt.Sprintf("step %d of the episode (%d in all)", c.epStep[id], c.total[id])
}

// rows is preallocated storage for n stacked values of one space, with a
// view of every prefix.
type rows struct {
	arr    *nd.Array
	bat    *batch.Batch
	prefix []any // prefix[k] = storage[:k]
	shape  []int // value shape, for arrays
	floats []floatLeaf
}

// floatLeaf is a floating-point array of the storage, [n, row…], with its
// key path ("" for an array space), for the non-finite check.
type floatLeaf struct {
	path string
	f32  []float32
	f64  []float64
	row  int // elements per row
}

// addFloats records a if it holds floating-point values.
func (r *rows) addFloats(path string, a *nd.Array) {
	l := floatLeaf{path: path}
	switch a.DType() {
	case nd.Float32:
		l.f32 = nd.Data[float32](a)
	case nd.Float64:
		l.f64 = nd.Data[float64](a)
	default:
		return
	}
	if a.Dim(0) > 0 {
		l.row = a.Size() / a.Dim(0)
	}
	r.floats = append(r.floats, l)
}

// addBatchFloats records the floating-point arrays of b, recursively.
func (r *rows) addBatchFloats(prefix string, b *batch.Batch) {
	for key, v := range b.Items() {
		switch x := v.(type) {
		case *nd.Array:
			r.addFloats(prefix+key, x)
		case *batch.Batch:
			r.addBatchFloats(prefix+key+batch.Sep, x)
		}
	}
}

// nonFinite returns the first NaN or infinite element of row i: its key
// path, its index in the row and its value, and whether there is one.
func (r *rows) nonFinite(i int) (string, int, float64, bool) {
	for _, l := range r.floats {
		if l.f32 != nil {
			for k, v := range l.f32[i*l.row : (i+1)*l.row] {
				if v-v != 0 { // NaN or ±Inf
					return l.path, k, float64(v), true
				}
			}
			continue
		}
		for k, v := range l.f64[i*l.row : (i+1)*l.row] {
			if v-v != 0 {
				return l.path, k, v, true
			}
		}
	}
	return "", 0, 0, false
}

// newRows allocates the storage from a sample of the space, which gives
// the value's structure and dtypes.
func newRows(space env.Space, n int) (*rows, error) {
	r := &rows{}
	switch v := space.Sample(rand.New(rand.NewPCG(0, 0))).(type) {
	case *nd.Array:
		r.shape = v.Shape()
		r.arr = nd.Zeros(v.DType(), append([]int{n}, r.shape...)...)
		for k := 0; k <= n; k++ {
			r.prefix = append(r.prefix, r.arr.Index(nd.To(k)))
		}
		r.addFloats("", r.arr)
	case *batch.Batch:
		r.bat = batch.ZerosStacked(v, n)
		for k := 0; k <= n; k++ {
			r.prefix = append(r.prefix, r.bat.Index(nd.To(k)))
		}
		r.addBatchFloats("", r.bat)
	default:
		return nil, fmt.Errorf("vector: %v samples a %T, not an *nd.Array or *batch.Batch", space, v)
	}
	return r, nil
}

// set copies v into row i.
func (r *rows) set(i int, v any) error {
	if r.arr != nil {
		a, ok := v.(*nd.Array)
		if !ok {
			return fmt.Errorf("vector: the env returned a %T, not an *nd.Array", v)
		}
		return r.arr.SetRow(i, a)
	}
	b, ok := v.(*batch.Batch)
	if !ok {
		return fmt.Errorf("vector: the env returned a %T, not a *batch.Batch", v)
	}
	return r.bat.SetRow(i, b)
}

// actionSlot holds one env's action: buf has one row, view is buf[0], the
// value passed to the env.
type actionSlot struct {
	buf  *rows
	view any
}

func newActionSlot(space env.Space) (actionSlot, error) {
	r, err := newRows(space, 1)
	if err != nil {
		return actionSlot{}, err
	}
	s := actionSlot{buf: r}
	if r.arr != nil {
		s.view = r.arr.Index(nd.I(0))
	} else {
		s.view = r.bat.Index(nd.I(0))
	}
	return s, nil
}

// load copies row j of actions, selected by rowIdx = []int{j}, into the
// slot. Actions of the space's dtype are copied without allocating; others
// are cast under nd's "same_kind" rule through a row view.
func (s *actionSlot) load(actions any, j int, rowIdx []int) error {
	if s.buf.arr == nil {
		b, ok := actions.(*batch.Batch)
		if !ok {
			return fmt.Errorf("%w: vector: actions are a %T, not a *batch.Batch", env.ErrAction, actions)
		}
		batch.TakeTo(s.buf.bat, b, rowIdx)
		return nil
	}
	a := actions.(*nd.Array) // checked by checkActions
	if a.DType() == s.buf.arr.DType() {
		nd.TakeTo(s.buf.arr, a, rowIdx)
		return nil
	}
	if err := nd.CopyTo(s.view.(*nd.Array), a.Index(nd.I(j))); err != nil {
		return fmt.Errorf("%w: vector: %w", env.ErrAction, err)
	}
	return nil
}

// checkActions returns an error unless actions hold n rows of values of
// the slot's shape.
func checkActions(slot *actionSlot, actions any, n int) error {
	if slot.buf.arr == nil {
		b, ok := actions.(*batch.Batch)
		if !ok {
			return fmt.Errorf("%w: vector: actions are a %T, not a *batch.Batch", env.ErrAction, actions)
		}
		if l, err := b.Len(); err != nil || l != n {
			return fmt.Errorf("%w: vector: a Batch of actions of length %d (%v) for %d envs", env.ErrAction, l, err, n)
		}
		return nil
	}
	a, ok := actions.(*nd.Array)
	if !ok {
		return fmt.Errorf("%w: vector: actions are a %T, not an *nd.Array", env.ErrAction, actions)
	}
	fits := a.Ndim() == 1+len(slot.buf.shape) && a.Dim(0) == n
	for i, d := range slot.buf.shape {
		fits = fits && a.Dim(i+1) == d
	}
	if !fits {
		return fmt.Errorf("%w: vector: actions of shape %v for %d envs with values of shape %v",
			env.ErrAction, a.Shape(), n, slot.buf.shape)
	}
	return nil
}

// common is what Sync and Async share: the envs, their spaces, the result
// storage and the bookkeeping of ids.
type common struct {
	envs     []env.Env
	obsSpace env.Space
	actSpace env.Space
	all      []int   // 0, 1, …, n−1
	rowIdx   [][]int // rowIdx[j] = []int{j}
	acts     []actionSlot
	obs      *rows
	res      Result
	full     Result // the storage res is a prefix of
	mark     []uint64
	gen      uint64
	closed   bool

	cfg    Config
	epStep []int   // steps of each env since its last reset
	total  []int64 // steps of each env since the vector env was made
	stuck  []bool  // envs whose call ran past the timeout, abandoned
	broken error   // the timeout error, returned by every later call
}

func newCommon(envs []env.Env, cfg Config) (*common, error) {
	if len(envs) == 0 {
		return nil, errors.New("vector: no envs")
	}
	c := &common{envs: envs, obsSpace: envs[0].ObservationSpace(), actSpace: envs[0].ActionSpace(), cfg: cfg,
		epStep: make([]int, len(envs)), total: make([]int64, len(envs)), stuck: make([]bool, len(envs))}
	for i, e := range envs {
		if !e.ObservationSpace().Equal(c.obsSpace) || !e.ActionSpace().Equal(c.actSpace) {
			return nil, fmt.Errorf("vector: env %d has spaces %v and %v, env 0 %v and %v",
				i, e.ObservationSpace(), e.ActionSpace(), c.obsSpace, c.actSpace)
		}
	}
	n := len(envs)
	var err error
	if c.obs, err = newRows(c.obsSpace, n); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		c.all = append(c.all, i)
		c.rowIdx = append(c.rowIdx, []int{i})
		slot, err := newActionSlot(c.actSpace)
		if err != nil {
			return nil, err
		}
		c.acts = append(c.acts, slot)
	}
	c.full = Result{IDs: make([]int, n), Rewards: make([]float64, n), Terminated: make([]bool, n),
		Truncated: make([]bool, n), Infos: make([]env.Info, n)}
	c.mark = make([]uint64, n)
	return c, nil
}

// Len returns the number of envs.
func (c *common) Len() int { return len(c.envs) }

// ObservationSpace returns the envs' observation space.
func (c *common) ObservationSpace() env.Space { return c.obsSpace }

// ActionSpace returns the envs' action space.
func (c *common) ActionSpace() env.Space { return c.actSpace }

// checkOpen panics after Close.
func (c *common) checkOpen(method string) {
	if c.closed {
		panic(fmt.Errorf("%w: %s", ErrClosed, method))
	}
}

// ids returns the ids of a call (every env for nil), after checking that
// they are in range and distinct.
func (c *common) ids(ids []int) []int {
	if ids == nil {
		return c.all
	}
	c.gen++
	for _, id := range ids {
		if uint(id) >= uint(len(c.envs)) {
			panic(fmt.Errorf("%w: %d with %d envs", ErrID, id, len(c.envs)))
		}
		if c.mark[id] == c.gen {
			panic(fmt.Errorf("%w: %d repeated", ErrID, id))
		}
		c.mark[id] = c.gen
	}
	return ids
}

// counted notes the start of a call of kind by env id in the step counts.
func (c *common) counted(id int, kind commandKind) {
	switch kind {
	case cmdStep:
		c.epStep[id]++
		c.total[id]++
	case cmdReset:
		c.epStep[id] = 0
	}
}

// record stores one env's result in row j. Unless the config allows them,
// a NaN or infinite reward or observation element is an error.
func (c *common) record(j, id int, obs any, r float64, term, trunc bool, info env.Info) error {
	if err := c.obs.set(j, obs); err != nil {
		return envError(id, err)
	}
	if !c.cfg.AllowNonFinite {
		if r-r != 0 {
			return fmt.Errorf("env %d: %s: reward %v: %w", id, c.stepName(id), r, ErrNonFinite)
		}
		if path, k, v, bad := c.obs.nonFinite(j); bad {
			what := "reset"
			if c.epStep[id] > 0 {
				what = c.stepName(id)
			}
			if path != "" {
				path = " " + path
			}
			return fmt.Errorf("env %d: %s: observation%s element %d is %v: %w", id, what, path, k, v, ErrNonFinite)
		}
	}
	c.full.IDs[j], c.full.Rewards[j], c.full.Terminated[j], c.full.Truncated[j], c.full.Infos[j] = id, r, term, trunc, info
	return nil
}

// usable returns the error that made the vector env unusable, or nil.
func (c *common) usable() error { return c.broken }

// result returns the first k rows of the storage as the Result.
func (c *common) result(k int) *Result {
	c.res = Result{IDs: c.full.IDs[:k], Obs: c.obs.prefix[k], Rewards: c.full.Rewards[:k],
		Terminated: c.full.Terminated[:k], Truncated: c.full.Truncated[:k], Infos: c.full.Infos[:k]}
	return &c.res
}

// marshalStates encodes the envs' states, each length-prefixed, after a
// version tag.
func (c *common) marshalStates() ([]byte, error) {
	b := append([]byte(nil), stateTag...)
	b = binary.AppendUvarint(b, uint64(len(c.envs)))
	for i, e := range c.envs {
		s, err := env.MarshalState(e)
		if err != nil {
			return nil, envError(i, err)
		}
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b, nil
}

// splitStates decodes what marshalStates encoded into one state per env.
func (c *common) splitStates(data []byte) ([][]byte, error) {
	bad := func(what string) error { return fmt.Errorf("%w: vector state: %s", env.ErrState, what) }
	if len(data) < len(stateTag) || string(data[:len(stateTag)]) != stateTag {
		return nil, bad("missing tag")
	}
	data = data[len(stateTag):]
	n, k := binary.Uvarint(data)
	if k <= 0 || n != uint64(len(c.envs)) {
		return nil, bad(fmt.Sprintf("states of %d envs for %d", n, len(c.envs)))
	}
	data = data[k:]
	states := make([][]byte, len(c.envs))
	for i := range states {
		l, k := binary.Uvarint(data)
		if k <= 0 || l > uint64(len(data)-k) {
			return nil, bad(fmt.Sprintf("truncated state of env %d", i))
		}
		states[i], data = data[k:k+int(l)], data[k+int(l):]
	}
	if len(data) != 0 {
		return nil, bad("trailing bytes")
	}
	return states, nil
}

// restore restores the envs' states; if one fails, those restored before
// it get their previous states back.
func (c *common) restore(states [][]byte) error {
	before, err := c.marshalStates()
	if err != nil {
		return err
	}
	old, err := c.splitStates(before)
	if err != nil {
		return err
	}
	for i, e := range c.envs {
		if err := env.UnmarshalState(e, states[i]); err != nil {
			for k := 0; k < i; k++ {
				if rerr := env.UnmarshalState(c.envs[k], old[k]); rerr != nil {
					return envError(k, fmt.Errorf("%w: %w (after env %d failed: %w)", ErrPartialRestore, rerr, i, err))
				}
			}
			return envError(i, err)
		}
	}
	return nil
}

const stateTag = "vector/1"
