package wire

import (
	"fmt"
	"slices"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Info item tags.
const (
	itemNone   = 0
	itemBool   = 1
	itemInt    = 2
	itemFloat  = 3
	itemString = 4
	itemArray  = 5
	itemDict   = 6
)

// info appends an Info. Keys are written in sorted order; bool, Go
// integers and floats, strings, *nd.Array (not of dtype Object), nested
// env.Info and map[string]any are carried, nil as none, anything else as
// its fmt %v string.
func (e *enc) info(in map[string]any, depth int) {
	e.u32(uint32(len(in)))
	if len(in) == 0 {
		return
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e.str(k)
		e.item(in[k], depth)
	}
}

func (e *enc) item(v any, depth int) {
	switch v := v.(type) {
	case nil:
		e.u8(itemNone)
	case bool:
		e.u8(itemBool)
		if v {
			e.u8(1)
		} else {
			e.u8(0)
		}
	case int:
		e.intItem(int64(v))
	case int8:
		e.intItem(int64(v))
	case int16:
		e.intItem(int64(v))
	case int32:
		e.intItem(int64(v))
	case int64:
		e.intItem(v)
	case uint8:
		e.intItem(int64(v))
	case uint16:
		e.intItem(int64(v))
	case uint32:
		e.intItem(int64(v))
	case float32:
		e.u8(itemFloat)
		e.f64(float64(v))
	case float64:
		e.u8(itemFloat)
		e.f64(v)
	case string:
		e.u8(itemString)
		e.str(v)
	case *nd.Array:
		c, err := dtypeCode(v.DType())
		if err != nil {
			e.u8(itemString)
			e.str(fmt.Sprint(v))
			return
		}
		if !v.IsContiguous() {
			v = v.Copy()
		}
		e.u8(itemArray)
		e.u8(c)
		e.dims(v.Shape())
		e.raw(rawBytes(v))
	case env.Info:
		e.dictItem(v, depth)
	case map[string]any:
		e.dictItem(v, depth)
	default:
		e.u8(itemString)
		e.str(fmt.Sprint(v))
	}
}

func (e *enc) intItem(v int64) {
	e.u8(itemInt)
	e.u64(uint64(v))
}

func (e *enc) dictItem(m map[string]any, depth int) {
	if depth >= MaxDepth {
		e.u8(itemString)
		e.str("<info nested too deep>")
		return
	}
	e.u8(itemDict)
	e.info(m, depth+1)
}

// info decodes an Info; an empty one is nil.
func (d *dec) info(depth int) env.Info {
	if depth > MaxDepth {
		d.fail("info nests deeper than %d", MaxDepth)
		return nil
	}
	n := d.count("info keys", 5)
	if n == 0 || d.err != nil {
		return nil
	}
	in := make(env.Info, n)
	for range n {
		k := d.str("info key")
		v := d.item(depth)
		if d.err != nil {
			return nil
		}
		in[k] = v
	}
	return in
}

func (d *dec) item(depth int) any {
	switch tag := d.u8("info item tag"); tag {
	case itemNone:
		return nil
	case itemBool:
		b := d.u8("info bool")
		if b > 1 {
			d.fail("info bool is %d", b)
		}
		return b == 1
	case itemInt:
		return int64(d.u64("info int"))
	case itemFloat:
		return d.f64("info float")
	case itemString:
		return d.str("info string")
	case itemArray:
		dt := d.dtype("info array dtype")
		sh := d.dims("info array shape", dt.Size())
		return d.array(dt, sh, "info array")
	case itemDict:
		in := d.info(depth + 1)
		if in == nil {
			in = env.Info{}
		}
		return in
	default:
		d.fail("unknown info item tag %d", tag)
		return nil
	}
}
