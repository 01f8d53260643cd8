package buffer

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/internal/hdf5"
	"github.com/gorl/gorl/nd"
)

// ErrNoHDF5 is wrapped by SaveHDF5 and LoadHDF5 in a build without HDF5
// support: the HDF5 binding needs cgo and the build tag hdf5 (with
// Debian's libhdf5-dev installed).
var ErrNoHDF5 = errors.New("buffer: built without HDF5 support (build with cgo and -tags hdf5)")

// HDF5 layout: root attributes "format" ("gorl buffer"), "version" (1),
// "kind" (Tianshou's class name), the Config fields, the sub-buffer states
// as 1-d arrays "sub_size", "sub_len", "sub_next", "sub_last",
// "sub_ep_len", "sub_ep_start" and "sub_ep_return", and for prioritized
// and hindsight buffers their settings; a group "data" holding the
// storage, one group per Batch key and one dataset per array (Cap() rows),
// each group listing its keys in order in the attribute "keys"; and for a
// prioritized buffer a dataset "priority". Object arrays of strings are
// string datasets, with a bool dataset "<key>.none" marking nil elements
// (a Batch key cannot contain a dot).
const hdf5Format = "gorl buffer"

var kindNames = map[bufKind]string{
	kindReplay: "ReplayBuffer", kindVector: "VectorReplayBuffer", kindCached: "CachedReplayBuffer",
	kindPrioritized: "PrioritizedReplayBuffer", kindPrioritizedVector: "PrioritizedVectorReplayBuffer",
	kindHER: "HERReplayBuffer", kindHERVector: "HERVectorReplayBuffer",
}

func hdf5Error(op, path string, err error) error {
	if errors.Is(err, hdf5.ErrUnsupported) {
		return &Error{Kind: ErrNoHDF5, Msg: op, Err: err}
	}
	return &Error{Kind: ErrFormat, Path: path, Msg: op, Err: err}
}

// SaveHDF5 writes the buffer to an HDF5 file at path (Tianshou's
// save_hdf5): every stored array as a dataset, Batch keys as groups, and
// the buffer's settings and ring state as attributes (see the package
// documentation). h5py reads it. It returns an error wrapping ErrNoHDF5
// without HDF5 support, ErrFormat naming the key for an Object array
// holding other values than strings and nil, and the file's errors.
func (c *core) SaveHDF5(path string) error {
	c.restoreHER()
	if kindNames[c.kind] == "" {
		return errorf(ErrFormat, "", "SaveHDF5: buffer was not made by a constructor of this package")
	}
	var check func(n *node) error
	check = func(n *node) error {
		if n.col != nil {
			_, _, err := hdf5Column(n.col)
			return err
		}
		for _, k := range n.kids {
			if err := check(k); err != nil {
				return err
			}
		}
		return nil
	}
	if err := check(&c.root); err != nil {
		return err
	}
	f, err := hdf5.Create(path)
	if err != nil {
		return hdf5Error("SaveHDF5", "", err)
	}
	err = c.writeHDF5(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = hdf5Error("SaveHDF5", "", cerr)
	}
	return err
}

func (c *core) writeHDF5(f *hdf5.File) error {
	root := f.Root()
	ints := func(get func(s *sub) int) []int64 {
		out := make([]int64, len(c.subs))
		for i := range c.subs {
			out[i] = int64(get(&c.subs[i]))
		}
		return out
	}
	rets := make([]float64, len(c.subs))
	for i := range c.subs {
		rets[i] = c.subs[i].epRet
	}
	attrs := []struct {
		name string
		v    any
	}{
		{"format", hdf5Format}, {"version", int64(fileVersion)}, {"kind", kindNames[c.kind]},
		{"size", int64(c.cfg.Size)}, {"stack_num", int64(c.cfg.StackNum)},
		{"ignore_obs_next", c.cfg.IgnoreObsNext}, {"save_only_last_obs", c.cfg.SaveOnlyLastObs}, {"sample_avail", c.cfg.SampleAvail},
		{"sub_size", ints(func(s *sub) int { return s.size })}, {"sub_len", ints(func(s *sub) int { return s.n })},
		{"sub_next", ints(func(s *sub) int { return s.next })}, {"sub_last", ints(func(s *sub) int { return s.last })},
		{"sub_ep_len", ints(func(s *sub) int { return s.epLen })}, {"sub_ep_start", ints(func(s *sub) int { return s.epStart })},
		{"sub_ep_return", rets},
	}
	if p := c.prio; p != nil {
		attrs = append(attrs, []struct {
			name string
			v    any
		}{{"alpha", p.alpha}, {"beta", p.beta}, {"weight_norm", p.norm}, {"max_priority", p.maxPrio}}...)
	}
	if h := c.her; h != nil {
		attrs = append(attrs, []struct {
			name string
			v    any
		}{{"horizon", int64(h.horizon)}, {"future_k", h.futureK}}...)
	}
	for _, a := range attrs {
		if err := root.SetAttr(a.name, a.v); err != nil {
			return hdf5Error("SaveHDF5", "", err)
		}
	}
	g, err := root.CreateGroup("data")
	if err != nil {
		return hdf5Error("SaveHDF5", "", err)
	}
	if err := writeGroup(g, &c.root); err != nil {
		return err
	}
	if c.prio != nil {
		leaves := make([]float64, c.total)
		for i := range leaves {
			leaves[i] = c.prio.tree.Get(i)
		}
		if _, err := root.WriteDataset("priority", leaves, []int{c.total}); err != nil {
			return hdf5Error("SaveHDF5", "", err)
		}
	}
	return nil
}

