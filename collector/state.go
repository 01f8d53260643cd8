package collector

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// ErrState is wrapped by the error of UnmarshalState for data that is
// corrupt, of another version, or saved by a collector of other envs.
var ErrState = errors.New("collector: invalid state data")

// stateTag starts the saved state: the format and its version.
const stateTag = "gorl collector state/1"

// MarshalState returns what the collector keeps per env between Collects
// (last observations, hidden states, running returns and lengths, whether
// the envs need a reset), for checkpoints. Saved with the vector env's
// states (vector.Env.MarshalState), the policy and the random sources, it
// lets a run resume exactly where it stopped. The envs' last Infos are not
// saved: after UnmarshalState, the policy's first step sees empty Infos.
//
// The format is the tag "gorl collector state/1" followed by a Batch in
// batch's binary encoding, with keys obs, hidden (when the policy has a
// hidden state), ep_ret (float64), ep_len (int64) and ready (bool).
func (c *Collector) MarshalState() ([]byte, error) {
	e := c.e
	b := &batch.Batch{}
	lens := make([]int64, e.n)
	for i, l := range e.epLen {
		lens[i] = int64(l)
	}
	ret, err := nd.FromSlice(slices.Clone(e.epRet), e.n)
	if err != nil {
		return nil, err
	}
	ln, err := nd.FromSlice(lens, e.n)
	if err != nil {
		return nil, err
	}
	if err := b.Update("obs", e.obs.full, "ep_ret", ret, "ep_len", ln, "ready", e.ready); err != nil {
		return nil, fmt.Errorf("collector: MarshalState: %w", err)
	}
	if e.hidden != nil {
		must(b.Set("hidden", e.hidden.full))
	}
	data, err := b.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("collector: MarshalState: %w", err)
	}
	return append([]byte(stateTag), data...), nil
}

// UnmarshalState restores a state MarshalState returned, all or nothing: it
// returns an error wrapping ErrState, and leaves the collector unchanged,
// for data that is corrupt, of another version, or made by a collector of
// other envs (another number of envs, other observation shapes, a hidden
// state of another shape than the policy's). The envs' last Infos become
// empty.
func (c *Collector) UnmarshalState(data []byte) error {
	e := c.e
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrState, fmt.Sprintf(format, args...))
	}
	if len(data) < len(stateTag) || string(data[:len(stateTag)]) != stateTag {
		return bad("missing tag %q", stateTag)
	}
	var b batch.Batch
	if err := b.UnmarshalBinary(data[len(stateTag):]); err != nil {
		return fmt.Errorf("%w: %w", ErrState, err)
	}
	obs, _ := b.Get("obs")
	if !fits(e.obs.full, obs) {
		return bad("observations do not fit %d envs of this observation space", e.n)
	}
	ret, err := b.Array("ep_ret")
	if err != nil || ret.DType() != nd.Float64 || !slices.Equal(ret.Shape(), []int{e.n}) {
		return bad("ep_ret is not %d float64 values", e.n)
	}
	ln, err := b.Array("ep_len")
	if err != nil || ln.DType() != nd.Int64 || !slices.Equal(ln.Shape(), []int{e.n}) {
		return bad("ep_len is not %d int64 values", e.n)
	}
	lens := nd.Data[int64](ln)
	for _, l := range lens {
		if l < 0 {
			return bad("negative episode length %d", l)
		}
	}
	ready, err := b.Array("ready")
	if err != nil || ready.DType() != nd.Bool || ready.Ndim() != 0 {
		return bad("ready is not a bool")
	}
	hidden, hasHidden := b.Get("hidden")
	var hid, hidRows *table
	if hasHidden {
		if e.hidden != nil && !fits(e.hidden.full, hidden) {
			return bad("the hidden state does not fit the policy's")
		}
		if e.hidden == nil {
			if hid, err = tableLike(hidden, e.n); err != nil || !fits(hid.full, hidden) {
				return bad("the hidden state is not %d rows of arrays", e.n)
			}
			hidRows, _ = tableLike(hidden, e.n)
		} else {
			hid, hidRows = e.hidden, e.hidRows
		}
	}
	// Everything checked: apply.
	must(moveRows(e.obs.full, nil, obs, nil, e.n))
	if hasHidden {
		must(moveRows(hid.full, nil, hidden, nil, e.n))
	}
	e.hidden, e.hidRows = hid, hidRows
	copy(e.epRet, nd.Data[float64](ret))
	for i, l := range lens {
		e.epLen[i] = int(l)
	}
	clear(e.infos)
	e.ready = nd.Data[bool](ready)[0]
	return nil
}

// fits reports whether src has dst's structure: arrays of the same dtype
// and shape, Batches with the same keys holding fitting values.
func fits(dst, src any) bool {
	switch d := dst.(type) {
	case nil:
		return src == nil
	case *nd.Array:
		s, ok := src.(*nd.Array)
		return ok && s.DType() == d.DType() && slices.Equal(s.Shape(), d.Shape())
	case *batch.Batch:
		s, ok := src.(*batch.Batch)
		if !ok || s.NumKeys() != d.NumKeys() {
			return false
		}
		for key, v := range d.Items() {
			w, ok := s.Get(key)
			if !ok || !fits(v, w) {
				return false
			}
		}
		return true
	}
	return false
}
