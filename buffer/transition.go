package buffer

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// AttrKind is the kind of a Transition attribute (Machin's categories).
type AttrKind uint8

const (
	// Major attributes are named groups of arrays with batch size 1
	// (state, action, next_state).
	Major AttrKind = iota + 1
	// Sub attributes are scalars or arrays with batch size 1 (reward,
	// terminal); a scalar counts as an array of shape [1, 1].
	Sub
	// Custom attributes are any values that hold no arrays.
	Custom
)

func (k AttrKind) String() string {
	switch k {
	case Major:
		return "major"
	case Sub:
		return "sub"
	case Custom:
		return "custom"
	}
	return fmt.Sprintf("AttrKind(%d)", uint8(k))
}

// attr is one attribute of a Transition.
type attr struct {
	name  string
	kind  AttrKind
	major *batch.Batch // Major: arrays of batch size 1
	sub   *nd.Array    // Sub: shape [1, …]
	value any          // Custom
}

// Transition is one step of an MDP in Machin's form (its TransitionBase):
// major attributes, sub attributes and custom attributes, with batch size
// 1. Its values are copies of what it was made from; the accessors return
// them by reference.
type Transition struct {
	attrs []attr
}

// DefaultRequired are the attributes of Machin's default Transition, which
// NewDefaultTransition makes and Memory users usually require.
var DefaultRequired = []string{"state", "action", "next_state", "reward", "terminal"}

