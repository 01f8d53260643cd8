package batch

import (
	"iter"
	"reflect"
	"strings"

	"github.com/gorl/gorl/nd"
)

// Sep separates the keys of a nested key path: "obs.camera" is the key
// "camera" of the Batch stored under "obs". A key may not contain it.
const Sep = "."

// Batch is a tree of named values, Tianshou's Batch: each key maps to an
// *nd.Array, a nested *Batch (an empty one reserves the key), a custom
// Leaf, nil (None), or a scalar that is not a number (a string, or another
// Go value kept as it is). Keys keep their insertion order.
//
// The zero Batch is empty and ready to use. A Batch is not safe for
// concurrent use by several goroutines when one of them modifies it.
type Batch struct {
	ents []entry
}

type entry struct {
	key string
	val any
}

// checkKey reports whether key may be stored in a Batch.
func checkKey(key string) error {
	if key == "" {
		return &Error{Kind: ErrKey, Msg: "empty key"}
	}
	if strings.Contains(key, Sep) {
		return &Error{Kind: ErrKey, Msg: "key " + quote(key) + " contains the path separator " + quote(Sep)}
	}
	return nil
}

func quote(s string) string { return "\"" + s + "\"" }

// find returns the position of key in b, or -1.
func (b *Batch) find(key string) int {
	for i := range b.ents {
		if b.ents[i].key == key {
			return i
		}
	}
	return -1
}

// lookup returns the position of key, trying position hint first: trees
// built from one another keep their keys in the same order.
func (b *Batch) lookup(key string, hint int) int {
	if hint < len(b.ents) && b.ents[hint].key == key {
		return hint
	}
	return b.find(key)
}

// put sets key to an already converted value, appending a new key at the
// end.
func (b *Batch) put(key string, v any) {
	if i := b.find(key); i >= 0 {
		b.ents[i].val = v
		return
	}
	b.ents = append(b.ents, entry{key, v})
}

// newBatch returns an empty Batch with room for n keys. Small Batches are
// allocated together with their entries, one allocation instead of two:
// indexing a tree makes one Batch per node.
func newBatch(n int) *Batch {
	switch {
	case n <= 2:
		s := new(struct {
			b Batch
			e [2]entry
		})
		s.b.ents = s.e[:0]
		return &s.b
	case n <= 4:
		s := new(struct {
			b Batch
			e [4]entry
		})
		s.b.ents = s.e[:0]
		return &s.b
	case n <= 8:
		s := new(struct {
			b Batch
			e [8]entry
		})
		s.b.ents = s.e[:0]
		return &s.b
	}
	return &Batch{ents: make([]entry, 0, n)}
}

// sized returns a Batch with n zero entries, for filling by position.
func sized(n int) *Batch {
	b := newBatch(n)
	b.ents = b.ents[:n]
	return b
}

// NumKeys returns the number of keys of b (not counting nested keys).
func (b *Batch) NumKeys() int { return len(b.ents) }

// Keys returns b's keys in insertion order.
func (b *Batch) Keys() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, e := range b.ents {
			if !yield(e.key) {
				return
			}
		}
	}
}

// Values returns b's values in insertion order.
func (b *Batch) Values() iter.Seq[any] {
	return func(yield func(any) bool) {
		for _, e := range b.ents {
			if !yield(e.val) {
				return
			}
		}
	}
}

// Items returns b's keys and values in insertion order.
func (b *Batch) Items() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, e := range b.ents {
			if !yield(e.key, e.val) {
				return
			}
		}
	}
}

// Get returns the value at a key or a key path ("obs.camera") and whether
// it exists. The value is the stored one, not a copy: an *nd.Array or
// *Batch may be modified through it.
func (b *Batch) Get(keyPath string) (any, bool) {
	cur := b
	for {
		key, rest, nested := strings.Cut(keyPath, Sep)
		i := cur.find(key)
		if i < 0 {
			return nil, false
		}
		if !nested {
			return cur.ents[i].val, true
		}
		sub, ok := cur.ents[i].val.(*Batch)
		if !ok {
			return nil, false
		}
		cur, keyPath = sub, rest
	}
}

// Has reports whether a key or key path exists.
func (b *Batch) Has(keyPath string) bool {
	_, ok := b.Get(keyPath)
	return ok
}

// Array returns the array at a key or key path. It returns an error
// wrapping ErrKey if the path does not exist and ErrType if the value there
// is not an array.
func (b *Batch) Array(keyPath string) (*nd.Array, error) {
	v, ok := b.Get(keyPath)
	if !ok {
		return nil, &Error{Kind: ErrKey, Path: keyPath, Msg: "no such key"}
	}
	a, ok := v.(*nd.Array)
	if !ok {
		return nil, &Error{Kind: ErrType, Path: keyPath, Msg: "holds " + describe(v) + ", not an array"}
	}
	return a, nil
}

