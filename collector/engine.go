package collector

import (
	"context"
	"fmt"
	"image"
	"math/rand/v2"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
)

// engine is what Collector and AsyncCollector share: the per-env state
// (last observation and Info, hidden state, running episode statistics),
// acting, storing a vector step's transitions and resetting envs.
type engine struct {
	venv     vector.Env
	n        int
	actSpace env.Space
	policy   Policy
	mapper   ActionMapper
	buf      Buffer
	explore  bool
	rng      *rand.Rand
	onStep   func(StepEvent)
	onEp     func(EpisodeEvent)
	onFrame  func(int, image.Image)

	all []int // 0, 1, …, n−1

	// Per env, by env id.
	obs    *table     // last observation
	infos  []env.Info // last Info (owned by the env, valid until its next call)
	hidden *table     // hidden state; nil until the policy returns one
	epRet  []float64  // return of the episode in progress
	epLen  []int      // its length
	// ready is false until the envs have been reset, and after an error
	// that left the envs out of step with the per-env state.
	ready bool

	// Scratch, reused by every vector step.
	obsRows  *table // observations gathered for a subset of envs
	hidRows  *table // hidden states gathered for a subset of envs
	envAct   *table // sampled or mapped env actions
	unmapped *table // policy-form actions of random steps (with an ActionMapper)
	rew      *table // [n] float64
	term     *table // [n] bool
	trunc    *table // [n] bool
	infoIn   *infoTable
	infoStep *infoTable
	infoRows []env.Info
	disc     *env.Discrete  // the action space if Discrete, for action masks
	mask     env.ActionMask // masks of the observations acted on
	ins      []*slots       // ins[k]: the policy's input for k envs
	outs     []*batch.Batch // outs[k]: the policy's dst for k envs
	trans    []*slots       // trans[k]: the transitions of k envs
	pols     []*batch.Batch // pols[k]: policy data with hidden_state for k envs
	reserved *batch.Batch   // an empty Batch: a reserved key
	steps    []buffer.Step
	doneIDs  []int
	ended    []int // envs whose episode a reset of all envs abandons
	stats    Stats
	start    time.Time
	req      Request // of the Collect in progress
}

func newEngine(cfg Config) (*engine, error) {
	if cfg.Env == nil {
		return nil, fmt.Errorf("%w: no Env", ErrConfig)
	}
	n := cfg.Env.Len()
	e := &engine{
		venv: cfg.Env, n: n, actSpace: cfg.Env.ActionSpace(), policy: cfg.Policy, buf: cfg.Buffer,
		explore: cfg.Explore, rng: cfg.Rand, onStep: cfg.OnStep, onEp: cfg.OnEpisode, onFrame: cfg.OnFrame,
		infos: make([]env.Info, n), epRet: make([]float64, n), epLen: make([]int, n),
		infoIn: newInfoTable(n), infoStep: newInfoTable(n), infoRows: make([]env.Info, n),
		ins: make([]*slots, n+1), outs: make([]*batch.Batch, n+1), trans: make([]*slots, n+1),
		pols: make([]*batch.Batch, n+1), reserved: &batch.Batch{},
		steps: make([]buffer.Step, 0, n), doneIDs: make([]int, 0, n), ended: make([]int, 0, n),
	}
	for i := 0; i < n; i++ {
		e.all = append(e.all, i)
	}
	e.disc, _ = e.actSpace.(*env.Discrete)
	if m, ok := cfg.Policy.(ActionMapper); ok {
		e.mapper = m
	}
	var err error
	if e.obs, err = spaceTable(cfg.Env.ObservationSpace(), n); err != nil {
		return nil, err
	}
	if e.obsRows, err = spaceTable(cfg.Env.ObservationSpace(), n); err != nil {
		return nil, err
	}
	if e.envAct, err = spaceTable(e.actSpace, n); err != nil {
		return nil, err
	}
	if e.mapper != nil {
		if _, ok := e.envAct.full.(*nd.Array); !ok {
			return nil, fmt.Errorf("%w: the policy maps actions, but the action space %v has no array values", ErrConfig, e.actSpace)
		}
		if e.unmapped, err = spaceTable(e.actSpace, n); err != nil {
			return nil, err
		}
	}
	e.rew = newTable(nd.Zeros(nd.Float64, n), n)
	e.term = newTable(nd.Zeros(nd.Bool, n), n)
	e.trunc = newTable(nd.Zeros(nd.Bool, n), n)
	if e.buf == nil {
		bc := buffer.DefaultConfig()
		bc.Size = n
		if e.buf, err = buffer.NewVector(bc, n); err != nil {
			return nil, err
		}
	} else if m := e.buf.BufferNum(); m < n {
		return nil, fmt.Errorf("%w: the buffer has %d sub-buffers for %d envs (env i's steps go to sub-buffer i)", ErrConfig, m, n)
	}
	return e, nil
}

