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

// The D4RL layout (also Minari's flat one): datasets of N rows at the root
// of an HDF5 file,
//
//	observations        [N, …]  obs
//	actions             [N, …]  act (env actions)
//	rewards             [N]     rew (or [N, 1])
//	terminals           [N]     terminated (or "terminations"; bool or ≠ 0)
//	timeouts            [N]     truncated (or "truncations")
//	next_observations   [N, …]  obs_next (optional)
//	infos/NAME          [N, …]  info/NAME (optional, numbers or bools)
//
// in time order, episodes one after the other: an episode ends at a row
// that is terminal or a timeout. Minari's files hold the same columns per
// episode, in groups episode_0, episode_1, … (see loadMinari).
const (
	d4rlObs     = "observations"
	d4rlAct     = "actions"
	d4rlRew     = "rewards"
	d4rlTerm    = "terminals"
	d4rlTimeout = "timeouts"
	d4rlNext    = "next_observations"
	d4rlInfos   = "infos"
)

// SaveD4RL writes every transition of b, in time order sub-buffer after
// sub-buffer, to a new HDF5 file at path in the D4RL layout: obs, act, rew,
// terminated, truncated, obs_next (when stored) and the number and bool
// columns of info; other keys are not part of the layout and are left out.
// The newest transition of an unfinished episode (UnfinishedIndex) is
// written as a timeout, so that the next episode starts after it and a
// reader bootstraps from its obs_next as the buffer does. h5py and D4RL's
// readers read the file. It returns an error wrapping ErrNoHDF5 without
// HDF5 support, ErrFormat naming a key that is not a plain numeric array,
// and the file's errors.
func SaveD4RL(path string, b Buffer) error {
	var all batch.Batch
	idx := b.SampleIndices(0, nil)
	if err := b.TakeTo(&all, idx); err != nil {
		return err
	}
	cols := []struct {
		key, name string
		need      bool
	}{
		{batch.KeyObs, d4rlObs, true}, {batch.KeyAct, d4rlAct, true}, {batch.KeyRew, d4rlRew, true},
		{batch.KeyTerminated, d4rlTerm, true}, {batch.KeyTruncated, d4rlTimeout, true}, {batch.KeyObsNext, d4rlNext, false},
	}
	type column struct {
		name  string
		data  any
		shape []int
	}
	var out []column
	for _, c := range cols {
		v, ok := all.Get(c.key)
		if !ok {
			if c.need && len(idx) > 0 {
				return errorf(ErrFormat, c.key, "SaveD4RL: the buffer has no "+c.key)
			}
			continue
		}
		a, isArr := v.(*nd.Array)
		if !isArr {
			return errorf(ErrFormat, c.key, "SaveD4RL: the D4RL layout holds arrays, not a Batch, under "+c.key)
		}
		if c.key == batch.KeyTruncated {
			a = a.Copy()
			pos := map[int]int{}
			for i, j := range idx {
				pos[j] = i
			}
			for _, u := range b.UnfinishedIndex() {
				if err := a.SetIndex(true, nd.I(pos[u])); err != nil {
					return &Error{Kind: ErrFormat, Path: c.key, Msg: "SaveD4RL", Err: err}
				}
			}
		}
		data, err := flatData(a, c.key)
		if err != nil {
			return err
		}
		out = append(out, column{c.name, data, a.Shape()})
	}
	var infos []column
	if v, ok := all.Get(batch.KeyInfo); ok {
		if ib, ok := v.(*batch.Batch); ok {
			for k := range ib.Keys() {
				a, err := ib.Array(k)
				if err != nil {
					return errorf(ErrFormat, batch.KeyInfo+batch.Sep+k, "SaveD4RL: the D4RL layout holds arrays of numbers under infos")
				}
				data, err := flatData(a, batch.KeyInfo+batch.Sep+k)
				if err != nil {
					return err
				}
				infos = append(infos, column{k, data, a.Shape()})
			}
		}
	}
	f, err := hdf5.Create(path)
	if err != nil {
		return hdf5Error("SaveD4RL", "", err)
	}
	write := func() error {
		root := f.Root()
		for _, c := range out {
			if _, err := root.WriteDataset(c.name, c.data, c.shape); err != nil {
				return hdf5Error("SaveD4RL", c.name, err)
			}
		}
		if len(infos) == 0 {
			return nil
		}
		g, err := root.CreateGroup(d4rlInfos)
		if err != nil {
			return hdf5Error("SaveD4RL", d4rlInfos, err)
		}
		for _, c := range infos {
			if _, err := g.WriteDataset(c.name, c.data, c.shape); err != nil {
				return hdf5Error("SaveD4RL", d4rlInfos+"/"+c.name, err)
			}
		}
		return nil
	}
	err = write()
	if cerr := f.Close(); err == nil && cerr != nil {
		err = hdf5Error("SaveD4RL", "", cerr)
	}
	return err
}

