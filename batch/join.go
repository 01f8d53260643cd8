package batch

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/gorl/gorl/nd"
)

// Stack joins batches along a new axis (Tianshou's Batch.stack): every
// array of the result is nd.Stack of the arrays under the same key path, so
// batches of length n give a result of length len(bs) (axis 0). Batches
// without keys are skipped.
//
// The batches may differ in structure as Tianshou's key-chain rules allow:
// a key missing from some batches, or reserved in them, is padded with
// zeros (nil for Object arrays) in their rows, and a key reserved in every
// batch that has it stays reserved. Numbers and strings stack like 0-d
// arrays (strings and other scalars into an Object array, nil as None).
// Custom leaves are joined with their Stack method. Keys come in order of
// first appearance.
//
// Stack returns an error wrapping ErrStructure, naming the key, if a key
// is not shared by all batches and axis ≠ 0, if the values under a key
// cannot be aggregated (a Batch in one batch and an array in another,
// a custom leaf missing from some batches), or if nd.Stack or a leaf's
// Stack refuses them (shapes that differ, an axis out of range).
func Stack(axis int, bs ...*Batch) (*Batch, error) {
	items := withKeys(bs)
	if len(items) == 0 {
		return &Batch{}, nil
	}
	return stackNode(axis, items)
}

// Stack sets b to Stack(axis, b, others...) (Tianshou's stack_). If b has
// no keys it is left out of the stack. On error b is unchanged.
func (b *Batch) Stack(axis int, others ...*Batch) error {
	r, err := Stack(axis, append([]*Batch{b}, others...)...)
	if err != nil {
		return err
	}
	b.ents = r.ents
	return nil
}

// withKeys returns the batches of bs that have keys (bs itself when all
// have).
func withKeys(bs []*Batch) []*Batch {
	for i, b := range bs {
		if len(b.ents) == 0 {
			out := slices.Clone(bs[:i])
			for _, c := range bs[i+1:] {
				if len(c.ents) > 0 {
					out = append(out, c)
				}
			}
			return out
		}
	}
	return bs
}

// absent marks a batch that has no value (or a reserved key) under a key
// being aggregated.
type absent struct{}

// stackNode stacks items, of which nil ones are absent (padded).
func stackNode(axis int, items []*Batch) (*Batch, error) {
	keys := unionKeys(items)
	out := newBatch(len(keys))
	vals := make([]any, len(items))
	arrs := make([]*nd.Array, 0, len(items))
	for ki, k := range keys {
		present := 0
		for i, it := range items {
			vals[i] = absent{}
			if it == nil {
				continue
			}
			j := it.lookup(k, ki)
			if j < 0 || isReserved(it.ents[j].val) {
				continue
			}
			vals[i] = it.ents[j].val
			present++
		}
		if present == 0 {
			out.ents = append(out.ents, entry{k, &Batch{}})
			continue
		}
		if present < len(items) && axis != 0 {
			return nil, errAt(ErrStructure, k, fmt.Sprintf("the key is not shared by all batches, which Stack allows only along axis 0, not axis %d", axis), nil)
		}
		v, err := stackValues(axis, vals, present, arrs)
		if err != nil {
			return nil, within(k, err)
		}
		out.ents = append(out.ents, entry{k, v})
	}
	return out, nil
}

// unionKeys returns the keys of the non-nil items in order of first
// appearance.
func unionKeys(items []*Batch) []string {
	var keys []string
	var first *Batch
	for _, it := range items {
		if it == nil {
			continue
		}
		if first == nil {
			first = it
			keys = make([]string, len(it.ents))
			for i := range it.ents {
				keys[i] = it.ents[i].key
			}
			continue
		}
		if sameKeyOrder(it, keys) {
			continue
		}
		for _, e := range it.ents {
			if !slices.Contains(keys, e.key) {
				keys = append(keys, e.key)
			}
		}
	}
	return keys
}

func sameKeyOrder(b *Batch, keys []string) bool {
	if len(b.ents) != len(keys) {
		return false
	}
	for i := range b.ents {
		if b.ents[i].key != keys[i] {
			return false
		}
	}
	return true
}

// countKinds counts the batches and custom leaves among vals.
func countKinds(vals []any) (batches, leaves int) {
	for _, v := range vals {
		switch v.(type) {
		case *Batch:
			batches++
		case Leaf:
			leaves++
		}
	}
	return batches, leaves
}