// hdf5Column returns a column's elements as a slice the binding writes
// (strings for Object columns) and, for Object columns holding nil, the
// nil mask.
func hdf5Column(col *column) (data any, none []bool, err error) {
	if col.arr.DType() != nd.Object {
		return col.st.elems(), nil, nil
	}
	el := col.st.elems().([]any)
	strs := make([]string, len(el))
	for i, v := range el {
		switch x := v.(type) {
		case string:
			strs[i] = x
		case nil:
			if none == nil {
				none = make([]bool, len(el))
			}
			none[i] = true
		default:
			return nil, nil, errorf(ErrFormat, col.path, fmt.Sprintf("SaveHDF5: an Object array holding %s is not supported (only strings and nil)", describe(v)))
		}
	}
	return strs, none, nil
}

func writeGroup(g *hdf5.Group, n *node) error {
	if len(n.kids) > 0 {
		keys := make([]string, len(n.kids))
		for i, k := range n.kids {
			keys[i] = k.key
		}
		if err := g.SetAttr("keys", keys); err != nil {
			return hdf5Error("SaveHDF5", n.path, err)
		}
	}
	for _, k := range n.kids {
		if k.col == nil {
			sub, err := g.CreateGroup(k.key)
			if err != nil {
				return hdf5Error("SaveHDF5", k.path, err)
			}
			if err := writeGroup(sub, k); err != nil {
				return err
			}
			continue
		}
		data, none, err := hdf5Column(k.col)
		if err != nil {
			return err
		}
		shape := k.col.arr.Shape()
		if _, err := g.WriteDataset(k.key, data, shape); err != nil {
			return hdf5Error("SaveHDF5", k.path, err)
		}
		if none != nil {
			if _, err := g.WriteDataset(k.key+".none", none, shape); err != nil {
				return hdf5Error("SaveHDF5", k.path, err)
			}
		}
	}
	return nil
}