// flatData returns a's elements in row-major order as the Go slice the
// HDF5 binding writes, or ErrFormat naming key for an Object array.
func flatData(a *nd.Array, key string) (any, error) {
	if a.DType() == nd.Object {
		return nil, errorf(ErrFormat, key, "SaveD4RL: an Object array; the D4RL layout holds numbers and bools")
	}
	c := a.Copy()
	switch a.DType() {
	case nd.Bool:
		return nd.Data[bool](c), nil
	case nd.Int8:
		return nd.Data[int8](c), nil
	case nd.Int16:
		return nd.Data[int16](c), nil
	case nd.Int32:
		return nd.Data[int32](c), nil
	case nd.Int64:
		return nd.Data[int64](c), nil
	case nd.Uint8:
		return nd.Data[uint8](c), nil
	case nd.Uint16:
		return nd.Data[uint16](c), nil
	case nd.Uint32:
		return nd.Data[uint32](c), nil
	case nd.Uint64:
		return nd.Data[uint64](c), nil
	case nd.Float32:
		return nd.Data[float32](c), nil
	case nd.Float64:
		return nd.Data[float64](c), nil
	}
	return nil, errorf(ErrFormat, key, fmt.Sprintf("SaveD4RL: dtype %v is not supported", a.DType()))
}