func firstOf[T any](vals []any) (T, int) {
	for i, v := range vals {
		if x, ok := v.(T); ok {
			return x, i
		}
	}
	var zero T
	return zero, -1
}

func restLeaves(vals []any, skip int) []Leaf {
	rest := make([]Leaf, 0, len(vals)-1)
	for i, v := range vals {
		if i != skip {
			rest = append(rest, v.(Leaf))
		}
	}
	return rest
}

func stackValues(axis int, vals []any, present int, arrs []*nd.Array) (any, error) {
	nb, nl := countKinds(vals)
	switch {
	case nb == present:
		subs := make([]*Batch, len(vals))
		for i, v := range vals {
			subs[i], _ = v.(*Batch)
		}
		return stackNode(axis, subs)
	case nb > 0:
		return nil, mixError("stack", vals)
	case nl == present:
		if present < len(vals) {
			return nil, &Error{Kind: ErrStructure, Msg: "a custom leaf cannot be padded: the key is missing from some batches"}
		}
		l := vals[0].(Leaf)
		r, err := l.Stack(axis, restLeaves(vals, 0)...)
		if err != nil {
			return nil, &Error{Kind: ErrStructure, Msg: "cannot stack the custom leaves", Err: err}
		}
		return r, nil
	case nl > 0:
		return nil, mixError("stack", vals)
	}
	arrs = arrs[:0]
	for _, v := range vals {
		if _, ok := v.(absent); !ok {
			arrs = append(arrs, asArray(v))
		}
	}
	if present == len(vals) {
		a, err := nd.Stack(axis, arrs...)
		if err != nil {
			return nil, &Error{Kind: ErrStructure, Msg: "cannot stack the values", Err: err}
		}
		return a, nil
	}
	// Pad the absent rows (axis 0).
	first := arrs[0]
	dt := first.DType()
	for _, a := range arrs[1:] {
		if !sameShape(a, first) {
			return nil, &Error{Kind: ErrStructure, Msg: fmt.Sprintf("cannot stack %s with %s", describe(first), describe(a))}
		}
		dt = nd.ResultType(dt, a.DType())
	}
	out := nd.Zeros(dt, append([]int{len(vals)}, first.Shape()...)...)
	k := 0
	for i, v := range vals {
		if _, ok := v.(absent); ok {
			continue
		}
		if err := out.SetRow(i, arrs[k]); err != nil {
			return nil, &Error{Kind: ErrStructure, Msg: "cannot stack the values", Err: err}
		}
		k++
	}
	return out, nil
}

// mixError reports values of different kinds under one key.
func mixError(op string, vals []any) error {
	var kinds []string
	for _, v := range vals {
		if _, ok := v.(absent); ok {
			continue
		}
		d := describe(v)
		if !slices.Contains(kinds, d) {
			kinds = append(kinds, d)
		}
		if len(kinds) == 2 {
			break
		}
	}
	if len(kinds) < 2 {
		return &Error{Kind: ErrStructure, Msg: "cannot " + op + " " + kinds[0]}
	}
	return &Error{Kind: ErrStructure, Msg: "cannot " + op + " " + kinds[0] + " with " + kinds[1]}
}

func sameShape(a, b *nd.Array) bool {
	if a.Ndim() != b.Ndim() {
		return false
	}
	for k := 0; k < a.Ndim(); k++ {
		if a.Dim(k) != b.Dim(k) {
			return false
		}
	}
	return true
}

// isScalar reports whether v is a value stored as a scalar: nil, a string
// or another Go value that is not an array, Batch or custom leaf.
func isScalar(v any) bool {
	switch v.(type) {
	case *nd.Array, *Batch, Leaf:
		return false
	}
	return true
}

// asArray returns v as an array: an *nd.Array itself, anything else (a
// string, nil, another scalar, a custom leaf) as a 0-d Object array
// holding it.
func asArray(v any) *nd.Array {
	if a, ok := v.(*nd.Array); ok {
		return a
	}
	a := nd.Zeros(nd.Object)
	nd.Data[any](a)[0] = v
	return a
}

