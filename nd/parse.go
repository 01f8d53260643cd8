package nd

import (
	"strconv"
	"strings"
)

// maxParseDepth bounds the nesting of lists ParseIndex accepts.
const maxParseDepth = 32

// ParseIndex parses a numpy index expression, the text between the brackets
// of a[…]: comma-separated entries, each an integer ("0", "-1"), a slice
// ("1:3", "::-1", ":"), "..." (Ellipsis), "None" (NewAxis), or a list of
// integers or of True/False, possibly nested ("[0, 2, 4]", "[[0], [1]]",
// "[True, False]"), which becomes a fancy index. Spaces are allowed around
// tokens. It returns an error wrapping ErrValue describing the first
// problem; the result is checked against an array only by Array.Index.
func ParseIndex(s string) ([]Index, error) {
	p := indexParser{s: s}
	var out []Index
	for {
		x, err := p.entry()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
		p.space()
		if p.done() {
			return out, nil
		}
		if !p.eat(',') {
			return nil, p.errorf("expected ',' or end")
		}
		p.space()
		if p.done() && len(out) > 0 {
			return out, nil // a trailing comma, as in a[0,]
		}
	}
}

type indexParser struct {
	s   string
	pos int
}

func (p *indexParser) errorf(msg string) error {
	return errorf(ErrValue, "ParseIndex(%q): %s at offset %d", p.s, msg, p.pos)
}

func (p *indexParser) done() bool { return p.pos >= len(p.s) }

func (p *indexParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *indexParser) eat(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *indexParser) word(w string) bool {
	if strings.HasPrefix(p.s[p.pos:], w) {
		p.pos += len(w)
		return true
	}
	return false
}

func (p *indexParser) entry() (Index, error) {
	p.space()
	switch {
	case p.word("..."):
		return Ellipsis(), nil
	case p.word("None"):
		return NewAxis(), nil
	case p.pos < len(p.s) && p.s[p.pos] == '[':
		v, err := p.list(0)
		if err != nil {
			return Index{}, err
		}
		return listIndex(v)
	}
	// An integer or a slice.
	var parts [3]int
	var has [3]bool
	colons := 0
	for {
		p.space()
		if n, ok, err := p.integer(); err != nil {
			return Index{}, err
		} else if ok {
			parts[colons], has[colons] = n, true
		}
		p.space()
		if colons == 2 || !p.eat(':') {
			break
		}
		colons++
	}
	if colons == 0 {
		if !has[0] {
			return Index{}, p.errorf("expected an index")
		}
		return I(parts[0]), nil
	}
	x := Index{start: parts[0], stop: parts[1], step: parts[2]}
	if has[0] {
		x.flags |= hasStart
	}
	if has[1] {
		x.flags |= hasStop
	}
	if has[2] {
		x.flags |= hasStep
		if parts[2] == 0 {
			return Index{}, p.errorf("slice step cannot be zero")
		}
	}
	return x, nil
}

func (p *indexParser) integer() (int, bool, error) {
	start := p.pos
	if p.pos < len(p.s) && (p.s[p.pos] == '-' || p.s[p.pos] == '+') {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digits {
		if digits != start {
			return 0, false, p.errorf("expected digits")
		}
		return 0, false, nil
	}
	n, err := strconv.Atoi(p.s[start:p.pos])
	if err != nil {
		return 0, false, p.errorf("integer out of range")
	}
	return n, true, nil
}

// list parses a bracketed, possibly nested list of integers or booleans
// into []any.
func (p *indexParser) list(depth int) ([]any, error) {
	if depth >= maxParseDepth {
		return nil, p.errorf("lists nested too deeply")
	}
	p.pos++ // '['
	out := []any{}
	for {
		p.space()
		if p.eat(']') {
			return out, nil
		}
		if len(out) > 0 {
			if !p.eat(',') {
				return nil, p.errorf("expected ',' or ']'")
			}
			p.space()
			if p.eat(']') {
				return out, nil
			}
		}
		switch {
		case p.pos < len(p.s) && p.s[p.pos] == '[':
			v, err := p.list(depth + 1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		case p.word("True"):
			out = append(out, true)
		case p.word("False"):
			out = append(out, false)
		default:
			n, ok, err := p.integer()
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, p.errorf("expected an integer, True or False")
			}
			out = append(out, n)
		}
	}
}

// listIndex turns a parsed list into a fancy index.
func listIndex(v []any) (Index, error) {
	a, err := New(v)
	if err != nil {
		return Index{}, errorf(ErrValue, "ParseIndex: %v", err)
	}
	if a.size == 0 {
		a = Zeros(Int64, a.shape...) // [] and [[]] are empty integer indices
	}
	switch {
	case a.dt == Bool && len(a.shape) == 1:
		return Mask(Data[bool](a)...), nil
	case a.dt == Bool:
		return MaskArray(a), nil
	case len(a.shape) == 1:
		ints := make([]int, a.size)
		for i, x := range Data[int64](a) {
			ints[i] = int(x)
		}
		return Ints(ints...), nil
	}
	return IntArray(a), nil
}

// String returns the index in numpy syntax, as ParseIndex reads it: "0",
// "1:3", "::-1", ":", "[0, 2]", "[True, False]", "[[0], [1]]", "None",
// "...".
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