// spaceTable returns zeroed storage for n values of space, shaped and
// typed like its samples (as the vector envs shape their results).
func spaceTable(space env.Space, n int) (*table, error) {
	switch v := space.Sample(rand.New(rand.NewPCG(0, 0))).(type) {
	case *nd.Array:
		return newTable(nd.Zeros(v.DType(), append([]int{n}, v.Shape()...)...), n), nil
	case *batch.Batch:
		return newTable(batch.ZerosStacked(v, n), n), nil
	default:
		return nil, fmt.Errorf("%w: the space %v samples a %T, not an *nd.Array or *batch.Batch", ErrConfig, space, v)
	}
}

// isPrefix reports whether ids is 0, 1, …, len(ids)−1, the envs whose
// rows are a prefix of the per-env storage.
func isPrefix(ids []int) bool {
	for j, id := range ids {
		if id != j {
			return false
		}
	}
	return true
}

// rowsOf returns the rows of the per-env table t for the envs ids: a view
// of t when ids is a prefix, else a copy gathered into scratch.
func rowsOf(t, scratch *table, ids []int) (any, error) {
	k := len(ids)
	if isPrefix(ids) {
		return t.prefix(k), nil
	}
	v := scratch.prefix(k)
	return v, moveRows(v, nil, t.full, ids, k)
}

// rowIDs returns ids as the row argument of moveRows: nil (a plain copy of
// the first rows) when ids is a prefix.
func rowIDs(ids []int) []int {
	if isPrefix(ids) {
		return nil
	}
	return ids
}

// begin starts a Collect of req.
func (e *engine) begin(req Request) {
	e.start, e.req = time.Now(), req
	e.stats = Stats{Returns: e.stats.Returns[:0], Lens: e.stats.Lens[:0]}
}

// end finishes a Collect and returns its statistics.
func (e *engine) end() Stats {
	s := &e.stats
	s.Duration = time.Since(e.start)
	s.Episodes = len(s.Returns)
	s.Return, s.Len = summarize(s.Returns), summarize(s.Lens)
	if s.Duration > 0 {
		s.StepsPerSecond = float64(s.Steps) / s.Duration.Seconds()
	}
	return *s
}

// action is what acting produced for k envs.
type action struct {
	obs    any          // the observations acted on (rows of the envs)
	stored any          // the actions stored in the buffer
	send   any          // the actions sent to the envs
	pdata  *batch.Batch // policy data (with hidden_state), or a reserved key
}