// LoadHDF5 reads a buffer that SaveHDF5 wrote (Tianshou's load_hdf5) and
// returns it as the saved type, as Load does. It returns an error wrapping
// ErrNoHDF5 without HDF5 support and ErrFormat, naming what is wrong, for a
// file that is not such a buffer or is inconsistent.
func LoadHDF5(path string) (Buffer, error) {
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, hdf5Error("LoadHDF5", "", err)
	}
	defer f.Close()
	root := f.Root()
	a := attrReader{g: root}
	if a.str("format") != hdf5Format {
		if a.err == nil {
			a.err = errorf(ErrFormat, "", "LoadHDF5: not a gorl buffer file")
		}
		return nil, a.err
	}
	if v := a.int("version"); a.err == nil && v != fileVersion {
		return nil, errorf(ErrFormat, "", fmt.Sprintf("LoadHDF5: version %d, this package reads version %d", v, fileVersion))
	}
	m := &fileMeta{}
	name := a.str("kind")
	for k, n := range kindNames {
		if n == name {
			m.kind = k
		}
	}
	if a.err == nil && m.kind == 0 {
		return nil, errorf(ErrFormat, "", fmt.Sprintf("LoadHDF5: unknown buffer kind %q", name))
	}
	m.cfg = Config{Size: int(a.int("size")), StackNum: int(a.int("stack_num")),
		IgnoreObsNext: a.bool("ignore_obs_next"), SaveOnlyLastObs: a.bool("save_only_last_obs"), SampleAvail: a.bool("sample_avail")}
	cols := [][]int64{a.ints("sub_size"), a.ints("sub_len"), a.ints("sub_next"), a.ints("sub_last"), a.ints("sub_ep_len"), a.ints("sub_ep_start")}
	rets := a.floats("sub_ep_return")
	if a.err != nil {
		return nil, a.err
	}
	for _, col := range cols {
		if len(col) != len(rets) {
			return nil, errorf(ErrFormat, "", "LoadHDF5: sub-buffer attributes of different lengths")
		}
	}
	for i := range rets {
		m.subs = append(m.subs, sub{size: int(cols[0][i]), n: int(cols[1][i]), next: int(cols[2][i]), last: int(cols[3][i]),
			epLen: int(cols[4][i]), epStart: int(cols[5][i]), epRet: rets[i]})
	}
	switch m.kind {
	case kindPrioritized, kindPrioritizedVector:
		m.prio = &PriorityConfig{Alpha: a.float("alpha"), Beta: a.float("beta"), WeightNorm: a.bool("weight_norm")}
		m.max = a.float("max_priority")
	case kindHER, kindHERVector:
		m.her = &HERConfig{Horizon: int(a.int("horizon")), FutureK: a.float("future_k")}
	}
	if a.err != nil {
		return nil, a.err
	}
	if err := m.check(); err != nil {
		return nil, &Error{Kind: ErrFormat, Msg: "LoadHDF5", Err: err}
	}
	total := 0
	for _, s := range m.sizes {
		total += s
	}
	// Priorities first: the dataset, which the binding reads only if the
	// file holds it, justifies the tree.
	var leaves []float64
	if m.prio != nil {
		data, shape, err := root.ReadDataset("priority")
		if err != nil {
			return nil, hdf5Error("LoadHDF5", "priority", err)
		}
		l, ok := data.([]float64)
		if !ok || !slices.Equal(shape, []int{total}) {
			return nil, errorf(ErrFormat, "priority", fmt.Sprintf("LoadHDF5: priorities of shape %v, want [%d] float64", shape, total))
		}
		leaves = l
	}
	g, err := root.OpenGroup("data")
	if err != nil {
		return nil, hdf5Error("LoadHDF5", "data", err)
	}
	type loaded struct {
		path string
		arr  *nd.Array
	}
	var arrays []loaded
	schema, err := readGroup(g, "", 0, total, func(path string, arr *nd.Array) { arrays = append(arrays, loaded{path, arr}) })
	if err != nil {
		return nil, err
	}
	c, err := m.build()
	if err != nil {
		return nil, err
	}
	if err := c.buildSchema(schema); err != nil {
		return nil, err
	}
	for _, l := range arrays {
		col, _ := c.columnAt(l.path)
		if err := nd.CopyTo(col.arr, l.arr); err != nil {
			return nil, &Error{Kind: ErrFormat, Path: l.path, Msg: "LoadHDF5", Err: err}
		}
	}
	for i, v := range leaves {
		if v == 0 {
			continue
		}
		if err := c.prio.tree.Set(i, v); err != nil {
			return nil, &Error{Kind: ErrFormat, Path: "priority", Msg: fmt.Sprintf("LoadHDF5: priority of index %d", i), Err: err}
		}
	}
	return c.wrap(), nil
}

// readGroup reads the storage group g into a schema, passing each array
// (Cap() rows) to put.
func readGroup(g *hdf5.Group, path string, depth, total int, put func(string, *nd.Array)) (*schemaNode, error) {
	n := &schemaNode{kind: nodeBatch, path: path}
	if depth > maxDepth {
		return nil, errorf(ErrFormat, path, "LoadHDF5: groups nested too deeply")
	}
	members, err := g.Members()
	if err != nil {
		return nil, hdf5Error("LoadHDF5", path, err)
	}
	kinds := map[string]hdf5.Kind{}
	for _, m := range members {
		kinds[m.Name] = m.Kind
	}
	var keys []string
	if len(members) > 0 {
		a := attrReader{g: g}
		keys = a.strs("keys")
		if a.err != nil {
			return nil, a.err
		}
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + batch.Sep + k
	}
	seen := 0
	for _, k := range keys {
		p := join(k)
		if k == "" || indexSep(k) >= 0 || slices.Contains(keys[:seen], k) {
			return nil, errorf(ErrFormat, p, "LoadHDF5: bad or repeated key")
		}
		seen++
		kn := &schemaNode{key: k, path: p}
		switch kinds[k] {
		case hdf5.KindGroup:
			sg, err := g.OpenGroup(k)
			if err != nil {
				return nil, hdf5Error("LoadHDF5", p, err)
			}
			sub, err := readGroup(sg, p, depth+1, total, put)
			if err != nil {
				return nil, err
			}
			kn.kids = sub.kids
			kn.kind = nodeBatch
			if len(kn.kids) == 0 {
				kn.kind = nodeReserved
			}
		case hdf5.KindDataset:
			arr, err := readColumn(g, k, p, total, kinds)
			if err != nil {
				return nil, err
			}
			kn.kind, kn.dt, kn.row = nodeColumn, arr.DType(), arr.Shape()[1:]
			put(p, arr)
		default:
			return nil, errorf(ErrFormat, p, "LoadHDF5: key listed but not stored as a group or dataset")
		}
		n.kids = append(n.kids, kn)
	}
	// Every member is a listed key or a nil mask.
	for _, m := range members {
		if !slices.Contains(keys, m.Name) && !(len(m.Name) > 5 && m.Name[len(m.Name)-5:] == ".none" && kinds[m.Name[:len(m.Name)-5]] == hdf5.KindDataset) {
			return nil, errorf(ErrFormat, join(m.Name), "LoadHDF5: member not listed in the group's keys")
		}
	}
	return n, nil
}

