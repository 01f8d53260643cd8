package buffer

import (
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// addPlan is the plan of an earlier Add, kept so that an Add of the same
// input does not match and check it again: a collector adds the same Batch
// holding the same arrays, with new values, at every step. The input is the
// same when it is the same Batch holding, depth first, the same keys with
// the same arrays and nested Batches (pointers compared), and the rows and
// the storage schema are those the plan was made for: an nd.Array never
// changes dtype, shape or strides, so what plan checked still holds. Inputs
// with other values (custom leaves, strings, Go values) are planned every
// time. The plan refers to the input's arrays until a different input is
// planned.
type addPlan struct {
	data    *batch.Batch // nil: no plan kept
	rows    int
	stacked bool
	schema  uint64
	items   []planItem
	srcs    []source
}

// planItem is a key of the input and its value, or, with key "" and val a
// *batch.Batch, the start of a nested Batch of n keys.
type planItem struct {
	key string
	val any
	n   int
}

// keep records the plan just made for data.
func (p *addPlan) keep(data *batch.Batch, st *addState, schema uint64) {
	p.data, p.items = nil, p.items[:0]
	if !p.record(data) {
		p.items = p.items[:0]
		return
	}
	p.data, p.rows, p.stacked, p.schema = data, st.rows, st.stacked, schema
	p.srcs = append(p.srcs[:0], st.srcs...)
}

// record appends the items of b depth first and reports whether all its
// values are arrays or Batches.
func (p *addPlan) record(b *batch.Batch) bool {
	p.items = append(p.items, planItem{val: b, n: b.NumKeys()})
	for key, v := range b.Items() {
		switch x := v.(type) {
		case *nd.Array:
			p.items = append(p.items, planItem{key: key, val: x})
		case *batch.Batch:
			p.items = append(p.items, planItem{key: key, val: x})
			if !p.record(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reuse sets st.srcs to the kept plan and reports true if data is the
// input it was made for.
func (p *addPlan) reuse(data *batch.Batch, st *addState, schema uint64) bool {
	if p.data != data || p.rows != st.rows || p.stacked != st.stacked || p.schema != schema {
		return false
	}
	if k, ok := p.same(data, 0); !ok || k != len(p.items) {
		return false
	}
	copy(st.srcs, p.srcs)
	return true
}

// same compares b with the items from k on and returns the position after
// b's items.
func (p *addPlan) same(b *batch.Batch, k int) (int, bool) {
	if k >= len(p.items) || p.items[k].val != any(b) || p.items[k].n != b.NumKeys() {
		return k, false
	}
	k++
	for key, v := range b.Items() {
		if k >= len(p.items) || p.items[k].key != key || p.items[k].val != v {
			return k, false
		}
		k++
		if x, ok := v.(*batch.Batch); ok {
			var same bool
			if k, same = p.same(x, k); !same {
				return k, false
			}
		}
	}
	return k, true
}