// act chooses the actions of the envs ids: samples them from the action
// space when random is set, asks the policy otherwise (keeping the hidden
// state it returns). The caller times it.
func (e *engine) act(ids []int, random bool) (action, error) {
	k := len(ids)
	var a action
	obs, err := rowsOf(e.obs, e.obsRows, ids)
	if err != nil {
		return a, fmt.Errorf("collector: %w", err)
	}
	a.obs = obs
	in := e.ins[k]
	if in == nil {
		in = newSlots(inKeys)
		e.ins[k] = in
	}
	in.set(0, obs)
	if random {
		send := e.envAct.prefix(k)
		masked, err := e.sampleMasked(send, in, ids)
		if err != nil {
			return a, err
		}
		if !masked {
			e.actSpace.SampleTo(send, e.rng)
		}
		a.stored, a.send, a.pdata = send, send, e.reserved
		if e.mapper != nil {
			stored := e.unmapped.prefix(k).(*nd.Array)
			if err := e.mapper.UnmapActionTo(stored, send.(*nd.Array)); err != nil {
				return a, fmt.Errorf("collector: policy: UnmapActionTo: %w", err)
			}
			a.stored = stored
		}
		return a, nil
	}
	infos := e.infoRows[:k]
	for j, id := range ids {
		infos[j] = e.infos[id]
	}
	info, err := e.infoIn.fill(infos, ids)
	if err != nil {
		return a, fmt.Errorf("collector: %w", err)
	}
	in.set(1, info)
	if _, err := e.readMask(in, ids); err != nil {
		return a, err
	}
	var state any
	if e.hidden != nil {
		if state, err = rowsOf(e.hidden, e.hidRows, ids); err != nil {
			return a, fmt.Errorf("collector: hidden state: %w", err)
		}
	}
	dst := e.outs[k]
	if dst == nil {
		dst = &batch.Batch{}
		e.outs[k] = dst
	}
	if err := e.policy.Act(dst, in.b, state, e.explore); err != nil {
		return a, fmt.Errorf("collector: policy: %w", err)
	}
	act, err := actOf(dst, k)
	if err != nil {
		return a, err
	}
	a.stored, a.send = act, act
	if e.mapper != nil {
		arr, ok := act.(*nd.Array)
		if !ok {
			return a, fmt.Errorf("collector: policy: act is a %T; MapActionTo needs an *nd.Array", act)
		}
		send := e.envAct.prefix(k).(*nd.Array)
		if err := e.mapper.MapActionTo(send, arr); err != nil {
			return a, fmt.Errorf("collector: policy: MapActionTo: %w", err)
		}
		a.send = send
	}
	var pd *batch.Batch
	if v, _ := dst.Get(batch.KeyPolicy); v != nil {
		var ok bool
		if pd, ok = v.(*batch.Batch); !ok {
			return a, fmt.Errorf("collector: policy: \"policy\" holds a %T, not a *batch.Batch", v)
		}
	}
	st, _ := dst.Get(batch.KeyState)
	if st != nil {
		if err := e.keepState(ids, st); err != nil {
			e.ready = false // the hidden states may be partly written
			return a, err
		}
	}
	a.pdata = e.policyData(k, pd, st)
	return a, nil
}

// readMask returns the action masks (env.ActionMask) of the envs ids in
// their policy input in, nil without masks or for an action space that is
// not Discrete. It returns an error wrapping env.ErrActionMask for a mask
// that does not fit and for one that allows no action, naming the env and
// the step of its episode.
func (e *engine) readMask(in *slots, ids []int) ([]float32, error) {
	if e.disc == nil {
		return nil, nil
	}
	n := int(e.disc.N())
	m, err := e.mask.Read(in.b, len(ids), n)
	if err != nil || m == nil {
		if err != nil {
			return nil, fmt.Errorf("collector: %w", err)
		}
		return nil, nil
	}
	d := nd.Data[float32](m)
	if r := env.EmptyMaskRow(d, n); r >= 0 {
		return nil, fmt.Errorf("collector: env %d, step %d of its episode: %w: the mask allows no action", ids[r], e.epLen[ids[r]], env.ErrActionMask)
	}
	return d, nil
}

// sampleMasked writes into send, for the envs ids whose policy input in
// holds their observations, random actions drawn uniformly among those
// their action masks allow, and reports whether there were masks (else it
// writes nothing). Masks in the envs' infos are read too.
func (e *engine) sampleMasked(send any, in *slots, ids []int) (bool, error) {
	if e.disc == nil {
		return false, nil
	}
	in.set(1, e.reserved)
	if _, ok := e.infos[ids[0]][env.KeyActionMask]; ok {
		infos := e.infoRows[:len(ids)]
		for j, id := range ids {
			infos[j] = e.infos[id]
		}
		info, err := e.infoIn.fill(infos, ids)
		if err != nil {
			return false, fmt.Errorf("collector: %w", err)
		}
		in.set(1, info)
	}
	m, err := e.readMask(in, ids)
	if err != nil || m == nil {
		return false, err
	}
	n, start := int(e.disc.N()), e.disc.Start()
	acts := nd.Data[int64](send.(*nd.Array))
	for j := range acts {
		acts[j] = start + int64(env.SampleValid(m[j*n:(j+1)*n], e.rng))
	}
	return true, nil
}

