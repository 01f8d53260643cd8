// Package ndtest holds test helpers for package nd and its users.
//
// # Overview
//
// ParseIndex reads numpy's index syntax ("::-1, [0, 2]") into nd.Index
// values, so that tests and fuzz tests can state indices as numpy writes
// them. It is a test helper rather than part of nd: programs build indices
// with nd's constructors.
package ndtest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gorl/gorl/nd"
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
//
// A slice is built with nd's constructors. nd has none for a slice with a
// step and only one of start and stop ("1::2", ":3:-1"); the missing bound
// becomes the extreme int on its side, which nd clamps to the axis as numpy
// does, so the selection is the same, but String prints that bound.
func ParseIndex(s string) ([]nd.Index, error) {
	p := indexParser{s: s}
	var out []nd.Index
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
	return fmt.Errorf("%w: ParseIndex(%q): %s at offset %d", nd.ErrValue, p.s, msg, p.pos)
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

func (p *indexParser) entry() (nd.Index, error) {
	p.space()
	switch {
	case p.word("..."):
		return nd.Ellipsis(), nil
	case p.word("None"):
		return nd.NewAxis(), nil
	case p.pos < len(p.s) && p.s[p.pos] == '[':
		v, err := p.list(0)
		if err != nil {
			return nd.Index{}, err
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
			return nd.Index{}, err
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
			return nd.Index{}, p.errorf("expected an index")
		}
		return nd.I(parts[0]), nil
	}
	if has[2] && parts[2] == 0 {
		return nd.Index{}, p.errorf("slice step cannot be zero")
	}
	return slice(parts, has), nil
}

// slice builds the slice start:stop:step, each part present where has says.
func slice(parts [3]int, has [3]bool) nd.Index {
	start, stop, step := parts[0], parts[1], parts[2]
	switch has {
	case [3]bool{}:
		return nd.All()
	case [3]bool{true, false, false}:
		return nd.From(start)
	case [3]bool{false, true, false}:
		return nd.To(stop)
	case [3]bool{false, false, true}:
		return nd.Step(step)
	case [3]bool{true, true, false}:
		return nd.Range(start, stop)
	}
	if !has[2] {
		step = 1
	}
	// A missing bound is the extreme on its side, which nd clamps.
	if !has[0] {
		start = math.MinInt
		if step < 0 {
			start = math.MaxInt
		}
	}
	if !has[1] {
		stop = math.MaxInt
		if step < 0 {
			stop = math.MinInt
		}
	}
	return nd.RangeStep(start, stop, step)
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
func listIndex(v []any) (nd.Index, error) {
	a, err := nd.New(v)
	if err != nil {
		return nd.Index{}, fmt.Errorf("%w: ParseIndex: %v", nd.ErrValue, err)
	}
	if a.Size() == 0 {
		a = nd.Zeros(nd.Int64, a.Shape()...) // [] and [[]] are empty integer indices
	}
	switch {
	case a.DType() == nd.Bool && len(a.Shape()) == 1:
		return nd.Mask(nd.Data[bool](a)...), nil
	case a.DType() == nd.Bool:
		return nd.MaskArray(a), nil
	case len(a.Shape()) == 1:
		ints := make([]int, a.Size())
		for i, x := range nd.Data[int64](a) {
			ints[i] = int(x)
		}
		return nd.Ints(ints...), nil
	}
	return nd.IntArray(a), nil
}
