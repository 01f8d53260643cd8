package env

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// DictEntry is one key of a Dict space and its sub-space.
type DictEntry struct {
	Key   string
	Space Space
}

// Dict is a space of named sub-spaces in a fixed order, Gymnasium's Dict.
// Its values are *batch.Batch with exactly its keys, each holding a value of
// the key's sub-space (a nested Batch for a nested Dict or Tuple).
type Dict struct {
	keys   []string
	spaces []Space
}

// NewDict returns the Dict of the entries, in their order. It returns an
// error wrapping ErrSpace if a key is empty, contains batch.Sep or repeats,
// or a space is nil.
func NewDict(entries ...DictEntry) (*Dict, error) {
	d := &Dict{}
	for _, e := range entries {
		switch {
		case e.Key == "" || strings.Contains(e.Key, batch.Sep):
			return nil, fmt.Errorf("%w: Dict key %q is empty or contains %q", ErrSpace, e.Key, batch.Sep)
		case d.index(e.Key) >= 0:
			return nil, fmt.Errorf("%w: Dict key %q repeats", ErrSpace, e.Key)
		case e.Space == nil:
			return nil, fmt.Errorf("%w: Dict key %q has no space", ErrSpace, e.Key)
		}
		d.keys = append(d.keys, e.Key)
		d.spaces = append(d.spaces, e.Space)
	}
	return d, nil
}

func (d *Dict) index(key string) int {
	for i, k := range d.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Keys returns the keys in order (a copy).
func (d *Dict) Keys() []string { return append([]string(nil), d.keys...) }

// Space returns the sub-space of key.
func (d *Dict) Space(key string) (Space, bool) {
	if i := d.index(key); i >= 0 {
		return d.spaces[i], true
	}
	return nil, false
}

// Shape returns nil: a Dict's values have no single shape.
func (d *Dict) Shape() []int { return nil }

// DType returns 0: a Dict's values have no single dtype.
func (d *Dict) DType() nd.DType { return 0 }

// Contains reports whether x is a *batch.Batch with exactly the Dict's keys
// (in any order) whose values are in their sub-spaces.
func (d *Dict) Contains(x any) bool { return containsAll(x, d.keys, d.spaces) }

// containsAll is Contains of Dict and Tuple.
func containsAll(x any, keys []string, spaces []Space) bool {
	b, ok := x.(*batch.Batch)
	if !ok || b.NumKeys() != len(keys) {
		return false
	}
	for i, k := range keys {
		v, ok := b.Get(k)
		if !ok || !spaces[i].Contains(v) {
			return false
		}
	}
	return true
}

// Sample returns a new Batch holding a sample of every sub-space.
func (d *Dict) Sample(rng *rand.Rand) any { return sampleAll(d.keys, d.spaces, rng) }

func sampleAll(keys []string, spaces []Space, rng *rand.Rand) *batch.Batch {
	b := &batch.Batch{}
	for i, k := range keys {
		if err := b.Set(k, spaces[i].Sample(rng)); err != nil {
			panic(err) // keys were checked by the constructor
		}
	}
	return b
}

// SampleTo fills every value of dst, a Batch holding the Dict's keys, with
// its sub-space's SampleTo (so its arrays may have leading batch axes). It
// panics with an *nd.Error wrapping nd.ErrShape if dst is not such a Batch.
func (d *Dict) SampleTo(dst any, rng *rand.Rand) { sampleAllTo(d, dst, d.keys, d.spaces, rng) }

func sampleAllTo(s Space, dst any, keys []string, spaces []Space, rng *rand.Rand) {
	b, ok := dst.(*batch.Batch)
	if !ok {
		panic(&nd.Error{Kind: nd.ErrShape, Msg: fmt.Sprintf("%v.SampleTo: destination is a %T, not a *batch.Batch", s, dst)})
	}
	for i, k := range keys {
		v, ok := b.Get(k)
		if !ok {
			panic(&nd.Error{Kind: nd.ErrShape, Msg: fmt.Sprintf("%v.SampleTo: destination has no key %q", s, k)})
		}
		spaces[i].SampleTo(v, rng)
	}
}

// Equal reports whether other is a Dict with the same keys (in any order,
// as Gymnasium compares them) and equal sub-spaces.
func (d *Dict) Equal(other Space) bool {
	o, ok := other.(*Dict)
	if !ok || len(o.keys) != len(d.keys) {
		return false
	}
	for i, k := range d.keys {
		s, ok := o.Space(k)
		if !ok || !s.Equal(d.spaces[i]) {
			return false
		}
	}
	return true
}

// String returns Gymnasium's repr: "Dict('pos': Box(…), 'id': Discrete(3))".
func (d *Dict) String() string {
	parts := make([]string, len(d.keys))
	for i, k := range d.keys {
		parts[i] = "'" + k + "': " + d.spaces[i].String()
	}
	return "Dict(" + strings.Join(parts, ", ") + ")"
}

// Tuple is a space of sub-spaces in a fixed order, Gymnasium's Tuple. Its
// values are *batch.Batch with the keys "0", "1", … (the positions), each
// holding a value of that sub-space, so that they stack like Dict values.
type Tuple struct {
	keys   []string
	spaces []Space
}

// NewTuple returns the Tuple of spaces. It returns an error wrapping
// ErrSpace if a space is nil.
func NewTuple(spaces ...Space) (*Tuple, error) {
	t := &Tuple{}
	for i, s := range spaces {
		if s == nil {
			return nil, fmt.Errorf("%w: Tuple element %d has no space", ErrSpace, i)
		}
		t.keys = append(t.keys, strconv.Itoa(i))
		t.spaces = append(t.spaces, s)
	}
	return t, nil
}

// Spaces returns the sub-spaces in order (a copy of the slice).
func (t *Tuple) Spaces() []Space { return append([]Space(nil), t.spaces...) }

// Shape returns nil: a Tuple's values have no single shape.
func (t *Tuple) Shape() []int { return nil }

// DType returns 0: a Tuple's values have no single dtype.
func (t *Tuple) DType() nd.DType { return 0 }

// Contains reports whether x is a *batch.Batch with exactly the keys "0",
// "1", … whose values are in their sub-spaces.
func (t *Tuple) Contains(x any) bool { return containsAll(x, t.keys, t.spaces) }

// Sample returns a new Batch holding a sample of every sub-space.
func (t *Tuple) Sample(rng *rand.Rand) any { return sampleAll(t.keys, t.spaces, rng) }

// SampleTo fills every value of dst, a Batch with the keys "0", "1", …,
// with its sub-space's SampleTo. It panics with an *nd.Error wrapping
// nd.ErrShape if dst is not such a Batch.
func (t *Tuple) SampleTo(dst any, rng *rand.Rand) { sampleAllTo(t, dst, t.keys, t.spaces, rng) }

// Equal reports whether other is a Tuple of equal sub-spaces.
func (t *Tuple) Equal(other Space) bool {
	o, ok := other.(*Tuple)
	if !ok || len(o.spaces) != len(t.spaces) {
		return false
	}
	for i, s := range t.spaces {
		if !s.Equal(o.spaces[i]) {
			return false
		}
	}
	return true
}

// String returns Gymnasium's repr: "Tuple(Discrete(2), Box(…))".
func (t *Tuple) String() string {
	parts := make([]string, len(t.spaces))
	for i, s := range t.spaces {
		parts[i] = s.String()
	}
	return "Tuple(" + strings.Join(parts, ", ") + ")"
}