func must(err error) {
	if err != nil {
		panic(err) // keys are constants and values arrays or Batches
	}
}

// The keys of the policy's input and of the transitions, in order.
var (
	inKeys    = []string{batch.KeyObs, batch.KeyInfo}
	transKeys = []string{batch.KeyObs, batch.KeyAct, batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated, batch.KeyObsNext, batch.KeyInfo, batch.KeyPolicy}
)

// slots is a Batch with fixed keys whose values are set again only when
// they change: most values are the same arrays step after step, and
// Batch.Set parses a key path every time (a fifth of a CartPole step's
// cost when every key was set each step).
type slots struct {
	b    *batch.Batch
	keys []string
	vals []any // *nd.Array or *batch.Batch values: pointers, comparable
}

func newSlots(keys []string) *slots {
	return &slots{b: &batch.Batch{}, keys: keys, vals: make([]any, len(keys))}
}

func (s *slots) set(i int, v any) {
	if s.vals[i] != v {
		must(s.b.Set(s.keys[i], v))
		s.vals[i] = v
	}
}

// actOf returns dst's "act" after checking that it holds k rows.
func actOf(dst *batch.Batch, k int) (any, error) {
	v, _ := dst.Get(batch.KeyAct)
	switch a := v.(type) {
	case *nd.Array:
		if a.Ndim() > 0 && a.Dim(0) == k {
			return a, nil
		}
		return nil, fmt.Errorf("collector: policy: act of shape %v for %d envs", a.Shape(), k)
	case *batch.Batch:
		if l, err := a.Len(); err != nil || l != k {
			return nil, fmt.Errorf("collector: policy: act of length %d for %d envs (%v)", l, k, err)
		}
		return a, nil
	case nil:
		return nil, fmt.Errorf("collector: policy: no act")
	}
	return nil, fmt.Errorf("collector: policy: act is a %T, not an *nd.Array or *batch.Batch", v)
}

// keepState stores the hidden state rows st of the envs ids.
func (e *engine) keepState(ids []int, st any) error {
	if e.hidden == nil {
		var err error
		if e.hidden, err = tableLike(st, e.n); err != nil {
			return fmt.Errorf("collector: policy: state: %w", err)
		}
		if e.hidRows, err = tableLike(st, e.n); err != nil {
			return fmt.Errorf("collector: policy: state: %w", err)
		}
	}
	if err := moveRows(e.hidden.full, rowIDs(ids), st, nil, len(ids)); err != nil {
		return fmt.Errorf("collector: policy: state: %w", err)
	}
	return nil
}

// policyData returns what is stored under "policy" for k envs: the
// policy's data pd with the new hidden state st under "hidden_state" (as
// Tianshou stores it), pd alone without a state, or a reserved key.
func (e *engine) policyData(k int, pd *batch.Batch, st any) *batch.Batch {
	if st == nil {
		if pd == nil {
			return e.reserved
		}
		return pd
	}
	b := e.pols[k]
	if b == nil || !holdsKeys(b, pd) {
		b = &batch.Batch{}
		e.pols[k] = b
	}
	if pd != nil {
		for key, v := range pd.Items() {
			must(b.Set(key, v))
		}
	}
	must(b.Set(batch.KeyHiddenState, st))
	return b
}

// holdsKeys reports whether b's keys are pd's plus "hidden_state".
func holdsKeys(b, pd *batch.Batch) bool {
	if pd == nil {
		return b.NumKeys() == 1
	}
	if b.NumKeys() != pd.NumKeys()+1 {
		return false
	}
	for key := range pd.Keys() {
		if !b.Has(key) {
			return false
		}
	}
	return true
}