// LoadD4RL reads an HDF5 file in the D4RL layout (or Minari's, one group
// per episode; see loadMinari) into a new Replay holding
// its transitions in the file's order, episode boundaries from terminals
// and timeouts. Without next_observations, a row's obs_next is the next
// row's observation; a row whose next observation the file does not hold
// (a timeout, or the last row when it ends no episode) is left out, as
// D4RL's qlearning_dataset does, and a terminal row's obs_next is its own
// observation (never bootstrapped from). A file SaveHDF5 wrote (a gorl
// buffer) is read with LoadHDF5 instead.
//
// It returns an error wrapping ErrNoHDF5 without HDF5 support, and
// ErrFormat naming the dataset for a missing dataset, rows that disagree
// with the observations', or a dtype the layout does not allow.
func LoadD4RL(path string) (Buffer, error) {
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, hdf5Error("LoadD4RL", "", err)
	}
	root := f.Root()
	if v, err := root.Attr("format"); err == nil && v == hdf5Format {
		f.Close()
		return LoadHDF5(path)
	}
	defer f.Close()
	members, err := root.Members()
	if err != nil {
		return nil, hdf5Error("LoadD4RL", "", err)
	}
	kinds := map[string]hdf5.Kind{}
	for _, m := range members {
		kinds[m.Name] = m.Kind
	}
	pick := func(names ...string) string {
		for _, n := range names {
			if kinds[n] == hdf5.KindDataset {
				return n
			}
		}
		return ""
	}
	if kinds[d4rlObs] == 0 && kinds["episode_0"] == hdf5.KindGroup {
		data, err := loadMinari(root, members)
		if err != nil {
			return nil, err
		}
		return fromBatch(data)
	}
	layout := "the D4RL layout needs the datasets observations, actions, rewards, terminals (or terminations) and timeouts (or truncations)"
	names := map[string]string{
		batch.KeyObs: pick(d4rlObs), batch.KeyAct: pick(d4rlAct), batch.KeyRew: pick(d4rlRew),
		batch.KeyTerminated: pick(d4rlTerm, "terminations"), batch.KeyTruncated: pick(d4rlTimeout, "truncations"),
	}
	for _, k := range []string{batch.KeyObs, batch.KeyAct, batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated} {
		if names[k] == "" {
			want := map[string]string{batch.KeyObs: d4rlObs, batch.KeyAct: d4rlAct, batch.KeyRew: d4rlRew,
				batch.KeyTerminated: d4rlTerm, batch.KeyTruncated: d4rlTimeout}[k]
			return nil, errorf(ErrFormat, want, fmt.Sprintf("LoadD4RL: no dataset %q (%s)", want, layout))
		}
	}
	read := func(g *hdf5.Group, name, path string) (*nd.Array, error) {
		data, shape, err := g.ReadDataset(name)
		if err != nil {
			return nil, hdf5Error("LoadD4RL", path, err)
		}
		if _, isStr := data.([]string); isStr {
			return nil, errorf(ErrFormat, path, "LoadD4RL: strings; the D4RL layout holds numbers and bools")
		}
		arr, err := fromSlice(data, shape)
		if err != nil {
			return nil, &Error{Kind: ErrFormat, Path: path, Msg: "LoadD4RL", Err: err}
		}
		return arr, nil
	}
	obs, err := read(root, names[batch.KeyObs], names[batch.KeyObs])
	if err != nil {
		return nil, err
	}
	if obs.Ndim() == 0 {
		return nil, errorf(ErrFormat, d4rlObs, "LoadD4RL: observations is a scalar, not one row per step")
	}
	n := obs.Dim(0)
	rows := func(a *nd.Array, name string) error {
		if a.Ndim() == 0 || a.Dim(0) != n {
			return errorf(ErrFormat, name, fmt.Sprintf("LoadD4RL: %s of shape %v, observations of shape %v: the rows disagree", name, a.Shape(), obs.Shape()))
		}
		return nil
	}
	cols := map[string]*nd.Array{batch.KeyObs: obs}
	for _, k := range []string{batch.KeyAct, batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated} {
		a, err := read(root, names[k], names[k])
		if err != nil {
			return nil, err
		}
		if err := rows(a, names[k]); err != nil {
			return nil, err
		}
		cols[k] = a
	}
	if r := cols[batch.KeyRew]; !(r.Ndim() == 1 || r.Ndim() == 2 && r.Dim(1) == 1) {
		return nil, errorf(ErrFormat, names[batch.KeyRew], fmt.Sprintf("LoadD4RL: rewards of shape %v; want [%d] or [%d 1]", r.Shape(), n, n))
	} else if r.Ndim() == 2 {
		flat, err := r.Copy().Reshape(n)
		if err != nil {
			return nil, &Error{Kind: ErrFormat, Path: names[batch.KeyRew], Msg: "LoadD4RL", Err: err}
		}
		cols[batch.KeyRew] = flat
	}
	for _, k := range []string{batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated} {
		a := cols[k]
		if a.DType() == nd.Object || (k == batch.KeyRew && a.DType() == nd.Bool) || (k != batch.KeyRew && a.Ndim() != 1) {
			return nil, errorf(ErrFormat, names[k], fmt.Sprintf("LoadD4RL: %s of dtype %v and shape %v", names[k], a.DType(), a.Shape()))
		}
	}
	term, err := boolsOf(cols[batch.KeyTerminated])
	if err != nil {
		return nil, err
	}
	trunc, err := boolsOf(cols[batch.KeyTruncated])
	if err != nil {
		return nil, err
	}
	keep := make([]int, 0, n)
	if kinds[d4rlNext] == hdf5.KindDataset {
		next, err := read(root, d4rlNext, d4rlNext)
		if err != nil {
			return nil, err
		}
		if err := rows(next, d4rlNext); err != nil {
			return nil, err
		}
		if !slices.Equal(next.Shape(), obs.Shape()) || next.DType() != obs.DType() {
			return nil, errorf(ErrFormat, d4rlNext, fmt.Sprintf("LoadD4RL: next_observations %v of shape %v, observations %v of shape %v",
				next.DType(), next.Shape(), obs.DType(), obs.Shape()))
		}
		cols[batch.KeyObsNext] = next
		for i := range n {
			keep = append(keep, i)
		}
	} else {
		nextIdx := make([]int, 0, n)
		for i := range n {
			switch {
			case term[i]:
				keep, nextIdx = append(keep, i), append(nextIdx, i)
			case trunc[i] || i == n-1:
				// no next observation in the file
			default:
				keep, nextIdx = append(keep, i), append(nextIdx, i+1)
			}
		}
		cols[batch.KeyObsNext] = obs.Index(nd.Ints(nextIdx...))
	}
	if len(keep) == 0 {
		return nil, errorf(ErrFormat, d4rlObs, "LoadD4RL: no transition with a next observation")
	}
	var info *batch.Batch
	if kinds[d4rlInfos] == hdf5.KindGroup {
		g, err := root.OpenGroup(d4rlInfos)
		if err != nil {
			return nil, hdf5Error("LoadD4RL", d4rlInfos, err)
		}
		ms, err := g.Members()
		if err != nil {
			return nil, hdf5Error("LoadD4RL", d4rlInfos, err)
		}
		info = new(batch.Batch)
		for _, m := range ms {
			p := d4rlInfos + "/" + m.Name
			if m.Kind != hdf5.KindDataset || indexSep(m.Name) >= 0 {
				return nil, errorf(ErrFormat, p, "LoadD4RL: infos holds datasets of one row per step only")
			}
			a, err := read(g, m.Name, p)
			if err != nil {
				return nil, err
			}
			if err := rows(a, p); err != nil {
				return nil, err
			}
			if err := info.Set(m.Name, a.Index(nd.Ints(keep...))); err != nil {
				return nil, &Error{Kind: ErrFormat, Path: p, Msg: "LoadD4RL", Err: err}
			}
		}
	}
	data := new(batch.Batch)
	for _, k := range []string{batch.KeyObs, batch.KeyAct, batch.KeyRew} {
		if err := data.Set(k, cols[k].Index(nd.Ints(keep...))); err != nil {
			return nil, &Error{Kind: ErrFormat, Path: names[k], Msg: "LoadD4RL", Err: err}
		}
	}
	tk, rk := make([]bool, len(keep)), make([]bool, len(keep))
	for i, j := range keep {
		tk[i], rk[i] = term[j], trunc[j]
	}
	next := cols[batch.KeyObsNext]
	if next.Dim(0) == n {
		next = next.Index(nd.Ints(keep...))
	}
	for _, kv := range []struct {
		k string
		v any
	}{{batch.KeyTerminated, tk}, {batch.KeyTruncated, rk}, {batch.KeyObsNext, next}} {
		if err := data.Set(kv.k, kv.v); err != nil {
			return nil, &Error{Kind: ErrFormat, Path: kv.k, Msg: "LoadD4RL", Err: err}
		}
	}
	if info != nil && !info.IsEmpty(true) {
		if err := data.Set(batch.KeyInfo, info); err != nil {
			return nil, &Error{Kind: ErrFormat, Path: d4rlInfos, Msg: "LoadD4RL", Err: err}
		}
	}
	return fromBatch(data)
}