// Cat concatenates batches along axis 0 (Tianshou's Batch.cat): every array
// of the result is nd.Concatenate of the arrays under the same key path.
// Batches without keys are skipped.
//
// The batches must have the same structure: the same keys at every level
// (in any order), with values of the same kind. A key reserved in some
// batches and holding arrays in others is padded with zeros over those
// batches' Len rows (Tianshou's reserved keys), a key reserved in all stays
// reserved, and a key that is nil in all stays nil. Custom leaves are
// joined with their Cat method.
//
// Cat returns an error wrapping ErrStructure, naming the key, if the
// structures differ (a key missing from some batches, a Batch in one and an
// array in another), for scalars (numbers are 0-d arrays, which cannot be
// concatenated, as in numpy), and if nd.Concatenate or a leaf's Cat refuses
// the values (shapes that disagree beyond axis 0); and Len's error when a
// batch must be padded and has no length.
func Cat(bs ...*Batch) (*Batch, error) {
	items := withKeys(bs)
	if len(items) == 0 {
		return &Batch{}, nil
	}
	c := catter{top: items}
	return c.node(items)
}

// Cat sets b to Cat(b, others...) (Tianshou's cat_). If b has no keys it is
// left out. On error b is unchanged.
func (b *Batch) Cat(others ...*Batch) error {
	r, err := Cat(append([]*Batch{b}, others...)...)
	if err != nil {
		return err
	}
	b.ents = r.ents
	return nil
}

// catter concatenates the batches top (and their nested batches, position
// by position); lens holds top's lengths once a reserved key needs padding.
type catter struct {
	top  []*Batch
	lens []int
}

func (c *catter) length(i int) (int, error) {
	if c.lens == nil {
		c.lens = make([]int, len(c.top))
		for k, b := range c.top {
			n, err := b.Len()
			if err != nil {
				c.lens = nil
				return 0, err
			}
			c.lens[k] = n
		}
	}
	return c.lens[i], nil
}

// sameKeys checks that every item has the keys of items[0].
func sameKeys(items []*Batch) error {
	first := items[0]
	for i, it := range items[1:] {
		for _, e := range first.ents {
			if it.find(e.key) < 0 {
				return errAt(ErrStructure, e.key, fmt.Sprintf("key of batch 0 missing from batch %d: Cat needs the same structure", i+1), nil)
			}
		}
		if len(it.ents) != len(first.ents) {
			for _, e := range it.ents {
				if first.find(e.key) < 0 {
					return errAt(ErrStructure, e.key, fmt.Sprintf("key of batch %d missing from batch 0: Cat needs the same structure", i+1), nil)
				}
			}
		}
	}
	return nil
}

func (c *catter) node(items []*Batch) (*Batch, error) {
	if err := sameKeys(items); err != nil {
		return nil, err
	}
	out := newBatch(len(items[0].ents))
	vals := make([]any, len(items))
	for ki, e := range items[0].ents {
		for i, it := range items {
			vals[i] = it.ents[it.lookup(e.key, ki)].val
		}
		v, err := c.values(vals)
		if err != nil {
			return nil, within(e.key, err)
		}
		out.ents = append(out.ents, entry{e.key, v})
	}
	return out, nil
}

func (c *catter) values(vals []any) (any, error) {
	var reserved, nils, batches, arrays, leaves int
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			nils++
		case *Batch:
			if len(x.ents) == 0 {
				reserved++
			} else {
				batches++
			}
		case *nd.Array:
			arrays++
		case Leaf:
			leaves++
		}
	}
	n := len(vals)
	switch {
	case reserved == n:
		return &Batch{}, nil
	case nils == n:
		return nil, nil
	case batches > 0 && batches+reserved == n:
		subs := make([]*Batch, n)
		proto, _ := firstOf[*Batch](vals)
		for i, v := range vals {
			subs[i] = v.(*Batch)
			if len(subs[i].ents) == 0 {
				pad, err := c.pad(proto, i)
				if err != nil {
					return nil, err
				}
				subs[i] = pad.(*Batch)
			}
		}
		return c.node(subs)
	case arrays > 0 && arrays+reserved == n:
		arrs := make([]*nd.Array, n)
		proto, _ := firstOf[*nd.Array](vals)
		for i, v := range vals {
			a, ok := v.(*nd.Array)
			if !ok {
				pad, err := c.pad(proto, i)
				if err != nil {
					return nil, err
				}
				a = pad.(*nd.Array)
			}
			arrs[i] = a
		}
		r, err := nd.Concatenate(0, arrs...)
		if err != nil {
			return nil, &Error{Kind: ErrStructure, Msg: "cannot concatenate the arrays", Err: err}
		}
		return r, nil
	case leaves == n:
		r, err := vals[0].(Leaf).Cat(restLeaves(vals, 0)...)
		if err != nil {
			return nil, &Error{Kind: ErrStructure, Msg: "cannot concatenate the custom leaves", Err: err}
		}
		return r, nil
	}
	return nil, mixError("concatenate", vals)
}