// store adds the transitions of a vector step to the buffer and moves the
// envs on: row j of res belongs to env ids[j], which acted with row j of
// act on row j of obs. It updates the per-env state, records finished
// episodes, renders the envs if the request says so (before the resets, as
// Tianshou does, so that an episode's last frame is shown) and resets the
// envs whose episode ended. On error the per-env state is stale (ready is
// cleared by the caller).
func (e *engine) store(ctx context.Context, ids []int, obs, act any, pdata *batch.Batch, res *vector.Result) error {
	k := len(ids)
	rew := e.rew.prefix(k).(*nd.Array)
	term := e.term.prefix(k).(*nd.Array)
	trunc := e.trunc.prefix(k).(*nd.Array)
	copy(nd.Data[float64](rew), res.Rewards)
	copy(nd.Data[bool](term), res.Terminated)
	copy(nd.Data[bool](trunc), res.Truncated)
	info, err := e.infoStep.fill(res.Infos, ids)
	if err != nil {
		return fmt.Errorf("collector: %w", err)
	}
	ts := e.trans[k]
	if ts == nil {
		ts = newSlots(transKeys)
		e.trans[k] = ts
	}
	for i, v := range [...]any{obs, act, rew, term, trunc, res.Obs, info, pdata} {
		ts.set(i, v)
	}
	tr := ts.b
	steps, err := e.buf.Add(tr, ids, e.steps[:0])
	if err != nil {
		return fmt.Errorf("collector: buffer: %w", err)
	}
	e.steps = steps
	if e.onStep != nil {
		for j, id := range ids {
			e.onStep(StepEvent{Env: id, Row: j, Index: steps[j].Index, Batch: tr})
		}
	}
	// Move the envs on: obs_next becomes the last observation.
	if err := moveRows(e.obs.full, rowIDs(ids), res.Obs, nil, k); err != nil {
		return fmt.Errorf("collector: %w", err)
	}
	e.doneIDs = e.doneIDs[:0]
	for j, id := range ids {
		e.infos[id] = res.Infos[j]
		e.epRet[id] += res.Rewards[j]
		e.epLen[id]++
		if res.Terminated[j] || res.Truncated[j] {
			e.stats.Returns = append(e.stats.Returns, e.epRet[id])
			e.stats.Lens = append(e.stats.Lens, e.epLen[id])
			if e.onEp != nil {
				e.onEp(EpisodeEvent{Env: id, Return: e.epRet[id], Len: e.epLen[id], Start: steps[j].EpisodeStart, End: steps[j].Index})
			}
			e.doneIDs = append(e.doneIDs, id)
		}
	}
	e.stats.Steps += k
	if e.req.Render {
		if err := e.render(ctx, ids, e.req.RenderPause); err != nil {
			return err
		}
	}
	if len(e.doneIDs) > 0 {
		return e.reset(ctx, e.doneIDs, nil)
	}
	return nil
}

// abandon ends, in the buffer, the episodes in progress that a reset of
// every env abandons (Buffer.EndEpisode): the last stored transition
// of each becomes truncated, so that the buffer does not join it to the
// next episode of the env.
func (e *engine) abandon() {
	e.ended = e.ended[:0]
	for id, n := range e.epLen {
		if n > 0 {
			e.ended = append(e.ended, id)
		}
	}
	if len(e.ended) > 0 {
		e.buf.EndEpisode(e.ended)
	}
}

// reset resets the envs ids (nil: all) with seeds (nil: none) and starts
// their per-env state afresh: first observation and Info, zero hidden
// state, zero running return and length.
func (e *engine) reset(ctx context.Context, ids []int, seeds []env.Seed) error {
	if ids == nil {
		ids = e.all
	}
	start := time.Now()
	res, err := e.venv.Reset(ctx, ids, seeds)
	e.stats.EnvTime += time.Since(start)
	if err != nil {
		return fmt.Errorf("collector: reset: %w", err)
	}
	if err := moveRows(e.obs.full, rowIDs(ids), res.Obs, nil, len(ids)); err != nil {
		return fmt.Errorf("collector: reset: %w", err)
	}
	for j, id := range ids {
		e.infos[id] = res.Infos[j]
		e.epRet[id], e.epLen[id] = 0, 0
	}
	if e.hidden != nil {
		zeroRows(e.hidden.full, ids)
	}
	return nil
}

// render gives the frames of the envs ids to OnFrame, then pauses.
func (e *engine) render(ctx context.Context, ids []int, pause time.Duration) error {
	frames, err := e.venv.Render(ids)
	if err != nil {
		return fmt.Errorf("collector: render: %w", err)
	}
	for j, id := range ids {
		e.onFrame(id, frames[j])
	}
	if pause <= 0 {
		return nil
	}
	t := time.NewTimer(pause)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