// Batch returns the nested Batch at a key or key path. It returns an error
// wrapping ErrKey if the path does not exist and ErrType if the value there
// is not a Batch.
func (b *Batch) Batch(keyPath string) (*Batch, error) {
	v, ok := b.Get(keyPath)
	if !ok {
		return nil, &Error{Kind: ErrKey, Path: keyPath, Msg: "no such key"}
	}
	s, ok := v.(*Batch)
	if !ok {
		return nil, &Error{Kind: ErrType, Path: keyPath, Msg: "holds " + describe(v) + ", not a Batch"}
	}
	return s, nil
}

// Values returns the elements of the array at a key path as a slice of its
// backing memory (nd.Data): writes through the slice change the Batch. T
// must be the array's element type (float32 for Float32, any for Object).
// It returns an error wrapping ErrKey if the path does not exist, and
// ErrType if the value is not an array, T does not match its dtype or the
// array is not contiguous (a strided view: Clone it first).
func Values[T any](b *Batch, keyPath string) ([]T, error) {
	a, err := b.Array(keyPath)
	if err != nil {
		return nil, err
	}
	if nd.DTypeOf[T]() != a.DType() {
		return nil, &Error{Kind: ErrType, Path: keyPath, Msg: "array of dtype " + a.DType().String() + " read as " + reflect.TypeFor[T]().String()}
	}
	if !a.IsContiguous() {
		return nil, &Error{Kind: ErrType, Path: keyPath, Msg: "array is not contiguous"}
	}
	return nd.Data[T](a), nil
}

// Set stores v at a key or key path after the automatic conversions of New.
// Nested Batches on the path are created when missing. It returns an error
// wrapping ErrKey for an invalid key and ErrType if a value on the path is
// not a Batch, and the conversion's error for a value that cannot be
// stored; b is unchanged then.
func (b *Batch) Set(keyPath string, v any) error {
	for rest := keyPath; ; {
		key, more, nested := strings.Cut(rest, Sep)
		if key == "" {
			return &Error{Kind: ErrKey, Msg: "empty key in key path " + quote(keyPath)}
		}
		if !nested {
			break
		}
		rest = more
	}
	cv, err := convert(v, false)
	if err != nil {
		return within(keyPath, err)
	}
	cur, rest := b, keyPath
	for {
		key, more, nested := strings.Cut(rest, Sep)
		if !nested {
			cur.put(key, cv)
			return nil
		}
		i := cur.find(key)
		if i < 0 {
			sub := &Batch{}
			cur.ents = append(cur.ents, entry{key, sub})
			cur, rest = sub, more
			continue
		}
		sub, ok := cur.ents[i].val.(*Batch)
		if !ok {
			at := keyPath[:len(keyPath)-len(more)-len(Sep)]
			return &Error{Kind: ErrType, Path: at, Msg: "holds " + describe(cur.ents[i].val) + ", not a Batch"}
		}
		cur, rest = sub, more
	}
}