// pad returns zeros shaped like proto with the length of top batch i.
func (c *catter) pad(proto any, i int) (any, error) {
	n, err := c.length(i)
	if err != nil {
		return nil, &Error{Kind: ErrLen, Msg: fmt.Sprintf("cannot pad the reserved key of batch %d", i), Err: err}
	}
	switch x := proto.(type) {
	case *nd.Array:
		if x.Ndim() == 0 {
			return nil, &Error{Kind: ErrStructure, Msg: "zero-dimensional arrays cannot be concatenated"}
		}
		s := x.Shape()
		s[0] = n
		return nd.Zeros(x.DType(), s...), nil
	default:
		b, err := zeros(x.(*Batch), n, false)
		if err != nil {
			return nil, &Error{Kind: ErrLen, Msg: "cannot pad the reserved key", Err: err}
		}
		return b, nil
	}
}

// Scratch slices for the arguments of nd.StackTo and nd.ConcatenateTo and
// for nested Batches, so that StackTo and CatTo do not allocate.
var (
	arrScratch   = sync.Pool{New: func() any { return new([]*nd.Array) }}
	batchScratch = sync.Pool{New: func() any { return new([]*Batch) }}
)

// StackTo stacks batches into dst, a preallocated Batch of their common
// structure with arrays of the stacked shapes (nd.StackTo per array: inputs
// are cast to dst's dtypes under the "same_kind" rule). Unlike Stack it
// does not pad: every input must hold every key of dst, with reserved keys
// where dst has them and nil where dst has nil; a nil, string or other
// scalar input may also fill an Object array of dst, as Stack makes one.
// StackTo does not allocate for arrays and nested Batches; scalars into
// Object arrays allocate, and custom leaves are stacked with their Stack
// method and stored into dst.
//
// StackTo returns an error wrapping ErrStructure, naming the key, if an
// input's structure differs from dst's or nd.StackTo refuses the inputs
// (shapes that differ, a cast that is not allowed), and ErrValue if bs is
// empty; dst may be partly written then. It panics with nd's *Error if an
// array of dst does not have the stacked shape (a programmer error).
func StackTo(dst *Batch, axis int, bs ...*Batch) error {
	if len(bs) == 0 {
		return &Error{Kind: ErrValue, Msg: "StackTo: no batch to stack"}
	}
	return joinTo(dst, bs, true, axis)
}

// CatTo concatenates batches along axis 0 into dst, a preallocated Batch of
// their common structure whose arrays have the total length
// (nd.ConcatenateTo per array). Every input must hold every key of dst, as
// in StackTo. CatTo does not allocate for arrays and nested Batches; custom
// leaves are joined with their Cat method and stored into dst.
//
// CatTo returns StackTo's errors and panics with nd's *Error if an array of
// dst does not have the concatenated shape.
func CatTo(dst *Batch, bs ...*Batch) error {
	if len(bs) == 0 {
		return &Error{Kind: ErrValue, Msg: "CatTo: no batch to concatenate"}
	}
	return joinTo(dst, bs, false, 0)
}

