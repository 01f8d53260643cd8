package nd

import (
	"strconv"
	"strings"
)

// String returns the index in numpy syntax, as package ndtest's ParseIndex
// reads it: "0", "1:3", "::-1", ":", "[0, 2]", "[True, False]", "[[0], [1]]",
// "None", "...".
func (x Index) String() string {
	switch x.kind {
	case idxInt:
		return strconv.Itoa(x.start)
	case idxInts:
		b := []byte{'['}
		for i, v := range x.ints {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		return string(append(b, ']'))
	case idxMask:
		b := []byte{'['}
		for i, v := range x.mask {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, Repr(v)...)
		}
		return string(append(b, ']'))
	case idxIntArray, idxMaskArray:
		if x.arr == nil {
			return "[]"
		}
		return nestedList(x.arr)
	case idxNewAxis:
		return "None"
	case idxEllipsis:
		return "..."
	}
	var b []byte
	if x.flags&hasStart != 0 {
		b = strconv.AppendInt(b, int64(x.start), 10)
	}
	b = append(b, ':')
	if x.flags&hasStop != 0 {
		b = strconv.AppendInt(b, int64(x.stop), 10)
	}
	if x.flags&hasStep != 0 {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(x.step), 10)
	}
	return string(b)
}

// nestedList prints an array as a Python nested list: [[0, 1], [2, 3]].
func nestedList(a *Array) string {
	var b strings.Builder
	var rec func(axis, off int)
	rec = func(axis, off int) {
		if axis == len(a.shape) {
			b.WriteString(Repr(a.value(off)))
			return
		}
		b.WriteByte('[')
		for i := 0; i < a.shape[axis]; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			rec(axis+1, off+i*a.strides[axis])
		}
		b.WriteByte(']')
	}
	rec(0, a.off)
	return b.String()
}
