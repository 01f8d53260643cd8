package collector

import (
	"fmt"
	"math"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// infoTable turns the Infos of up to n envs into a Batch with one row per
// env, Tianshou's stacking of info dicts: each key becomes an array of n
// rows (see kindOf for the dtypes), nested Infos become nested Batches, and
// a row whose Info lacks a key holds zero (nil for Object arrays). Every
// row also holds "env_id", the env's id (an Int64 column written after the
// Info, replacing an env's own "env_id"), as Tianshou's vector envs add it
// to every Info. The schema grows as keys appear and is never shrunk, so
// the Batches it returns keep one structure once every key has been seen.
type infoTable struct {
	n     int
	root  infoNode
	gen   uint32         // fill generation, marks the rows written
	views []*batch.Batch // views[k]: the first k rows; nil when stale
	envID *infoNode      // the "env_id" column
}

type infoKind uint8

const (
	infoNested infoKind = iota
	infoBool
	infoInt
	infoFloat
	infoObject
	infoArray
)

// infoNode is one key of the table: a column of n rows, or a nested table.
type infoNode struct {
	key  string
	kind infoKind
	arr  *nd.Array // the column, [n, row…]
	b    []bool
	i    []int64
	f    []float64
	o    []any
	row  int // elements per row, for infoArray
	seen []uint32
	kids []*infoNode
}

func newInfoTable(n int) *infoTable {
	t := &infoTable{n: n, views: make([]*batch.Batch, n+1)}
	t.envID, _ = t.newNode(batch.KeyEnvID, 0) // a valid key
	t.root.kids = append(t.root.kids, t.envID)
	return t
}

// fill writes infos[j], the Info of env ids[j], into row j and returns a
// Batch of the first len(infos) rows, valid until the next fill. An Info
// value that does not fit its key's column (a float where integers are
// kept, an array of another shape, a map where numbers are kept) is an
// error naming the env and the key; the table's rows are then partly
// written.
func (t *infoTable) fill(infos []env.Info, ids []int) (*batch.Batch, error) {
	t.gen++
	for j, info := range infos {
		if err := t.fillMap(&t.root, j, info); err != nil {
			return nil, fmt.Errorf("env %d: info %w", ids[j], err)
		}
	}
	for j, id := range ids[:len(infos)] {
		t.envID.i[j] = int64(id)
		t.envID.seen[j] = t.gen
	}
	t.root.zeroUnseen(len(infos), t.gen)
	return t.view(len(infos)), nil
}

func (t *infoTable) fillMap(node *infoNode, j int, m map[string]any) error {
	for key, v := range m {
		if v == nil || (node == &t.root && key == batch.KeyEnvID) {
			continue // the collector writes env_id
		}
		kid := node.child(key)
		if kid == nil {
			var err error
			if kid, err = t.newNode(key, v); err != nil {
				return fmt.Errorf("key %s: %w", key, err)
			}
			node.kids = append(node.kids, kid)
			clear(t.views)
		}
		if err := t.set(kid, j, v); err != nil {
			return fmt.Errorf("key %s: %w", key, err)
		}
	}
	return nil
}

func (n *infoNode) child(key string) *infoNode {
	for _, k := range n.kids {
		if k.key == key {
			return k
		}
	}
	return nil
}

// kindOf returns the column kind of an Info value: bool → Bool, Go's
// integer types → Int64, float32 and float64 → Float64, *nd.Array → an
// array of its dtype and shape per row, env.Info and map[string]any → a
// nested Batch, anything else (strings, structs such as env.EpisodeStats,
// named numeric types) → Object.
func kindOf(v any) infoKind {
	switch v.(type) {
	case bool:
		return infoBool
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return infoInt
	case float32, float64:
		return infoFloat
	case *nd.Array:
		return infoArray
	case env.Info, map[string]any:
		return infoNested
	}
	return infoObject
}

func (t *infoTable) newNode(key string, v any) (*infoNode, error) {
	if key == "" || strings.Contains(key, batch.Sep) {
		return nil, fmt.Errorf("cannot be a Batch key (empty, or holding %q)", batch.Sep)
	}
	k := &infoNode{key: key, kind: kindOf(v), seen: make([]uint32, t.n)}
	switch k.kind {
	case infoBool:
		k.arr = nd.Zeros(nd.Bool, t.n)
		k.b = nd.Data[bool](k.arr)
	case infoInt:
		k.arr = nd.Zeros(nd.Int64, t.n)
		k.i = nd.Data[int64](k.arr)
	case infoFloat:
		k.arr = nd.Zeros(nd.Float64, t.n)
		k.f = nd.Data[float64](k.arr)
	case infoObject:
		k.arr = nd.Zeros(nd.Object, t.n)
		k.o = nd.Data[any](k.arr)
	case infoArray:
		a := v.(*nd.Array)
		k.arr = nd.Zeros(a.DType(), append([]int{t.n}, a.Shape()...)...)
		k.row = a.Size()
	}
	return k, nil
}

// set writes v into row j of node k.
func (t *infoTable) set(k *infoNode, j int, v any) error {
	k.seen[j] = t.gen
	bad := func() error {
		return fmt.Errorf("a %T does not fit the %s kept for this key", v, k.describe())
	}
	switch k.kind {
	case infoNested:
		switch m := v.(type) {
		case env.Info:
			return t.fillMap(k, j, m)
		case map[string]any:
			return t.fillMap(k, j, m)
		}
		return bad()
	case infoBool:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		k.b[j] = b
	case infoInt:
		i, ok := asInt(v)
		if !ok {
			return bad()
		}
		k.i[j] = i
	case infoFloat:
		f, ok := asFloat(v)
		if !ok {
			return bad()
		}
		k.f[j] = f
	case infoObject:
		k.o[j] = v
	case infoArray:
		a, ok := v.(*nd.Array)
		if !ok || a.Size() != k.row || a.Ndim() != k.arr.Ndim()-1 {
			return bad()
		}
		for i := 0; i < a.Ndim(); i++ {
			if a.Dim(i) != k.arr.Dim(i+1) {
				return bad()
			}
		}
		if a.DType() == k.arr.DType() && a.IsContiguous() {
			copyElems(k.arr, j*k.row, a) // SetRow would allocate a row view
			return nil
		}
		return k.arr.SetRow(j, a)
	}
	return nil
}

// copyElems copies the elements of src, contiguous and of dst's dtype,
// into dst's elements from offset off.
func copyElems(dst *nd.Array, off int, src *nd.Array) {
	n := src.Size()
	switch dst.DType() {
	case nd.Bool:
		copy(nd.Data[bool](dst)[off:off+n], nd.Data[bool](src))
	case nd.Int8:
		copy(nd.Data[int8](dst)[off:off+n], nd.Data[int8](src))
	case nd.Int16:
		copy(nd.Data[int16](dst)[off:off+n], nd.Data[int16](src))
	case nd.Int32:
		copy(nd.Data[int32](dst)[off:off+n], nd.Data[int32](src))
	case nd.Int64:
		copy(nd.Data[int64](dst)[off:off+n], nd.Data[int64](src))
	case nd.Uint8:
		copy(nd.Data[uint8](dst)[off:off+n], nd.Data[uint8](src))
	case nd.Uint16:
		copy(nd.Data[uint16](dst)[off:off+n], nd.Data[uint16](src))
	case nd.Uint32:
		copy(nd.Data[uint32](dst)[off:off+n], nd.Data[uint32](src))
	case nd.Uint64:
		copy(nd.Data[uint64](dst)[off:off+n], nd.Data[uint64](src))
	case nd.Float32:
		copy(nd.Data[float32](dst)[off:off+n], nd.Data[float32](src))
	case nd.Float64:
		copy(nd.Data[float64](dst)[off:off+n], nd.Data[float64](src))
	case nd.Object:
		copy(nd.Data[any](dst)[off:off+n], nd.Data[any](src))
	}
}

func (k *infoNode) describe() string {
	switch k.kind {
	case infoNested:
		return "nested Info"
	case infoArray:
		return fmt.Sprintf("%v arrays of shape %v", k.arr.DType(), k.arr.Shape()[1:])
	}
	return k.arr.DType().String() + " values"
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return int64(x), uint64(x) <= math.MaxInt64
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(x), x <= math.MaxInt64
	}
	return 0, false
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	if i, ok := asInt(v); ok {
		return float64(i), true
	}
	return 0, false
}