// fromBatch returns a new Replay holding the transitions of data, rows
// along the leading axis.
func fromBatch(data *batch.Batch) (Buffer, error) {
	obs, err := data.Array(batch.KeyObs)
	if err != nil {
		return nil, &Error{Kind: ErrFormat, Path: batch.KeyObs, Msg: "LoadD4RL", Err: err}
	}
	n := obs.Dim(0)
	buf, err := New(Config{Size: n})
	if err != nil {
		return nil, err
	}
	if _, err := buf.Add(data, make([]int, n), nil); err != nil {
		var be *Error
		if errors.As(err, &be) {
			return nil, &Error{Kind: ErrFormat, Path: be.Path, Msg: "LoadD4RL", Err: err}
		}
		return nil, err
	}
	return buf, nil
}

// loadMinari reads a file of Minari's layout, one group per episode
// (episode_0, episode_1, …, read in numeric order), each holding
// observations [T+1, …], actions [T, …], rewards [T], terminations [T] and
// truncations [T]: the transitions of the episodes one after the other,
// obs_next the next row of each episode's observations. Their infos are
// not read (Minari stores one more row of them than of transitions).
func loadMinari(root *hdf5.Group, members []hdf5.Member) (*batch.Batch, error) {
	var eps []int
	for _, m := range members {
		var i int
		if _, err := fmt.Sscanf(m.Name, "episode_%d", &i); err == nil && m.Kind == hdf5.KindGroup && m.Name == fmt.Sprintf("episode_%d", i) {
			eps = append(eps, i)
		}
	}
	slices.Sort(eps)
	cols := map[string][]*nd.Array{}
	keys := []string{batch.KeyObs, batch.KeyObsNext, batch.KeyAct, batch.KeyRew, batch.KeyTerminated, batch.KeyTruncated}
	for _, e := range eps {
		name := fmt.Sprintf("episode_%d", e)
		g, err := root.OpenGroup(name)
		if err != nil {
			return nil, hdf5Error("LoadD4RL", name, err)
		}
		read := func(ds string) (*nd.Array, error) {
			p := name + "/" + ds
			data, shape, err := g.ReadDataset(ds)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, errorf(ErrFormat, p, fmt.Sprintf("LoadD4RL: no dataset %q (a Minari episode holds observations, actions, rewards, terminations and truncations)", p))
			}
			if err != nil {
				return nil, hdf5Error("LoadD4RL", p, err)
			}
			arr, err := fromSlice(data, shape)
			if err != nil || arr.Ndim() == 0 {
				return nil, errorf(ErrFormat, p, fmt.Sprintf("LoadD4RL: %s of shape %v: want numbers, one row per step (%v)", p, shape, err))
			}
			return arr, nil
		}
		obs, err := read(d4rlObs)
		if err != nil {
			return nil, err
		}
		t := obs.Dim(0) - 1
		ep := map[string]*nd.Array{}
		for _, c := range []struct{ key, ds string }{{batch.KeyAct, d4rlAct}, {batch.KeyRew, d4rlRew},
			{batch.KeyTerminated, "terminations"}, {batch.KeyTruncated, "truncations"}} {
			a, err := read(c.ds)
			if err != nil {
				return nil, err
			}
			if a.Dim(0) != t {
				return nil, errorf(ErrFormat, name+"/"+c.ds, fmt.Sprintf("LoadD4RL: %s/%s of shape %v, observations of shape %v: want one row fewer observations",
					name, c.ds, a.Shape(), obs.Shape()))
			}
			ep[c.key] = a
		}
		if t < 1 {
			continue
		}
		ep[batch.KeyObs], ep[batch.KeyObsNext] = obs.Index(nd.Range(0, t)), obs.Index(nd.Range(1, t+1))
		for _, k := range []string{batch.KeyTerminated, batch.KeyTruncated} {
			b, err := boolsOf(ep[k])
			if err != nil {
				return nil, err
			}
			ep[k] = nd.MustNew(b)
		}
		if r, err := ep[batch.KeyRew].AsType(nd.Float64); err == nil && r.Ndim() == 1 {
			ep[batch.KeyRew] = r
		} else {
			return nil, errorf(ErrFormat, name+"/rewards", fmt.Sprintf("LoadD4RL: rewards of shape %v", ep[batch.KeyRew].Shape()))
		}
		for _, k := range keys {
			cols[k] = append(cols[k], ep[k])
		}
	}
	if len(cols[batch.KeyObs]) == 0 {
		return nil, errorf(ErrFormat, "episode_0", "LoadD4RL: no episode holds a transition")
	}
	data := new(batch.Batch)
	for _, k := range keys {
		a, err := nd.Concatenate(0, cols[k]...)
		if err != nil {
			return nil, &Error{Kind: ErrFormat, Path: k, Msg: "LoadD4RL: the episodes disagree", Err: err}
		}
		if err := data.Set(k, a); err != nil {
			return nil, &Error{Kind: ErrFormat, Path: k, Msg: "LoadD4RL", Err: err}
		}
	}
	return data, nil
}

// boolsOf reads a terminals or timeouts column (bools, or numbers ≠ 0).
func boolsOf(a *nd.Array) ([]bool, error) {
	b, err := a.AsType(nd.Bool)
	if err != nil {
		return nil, &Error{Kind: ErrFormat, Msg: "LoadD4RL", Err: err}
	}
	return nd.Data[bool](b.Copy()), nil
}