// joinTo stacks (stack) or concatenates bs into dst.
func joinTo(dst *Batch, bs []*Batch, stack bool, axis int) error {
	for i, b := range bs {
		if len(b.ents) != len(dst.ents) {
			for _, e := range b.ents {
				if dst.find(e.key) < 0 {
					return errAt(ErrStructure, e.key, fmt.Sprintf("key of batch %d missing from the destination", i), nil)
				}
			}
		}
	}
	ap := arrScratch.Get().(*[]*nd.Array)
	bp := batchScratch.Get().(*[]*Batch)
	defer func() {
		clear(*ap)
		*ap = (*ap)[:0]
		arrScratch.Put(ap)
		clear(*bp)
		*bp = (*bp)[:0]
		batchScratch.Put(bp)
	}()
	for di := range dst.ents {
		de := &dst.ents[di]
		arrs, subs := (*ap)[:0], (*bp)[:0]
		var leaves []Leaf
		for i, b := range bs {
			j := b.lookup(de.key, di)
			if j < 0 {
				return errAt(ErrStructure, de.key, fmt.Sprintf("key missing from batch %d", i), nil)
			}
			v := b.ents[j].val
			ok := false
			switch d := de.val.(type) {
			case nil:
				ok = v == nil
			case *nd.Array:
				var a *nd.Array
				a, ok = v.(*nd.Array)
				if !ok && d.DType() == nd.Object && isScalar(v) {
					a, ok = asArray(v), true
				}
				arrs = append(arrs, a)
			case *Batch:
				var s *Batch
				s, ok = v.(*Batch)
				ok = ok && (len(s.ents) == 0) == (len(d.ents) == 0)
				subs = append(subs, s)
			case Leaf:
				var l Leaf
				l, ok = v.(Leaf)
				leaves = append(leaves, l)
			}
			if !ok {
				return errAt(ErrStructure, de.key, fmt.Sprintf("batch %d holds %s, the destination %s", i, describe(v), describe(de.val)), nil)
			}
		}
		*ap, *bp = arrs, subs
		switch d := de.val.(type) {
		case *nd.Array:
			var err error
			if stack {
				err = nd.StackTo(d, axis, arrs...)
			} else {
				err = nd.ConcatenateTo(d, 0, arrs...)
			}
			if err != nil {
				return errAt(ErrStructure, de.key, "cannot join the arrays", err)
			}
		case *Batch:
			if len(d.ents) > 0 {
				if err := joinTo(d, subs, stack, axis); err != nil {
					return within(de.key, err)
				}
			}
		case Leaf:
			var l Leaf
			var err error
			if stack {
				l, err = leaves[0].Stack(axis, leaves[1:]...)
			} else {
				l, err = leaves[0].Cat(leaves[1:]...)
			}
			if err != nil {
				return errAt(ErrStructure, de.key, "cannot join the custom leaves", err)
			}
			de.val = l
		}
	}
	return nil
}

// Split returns an iterator over pieces of b of size rows each, the last
// one shorter when size does not divide Len (Tianshou's Batch.split). With
// shuffle the rows are permuted by rng first; the permutation is drawn once,
// when Split is called, so ranging over the iterator again yields pieces of
// the same rows.
//
// When iteration starts, the rows are gathered once, in order, into a new
// Batch (Take), and each piece is a view of its next range of rows: pieces
// share no memory with b (changing one leaves b alone), and copying every
// row once costs less than a gather per piece.
//
// Split returns an error wrapping ErrValue if size ≤ 0 or shuffle is set
// without rng, and Len's error if b has no length.
func (b *Batch) Split(size int, shuffle bool, rng *rand.Rand) (iter.Seq[*Batch], error) {
	if size <= 0 {
		return nil, &Error{Kind: ErrValue, Msg: fmt.Sprintf("Split: size %d is not positive", size)}
	}
	if shuffle && rng == nil {
		return nil, &Error{Kind: ErrValue, Msg: "Split: shuffle needs a random source"}
	}
	n, err := b.Len()
	if err != nil {
		return nil, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if shuffle {
		// rng.Perm(n), the same draws without its call through a closure
		// per element.
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			order[i], order[j] = order[j], order[i]
		}
	}
	return func(yield func(*Batch) bool) {
		if n == 0 {
			return
		}
		all := Take(b, order)
		// The pieces' nodes, entries and array headers come from one tree.
		var t tree
		for i := 0; i < n; i += size {
			t.reserveIndex(all, []nd.Index{nd.Range(i, min(i+size, n))})
		}
		for i := 0; i < n; i += size {
			p, err := t.index(all, []nd.Index{nd.Range(i, min(i+size, n))})
			if err != nil {
				panic(err) // all has rows: Len succeeded on b
			}
			if !yield(p) {
				return
			}
		}
	}, nil
}