// Update sets each key of alternating key, value arguments as Set does
// (Python's dict.update). It returns New's errors; the keys before a
// failing pair have been set.
func (b *Batch) Update(kv ...any) error {
	if len(kv)%2 != 0 {
		return &Error{Kind: ErrValue, Msg: "Update needs key, value pairs: odd number of arguments"}
	}
	for i := 0; i < len(kv); i += 2 {
		key, ok := kv[i].(string)
		if !ok {
			return &Error{Kind: ErrKey, Msg: "key " + describe(kv[i]) + " is not a string"}
		}
		if err := b.Set(key, kv[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// UpdateFrom sets every key of other in b, in other's order, keeping
// other's values (not copies).
func (b *Batch) UpdateFrom(other *Batch) {
	for _, e := range other.ents {
		b.put(e.key, e.val)
	}
}

// Delete removes a key or key path and reports whether it existed. The
// order of the other keys is kept.
func (b *Batch) Delete(keyPath string) bool {
	cur := b
	for {
		key, rest, nested := strings.Cut(keyPath, Sep)
		i := cur.find(key)
		if i < 0 {
			return false
		}
		if !nested {
			cur.ents = append(cur.ents[:i], cur.ents[i+1:]...)
			return true
		}
		sub, ok := cur.ents[i].val.(*Batch)
		if !ok {
			return false
		}
		cur, keyPath = sub, rest
	}
}

// IsEmpty reports whether b has no keys. With recurse, it reports whether
// b holds no value other than (recursively) empty Batches: Batch(a=Batch(),
// b=Batch(c=Batch())) is empty with recurse and not without.
func (b *Batch) IsEmpty(recurse bool) bool {
	if len(b.ents) == 0 {
		return true
	}
	if !recurse {
		return false
	}
	for _, e := range b.ents {
		sub, ok := e.val.(*Batch)
		if !ok || !sub.IsEmpty(true) {
			return false
		}
	}
	return true
}

// isReserved reports whether v is an empty Batch, the value that reserves
// a key.
func isReserved(v any) bool {
	s, ok := v.(*Batch)
	return ok && len(s.ents) == 0
}

// Len returns the batch size: the minimum length of the first axis over
// all arrays and custom leaves, recursively. Reserved keys, nil values and
// nested Batches that hold no array are ignored; a Batch with no array at
// all has length 0. Len returns an error wrapping ErrLen, naming the key, if
// a leaf has no batch axis: a 0-d array (a number), a string or another
// scalar, or a custom leaf with an empty batch shape.
func (b *Batch) Len() (int, error) {
	n, _, err := b.length()
	return n, err
}

func (b *Batch) length() (n int, found bool, err error) {
	for i := range b.ents {
		e := &b.ents[i]
		m := 0
		switch x := e.val.(type) {
		case nil:
			continue
		case *nd.Array:
			if x.Ndim() == 0 {
				return 0, false, errAt(ErrLen, e.key, x.String()+" has no length", nil)
			}
			m = x.Dim(0)
		case *Batch:
			var ok bool
			m, ok, err = x.length()
			if err != nil {
				return 0, false, within(e.key, err)
			}
			if !ok {
				continue
			}
		case Leaf:
			s := x.BatchShape()
			if len(s) == 0 {
				return 0, false, errAt(ErrLen, e.key, describe(x)+" has no batch axis", nil)
			}
			m = s[0]
		default:
			return 0, false, errAt(ErrLen, e.key, "scalar "+describe(x)+" has no length", nil)
		}
		if !found || m < n {
			n = m
		}
		found = true
	}
	return n, found, nil
}

// Shape returns the shape of b as Tianshou's Batch defines it: the shape of its
// only value, or the per-axis minimum over all values (arrays, nested
// Batches' shapes, custom leaves' batch shapes) truncated to the fewest
// axes. Anything without a shape (a scalar, nil, a reserved key) counts as
// shape [], so then Shape returns []; an empty Batch has shape [].
// Shape allocates the result.
func (b *Batch) Shape() []int {
	var out []int
	for i, e := range b.ents {
		var s []int
		switch x := e.val.(type) {
		case *nd.Array:
			s = x.Shape()
		case *Batch:
			s = x.Shape()
		case Leaf:
			s = x.BatchShape()
		}
		if i == 0 {
			out = append([]int{}, s...)
			continue
		}
		out = out[:min(len(out), len(s))]
		for k := range out {
			out[k] = min(out[k], s[k])
		}
	}
	if out == nil {
		out = []int{}
	}
	return out
}

// Clone returns a deep copy of b: new Batches, and a copy of every array
// (Object arrays copy their elements as Go values, sharing what they point
// to). Strings, other scalars and custom leaves are kept (they are treated
// as immutable).
func (b *Batch) Clone() *Batch {
	out := newBatch(len(b.ents))
	for _, e := range b.ents {
		out.ents = append(out.ents, entry{e.key, cloneValue(e.val)})
	}
	return out
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case *nd.Array:
		return x.Copy()
	case *Batch:
		return x.Clone()
	}
	return v
}

// Equal reports whether a and b hold the same keys (in any order) with
// equal values: arrays of the same dtype, shape and elements (nd.Equal: a
// NaN equals a NaN at the same place), equal nested Batches, equal scalars,
// nil with nil, and custom leaves compared as Leaf describes.
func Equal(a, b *Batch) bool {
	if len(a.ents) != len(b.ents) {
		return false
	}
	for i, e := range a.ents {
		j := b.lookup(e.key, i)
		if j < 0 || !equalValues(e.val, b.ents[j].val) {
			return false
		}
	}
	return true
}

func equalValues(x, y any) bool {
	switch x := x.(type) {
	case nil:
		return y == nil
	case *nd.Array:
		ya, ok := y.(*nd.Array)
		return ok && nd.Equal(x, ya)
	case *Batch:
		yb, ok := y.(*Batch)
		return ok && Equal(x, yb)
	case Leaf:
		yl, ok := y.(Leaf)
		if !ok {
			return false
		}
		if eq, ok := x.(leafEqualer); ok {
			return eq.Equal(yl)
		}
		return reflect.DeepEqual(x, yl)
	}
	return reflect.DeepEqual(x, y)
}