// zeroUnseen zeroes rows j < k not written by fill generation gen.
func (n *infoNode) zeroUnseen(k int, gen uint32) {
	for _, kid := range n.kids {
		if kid.kind == infoNested {
			kid.zeroUnseen(k, gen)
			continue
		}
		for j := 0; j < k; j++ {
			if kid.seen[j] == gen {
				continue
			}
			switch kid.kind {
			case infoBool:
				kid.b[j] = false
			case infoInt:
				kid.i[j] = 0
			case infoFloat:
				kid.f[j] = 0
			case infoObject:
				kid.o[j] = nil
			case infoArray:
				zeroRows(kid.arr, []int{j})
			}
		}
	}
}

// view returns the Batch of the first k rows, building it after a schema
// change.
func (t *infoTable) view(k int) *batch.Batch {
	if t.views[k] == nil {
		t.views[k] = t.root.batch(k)
	}
	return t.views[k]
}

func (n *infoNode) batch(k int) *batch.Batch {
	b := &batch.Batch{}
	for _, kid := range n.kids {
		var v any
		if kid.kind == infoNested {
			v = kid.batch(k)
		} else {
			v = kid.arr.Index(nd.To(k))
		}
		if err := b.Set(kid.key, v); err != nil {
			panic(err) // keys come from maps and are checked when first seen
		}
	}
	return b
}