// NewTransition returns a Transition with the major attributes of major
// (each key a Batch of arrays whose first axis has length 1), the sub
// attributes of sub (each key a number or bool, stored as a [1, 1] array,
// or an array whose first axis has length 1) and the custom attributes of
// custom (values holding no arrays, taken in sorted key order). Arrays are
// copied and custom values deep-copied through slices, maps, arrays and
// pointers.
//
// It returns an error wrapping ErrType, naming the attribute, if a value
// breaks these rules (a major attribute that is not a Batch of arrays, a
// batch size other than 1, a string sub attribute, an array inside a
// custom value), and ErrKey if a name is used twice or is "*".
func NewTransition(major, sub *batch.Batch, custom map[string]any) (*Transition, error) {
	t := &Transition{}
	seen := map[string]bool{}
	name := func(n string) error {
		if n == "*" || seen[n] {
			return errorf(ErrKey, n, "Transition: attribute name used twice or reserved")
		}
		seen[n] = true
		return nil
	}
	if major != nil {
		for n, v := range major.Items() {
			if err := name(n); err != nil {
				return nil, err
			}
			g, ok := v.(*batch.Batch)
			if !ok {
				return nil, errorf(ErrType, n, "Transition: a major attribute must be a Batch of arrays, got "+describe(v))
			}
			cp := &batch.Batch{}
			for k, x := range g.Items() {
				a, ok := x.(*nd.Array)
				if !ok || a.Ndim() == 0 || a.Dim(0) != 1 {
					return nil, errorf(ErrType, n+batch.Sep+k, "Transition: a major attribute holds arrays with batch size 1, got "+describe(x))
				}
				cp.Set(k, a.Copy())
			}
			t.attrs = append(t.attrs, attr{name: n, kind: Major, major: cp})
		}
	}
	if sub != nil {
		for n, v := range sub.Items() {
			if err := name(n); err != nil {
				return nil, err
			}
			a, ok := v.(*nd.Array)
			switch {
			case !ok || a.DType() == nd.Object:
				return nil, errorf(ErrType, n, "Transition: a sub attribute is a number, a bool or a numeric array, got "+describe(v))
			case a.Ndim() == 0:
				a, _ = a.Reshape(1, 1)
			case a.Dim(0) != 1:
				return nil, errorf(ErrType, n, "Transition: a sub attribute array has batch size 1, got "+describe(v))
			}
			t.attrs = append(t.attrs, attr{name: n, kind: Sub, sub: a.Copy()})
		}
	}
	keys := make([]string, 0, len(custom))
	for k := range custom {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, n := range keys {
		if err := name(n); err != nil {
			return nil, err
		}
		v, err := deepCopy(reflect.ValueOf(custom[n]), n, 0)
		if err != nil {
			return nil, err
		}
		var x any
		if v.IsValid() {
			x = v.Interface()
		}
		t.attrs = append(t.attrs, attr{name: n, kind: Custom, value: x})
	}
	return t, nil
}

// NewDefaultTransition returns Machin's default Transition: state, action
// and next_state as major attributes, reward and terminal as sub
// attributes, and custom attributes; see NewTransition for the rules and
// errors.
func NewDefaultTransition(state, action, nextState *batch.Batch, reward, terminal any, custom map[string]any) (*Transition, error) {
	major, err := batch.New("state", state, "action", action, "next_state", nextState)
	if err != nil {
		return nil, &Error{Kind: ErrType, Msg: "Transition", Err: err}
	}
	sub, err := batch.New("reward", reward, "terminal", terminal)
	if err != nil {
		return nil, &Error{Kind: ErrType, Msg: "Transition", Err: err}
	}
	return NewTransition(major, sub, custom)
}

// maxCopyDepth bounds the nesting deepCopy follows (a cycle through
// pointers would otherwise not end).
const maxCopyDepth = 64

var (
	arrayType = reflect.TypeFor[*nd.Array]()
	batchType = reflect.TypeFor[*batch.Batch]()
	leafType  = reflect.TypeFor[batch.Leaf]()
)

// deepCopy copies v through slices, maps, arrays, pointers and interfaces,
// refusing arrays, Batches and custom leaves (a custom attribute holds no
// arrays).
func deepCopy(v reflect.Value, name string, depth int) (reflect.Value, error) {
	if !v.IsValid() {
		return v, nil
	}
	if depth > maxCopyDepth {
		return v, errorf(ErrType, name, "Transition: custom value nested too deeply")
	}
	t := v.Type()
	if t == arrayType || t == batchType || t.Implements(leafType) {
		return v, errorf(ErrType, name, "Transition: a custom attribute must hold no arrays, got "+t.String())
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, nil
		}
		e, err := deepCopy(v.Elem(), name, depth+1)
		if err != nil {
			return v, err
		}
		out := reflect.New(t).Elem()
		out.Set(e)
		return out, nil
	case reflect.Pointer:
		if v.IsNil() {
			return v, nil
		}
		e, err := deepCopy(v.Elem(), name, depth+1)
		if err != nil {
			return v, err
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(e)
		return out, nil
	case reflect.Slice:
		if v.IsNil() {
			return v, nil
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			e, err := deepCopy(v.Index(i), name, depth+1)
			if err != nil {
				return v, err
			}
			out.Index(i).Set(e)
		}
		return out, nil
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			e, err := deepCopy(v.Index(i), name, depth+1)
			if err != nil {
				return v, err
			}
			out.Index(i).Set(e)
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return v, nil
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		it := v.MapRange()
		for it.Next() {
			e, err := deepCopy(it.Value(), name, depth+1)
			if err != nil {
				return v, err
			}
			out.SetMapIndex(it.Key(), e)
		}
		return out, nil
	case reflect.Struct:
		for i := range v.NumField() {
			if _, err := deepCopy(v.Field(i), name, depth+1); err != nil {
				return v, err
			}
		}
	}
	return v, nil
}

// Keys returns the attribute names in order: major, sub, then custom.
func (t *Transition) Keys() []string {
	out := make([]string, len(t.attrs))
	for i := range t.attrs {
		out[i] = t.attrs[i].name
	}
	return out
}

func (t *Transition) find(name string) *attr {
	for i := range t.attrs {
		if t.attrs[i].name == name {
			return &t.attrs[i]
		}
	}
	return nil
}

// Kind returns the kind of the attribute name, or 0 if t has none.
func (t *Transition) Kind(name string) AttrKind {
	if a := t.find(name); a != nil {
		return a.kind
	}
	return 0
}

// Major returns the major attribute name (nil if t has no such major
// attribute): a Batch of arrays with batch size 1.
func (t *Transition) Major(name string) *batch.Batch {
	if a := t.find(name); a != nil && a.kind == Major {
		return a.major
	}
	return nil
}

// Sub returns the sub attribute name, an array of shape [1, …] (nil if t
// has no such sub attribute).
func (t *Transition) Sub(name string) *nd.Array {
	if a := t.find(name); a != nil && a.kind == Sub {
		return a.sub
	}
	return nil
}

// Custom returns the custom attribute name and whether t has it.
func (t *Transition) Custom(name string) (any, bool) {
	if a := t.find(name); a != nil && a.kind == Custom {
		return a.value, true
	}
	return nil, false
}

// sameAttrs reports whether t and o have the same attribute names and
// kinds, in any order.
func (t *Transition) sameAttrs(o *Transition) bool {
	if len(t.attrs) != len(o.attrs) {
		return false
	}
	for i := range t.attrs {
		if a := o.find(t.attrs[i].name); a == nil || a.kind != t.attrs[i].kind {
			return false
		}
	}
	return true
}