// readColumn reads a dataset of Cap() rows as an array.
func readColumn(g *hdf5.Group, key, path string, total int, kinds map[string]hdf5.Kind) (*nd.Array, error) {
	data, shape, err := g.ReadDataset(key)
	if err != nil {
		return nil, hdf5Error("LoadHDF5", path, err)
	}
	if len(shape) == 0 || shape[0] != total {
		return nil, errorf(ErrFormat, path, fmt.Sprintf("LoadHDF5: dataset of shape %v, want %d rows", shape, total))
	}
	var arr *nd.Array
	if strs, ok := data.([]string); ok {
		el := make([]any, len(strs))
		for i, s := range strs {
			el[i] = s
		}
		if kinds[key+".none"] == hdf5.KindDataset {
			m, mshape, err := g.ReadDataset(key + ".none")
			if err != nil {
				return nil, hdf5Error("LoadHDF5", path, err)
			}
			none, ok := m.([]bool)
			if !ok || !slices.Equal(mshape, shape) {
				return nil, errorf(ErrFormat, path, "LoadHDF5: nil mask of another type or shape")
			}
			for i, isNone := range none {
				if isNone {
					el[i] = nil
				}
			}
		}
		arr, err = nd.FromSlice(el, shape...)
	} else {
		arr, err = fromSlice(data, shape)
	}
	if err != nil {
		return nil, &Error{Kind: ErrFormat, Path: path, Msg: "LoadHDF5", Err: err}
	}
	return arr, nil
}

func fromSlice(data any, shape []int) (*nd.Array, error) {
	switch s := data.(type) {
	case []bool:
		return nd.FromSlice(s, shape...)
	case []int8:
		return nd.FromSlice(s, shape...)
	case []int16:
		return nd.FromSlice(s, shape...)
	case []int32:
		return nd.FromSlice(s, shape...)
	case []int64:
		return nd.FromSlice(s, shape...)
	case []uint8:
		return nd.FromSlice(s, shape...)
	case []uint16:
		return nd.FromSlice(s, shape...)
	case []uint32:
		return nd.FromSlice(s, shape...)
	case []uint64:
		return nd.FromSlice(s, shape...)
	case []float32:
		return nd.FromSlice(s, shape...)
	case []float64:
		return nd.FromSlice(s, shape...)
	}
	return nil, fmt.Errorf("unsupported element type %T", data)
}

// attrReader reads attributes with a sticky error.
type attrReader struct {
	g   *hdf5.Group
	err error
}

func (a *attrReader) get(name string) any {
	if a.err != nil {
		return nil
	}
	v, err := a.g.Attr(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			a.err = errorf(ErrFormat, a.g.Path(), fmt.Sprintf("LoadHDF5: missing attribute %q", name))
		} else {
			a.err = hdf5Error("LoadHDF5", a.g.Path(), err)
		}
	}
	return v
}

func attrAs[T any](a *attrReader, name string) T {
	v := a.get(name)
	x, ok := v.(T)
	if !ok && a.err == nil {
		var z T
		a.err = errorf(ErrFormat, a.g.Path(), fmt.Sprintf("LoadHDF5: attribute %q is %T, want %T", name, v, z))
	}
	return x
}

func (a *attrReader) str(name string) string       { return attrAs[string](a, name) }
func (a *attrReader) strs(name string) []string    { return attrAs[[]string](a, name) }
func (a *attrReader) int(name string) int64        { return attrAs[int64](a, name) }
func (a *attrReader) ints(name string) []int64     { return attrAs[[]int64](a, name) }
func (a *attrReader) float(name string) float64    { return attrAs[float64](a, name) }
func (a *attrReader) floats(name string) []float64 { return attrAs[[]float64](a, name) }
func (a *attrReader) bool(name string) bool        { return attrAs[bool](a, name) }
