package nd

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// numpy's default print options.
const (
	printLineWidth = 75
	printThreshold = 1000 // arrays with more elements are summarized
	printEdgeItems = 3
	printPrecision = 8
)

// String returns numpy's repr of a: array([3, 4, 5]), array([0., 1.]),
// array([ 5, -5]), array(5), array([None, 'done'], dtype=object),
// array([1, 2], dtype=int32), with numpy's column alignment, line wrapping
// at 75 characters, the hanging indent of multi-dimensional arrays and the
// "..." summary of arrays with more than 1000 elements. The dtype is shown
// unless it is float64, int64 or bool. Floats print as numpy's default
// "maxprec" mode with 8 digits.
func (a *Array) String() string {
	const prefix = "array("
	body := a.format(", ", prefix, printLineWidth-1)
	var extras []string
	if a.size == 0 && !(len(a.shape) == 1 && a.shape[0] == 0) || a.size > printThreshold {
		extras = append(extras, "shape="+shapeString(a.shape))
	}
	if a.size == 0 || !(a.dt == Float64 || a.dt == Int64 || a.dt == Bool) {
		extras = append(extras, "dtype="+a.dt.String())
	}
	if len(extras) == 0 {
		return prefix + body + ")"
	}
	s := prefix + body + ","
	extra := strings.Join(extras, ", ") + ")"
	last := len(s) - (strings.LastIndexByte(s, '\n') + 1)
	if last+len(extra)+1 > printLineWidth {
		return s + "\n" + strings.Repeat(" ", len(prefix)) + extra
	}
	return s + " " + extra
}

// Str returns numpy's str of a: [5 5], [0. 2.], [[1 2]\n [3 4]],
// [1 'hello' None]; a 0-d array prints its element (5, 3.66, hello).
func (a *Array) Str() string {
	if len(a.shape) == 0 {
		v := a.value(a.off)
		if s, ok := v.(string); ok {
			return s
		}
		return Repr(v)
	}
	return a.format(" ", "", printLineWidth)
}

// format is numpy's array2string: the nested-bracket body of a.
func (a *Array) format(sep, prefix string, width int) string {
	if a.size == 0 {
		return "[]"
	}
	summarize := a.size > printThreshold
	f := newElemFormat(a, a.edgeValues(summarize))
	p := printer{a: a, f: f, sep: sep, summarize: summarize}
	return p.sub(0, a.off, strings.Repeat(" ", len(prefix)+1), width)
}

// edgeValues returns the buffer offsets of the elements numpy uses to size
// its columns: all of them, or only the edge items when summarizing.
func (a *Array) edgeValues(summarize bool) []int {
	var offs []int
	var rec func(axis, off int)
	rec = func(axis, off int) {
		if axis == len(a.shape) {
			offs = append(offs, off)
			return
		}
		n := a.shape[axis]
		for i := 0; i < n; i++ {
			if summarize && n > 2*printEdgeItems && i == printEdgeItems {
				i = n - printEdgeItems
			}
			rec(axis+1, off+i*a.strides[axis])
		}
	}
	rec(0, a.off)
	return offs
}

type printer struct {
	a         *Array
	f         *elemFormat
	sep       string
	summarize bool
}

// sub formats the sub-array starting at axis (buffer offset off) following
// numpy's _formatArray: hanging is the indent of continuation lines and
// width the room left on a line.
func (p *printer) sub(axis, off int, hanging string, width int) string {
	a := p.a
	left := len(a.shape) - axis
	if left == 0 {
		return p.f.format(a, off)
	}
	nextHanging := hanging + " "
	nextWidth := width - 1
	n := a.shape[axis]
	st := a.strides[axis]
	summary := p.summarize && 2*printEdgeItems < n
	leading, trailing := 0, n
	if summary {
		leading, trailing = printEdgeItems, printEdgeItems
	}
	var s strings.Builder
	if left == 1 {
		elemWidth := width - max(len(strings.TrimRight(p.sep, " ")), 1)
		line := hanging
		for i := 0; i < leading; i++ {
			line = extendLine(&s, line, p.sub(axis+1, off+i*st, nextHanging, nextWidth), elemWidth, hanging)
			line += p.sep
		}
		if summary {
			line = extendLine(&s, line, "...", elemWidth, hanging)
			line += p.sep
		}
		for i := trailing; i > 1; i-- {
			j := n - i
			line = extendLine(&s, line, p.sub(axis+1, off+j*st, nextHanging, nextWidth), elemWidth, hanging)
			line += p.sep
		}
		line = extendLine(&s, line, p.sub(axis+1, off+(n-1)*st, nextHanging, nextWidth), elemWidth, hanging)
		s.WriteString(line)
	} else {
		lineSep := strings.TrimRight(p.sep, " ") + strings.Repeat("\n", left-1)
		for i := 0; i < leading; i++ {
			s.WriteString(hanging + p.sub(axis+1, off+i*st, nextHanging, nextWidth) + lineSep)
		}
		if summary {
			s.WriteString(hanging + "..." + lineSep)
		}
		for i := trailing; i > 1; i-- {
			j := n - i
			s.WriteString(hanging + p.sub(axis+1, off+j*st, nextHanging, nextWidth) + lineSep)
		}
		s.WriteString(hanging + p.sub(axis+1, off+(n-1)*st, nextHanging, nextWidth))
	}
	return "[" + s.String()[len(hanging):] + "]"
}

// extendLine appends word to line, first moving line to s and starting a
// new line when the word would not fit (numpy's _extendLine).
func extendLine(s *strings.Builder, line, word string, width int, hanging string) string {
	if len(line)+len(word) > width && len(line) > len(hanging) {
		s.WriteString(strings.TrimRight(line, " ") + "\n")
		line = hanging
	}
	return line + word
}

// elemFormat formats single elements the way numpy's formatter for the
// whole array does (common widths, precision and notation).
type elemFormat struct {
	kind      kind
	zeroD     bool
	width     int // ints
	exp       bool
	padLeft   int
	padRight  int
	precision int // exp mode: digits after the point
	expDigits int
}

func newElemFormat(a *Array, offs []int) *elemFormat {
	f := &elemFormat{kind: a.dt.kind(), zeroD: len(a.shape) == 0}
	switch f.kind {
	case kindInt, kindUint:
		for _, off := range offs {
			f.width = max(f.width, len(fmt.Sprint(a.value(off))))
		}
	case kindFloat:
		f.fill(a, offs)
	}
	return f
}

func floatAt(a *Array, off int) (float64, int) {
	if a.dt == Float32 {
		return float64(elems[float32](a)[off]), 32
	}
	return elems[float64](a)[off], 64
}

// fill sizes the float columns (numpy's FloatingFormat.fillFormat with the
// default maxprec mode, precision 8, no sign padding).
func (f *elemFormat) fill(a *Array, offs []int) {
	var finite []int
	minAbs, maxAbs := math.Inf(1), 0.0
	nonFinite, negInf := false, false
	for _, off := range offs {
		x, _ := floatAt(a, off)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			nonFinite = true
			negInf = negInf || math.IsInf(x, -1)
			continue
		}
		finite = append(finite, off)
		if x != 0 {
			minAbs = math.Min(minAbs, math.Abs(x))
			maxAbs = math.Max(maxAbs, math.Abs(x))
		}
	}
	if maxAbs > 0 && (maxAbs >= 1e8 || minAbs < 1e-4 || maxAbs/minAbs > 1e3) {
		f.exp = true
	}
	switch {
	case len(finite) == 0:
		f.padLeft, f.padRight = 0, 0
	case f.exp:
		for _, off := range finite {
			x, bits := floatAt(a, off)
			mant, e := sciDigits(x, bits)
			ip, fp, _ := strings.Cut(mant, ".")
			f.padLeft = max(f.padLeft, len(ip))
			f.precision = max(f.precision, len(fp))
			f.expDigits = max(f.expDigits, len(e)-1)
		}
		f.padRight = f.expDigits + 2 + f.precision
	default:
		for _, off := range finite {
			x, bits := floatAt(a, off)
			ip, fp, _ := strings.Cut(posDigits(x, bits), ".")
			f.padLeft = max(f.padLeft, len(ip))
			f.padRight = max(f.padRight, len(fp))
		}
	}
	if nonFinite {
		inf := 3
		if negInf {
			inf = 4
		}
		f.padLeft = max(f.padLeft, 3-(f.padRight+1), inf-(f.padRight+1))
	}
}

// posDigits is numpy's dragon4_positional(x, precision=8, unique=True,
// trim='.'): the shortest round-tripping digits, at most 8 after the
// point, keeping the point ("1.", "0.5").
func posDigits(x float64, bits int) string {
	s := strconv.FormatFloat(x, 'f', -1, bits)
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 > printPrecision {
		s = strings.TrimRight(strconv.FormatFloat(x, 'f', printPrecision, bits), "0")
	}
	if !strings.Contains(s, ".") {
		s += "."
	}
	return s
}

// sciDigits is numpy's dragon4_scientific(x, precision=8, unique=True,
// trim='.'), split into mantissa ("1.5", "1.") and exponent ("+10", "-05").
func sciDigits(x float64, bits int) (mant, exp string) {
	s := strconv.FormatFloat(x, 'e', -1, bits)
	mant, exp, _ = strings.Cut(s, "e")
	if i := strings.IndexByte(mant, '.'); i >= 0 && len(mant)-i-1 > printPrecision {
		mant, exp, _ = strings.Cut(strconv.FormatFloat(x, 'e', printPrecision, bits), "e")
		mant = strings.TrimRight(mant, "0")
	}
	if !strings.Contains(mant, ".") {
		mant += "."
	}
	return mant, exp
}

func (f *elemFormat) format(a *Array, off int) string {
	switch f.kind {
	case kindBool:
		if elems[bool](a)[off] {
			if f.zeroD {
				return "True"
			}
			return " True"
		}
		return "False"
	case kindInt, kindUint:
		s := fmt.Sprint(a.value(off))
		return strings.Repeat(" ", f.width-len(s)) + s
	case kindFloat:
		return f.formatFloat(floatAt(a, off))
	}
	return objectRepr(elems[any](a)[off])
}

func (f *elemFormat) formatFloat(x float64, bits int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		s := "nan"
		if math.IsInf(x, 1) {
			s = "inf"
		} else if math.IsInf(x, -1) {
			s = "-inf"
		}
		return strings.Repeat(" ", max(0, f.padLeft+f.padRight+1-len(s))) + s
	}
	if f.exp {
		mant, e := sciDigits(x, bits)
		ip, fp, _ := strings.Cut(mant, ".")
		fp += strings.Repeat("0", f.precision-len(fp))
		sign, digits := e[:1], e[1:]
		digits = strings.Repeat("0", max(0, f.expDigits-len(digits))) + digits
		return strings.Repeat(" ", f.padLeft-len(ip)) + ip + "." + fp + "e" + sign + digits
	}
	ip, fp, _ := strings.Cut(posDigits(x, bits), ".")
	return strings.Repeat(" ", f.padLeft-len(ip)) + ip + "." + fp + strings.Repeat(" ", f.padRight-len(fp))
}

// Repr returns v as Python's repr prints the corresponding Python value,
// the form the elements of an Object array print in: None for nil, True,
// 'text' (double quotes when the text holds a single quote and no double
// quote; backslash escapes for the quote, backslashes and control
// characters), floats as 1.0 and 1e-05 (the shortest digits that read back
// to the same value), a Go slice or array as a list ([1, 'x']), a map as a
// dict ({'a': 1}, keys sorted since Go maps have no order), and an *Array as
// its String. Other values print with fmt's %v. A container nested deeper
// than 64 levels (one holding itself) prints "..." there.
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v, 0)
	return b.String()
}

// objectRepr prints an element of an Object array as numpy does: as
// Repr, except that a list (a Go slice or array) is shown as
// list([1, 'x']), numpy's way to tell it from a nested array.
func objectRepr(v any) string {
	if v != nil {
		if k := reflect.TypeOf(v).Kind(); k == reflect.Slice || k == reflect.Array {
			return "list(" + Repr(v) + ")"
		}
	}
	return Repr(v)
}

// maxReprDepth bounds the nesting Repr follows, so that a container
// holding itself prints "..." (as Python prints [[...]]) instead of
// recursing forever.
const maxReprDepth = 64

func writeRepr(b *strings.Builder, v any, depth int) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
		return
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
		return
	case string:
		b.WriteString(pyString(x))
		return
	case float64:
		b.WriteString(pyFloat(x, 64))
		return
	case float32:
		b.WriteString(pyFloat(float64(x), 32))
		return
	case *Array:
		if x == nil {
			b.WriteString("None")
		} else {
			b.WriteString(x.String())
		}
		return
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
	default:
		fmt.Fprint(b, v)
		return
	}
	if depth >= maxReprDepth {
		b.WriteString("...")
		return
	}
	if rv.Kind() != reflect.Map {
		b.WriteByte('[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, rv.Index(i).Interface(), depth+1)
		}
		b.WriteByte(']')
		return
	}
	keys := rv.MapKeys()
	slices.SortFunc(keys, compareKeys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		writeRepr(b, k.Interface(), depth+1)
		b.WriteString(": ")
		writeRepr(b, rv.MapIndex(k).Interface(), depth+1)
	}
	b.WriteByte('}')
}

// compareKeys orders map keys for printing: strings, integers, unsigned
// integers, floats and bools by value; keys of other kinds, or of kinds
// that differ (in a map with interface keys), by their printed form.
func compareKeys(x, y reflect.Value) int {
	for x.Kind() == reflect.Interface && !x.IsNil() {
		x = x.Elem()
	}
	for y.Kind() == reflect.Interface && !y.IsNil() {
		y = y.Elem()
	}
	if x.Kind() == y.Kind() {
		switch x.Kind() {
		case reflect.String:
			return strings.Compare(x.String(), y.String())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return cmp.Compare(x.Int(), y.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return cmp.Compare(x.Uint(), y.Uint())
		case reflect.Float32, reflect.Float64:
			return cmp.Compare(x.Float(), y.Float())
		case reflect.Bool:
			return cmp.Compare(boolInt(x.Bool()), boolInt(y.Bool()))
		}
	}
	return strings.Compare(fmt.Sprint(valueOf(x)), fmt.Sprint(valueOf(y)))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// valueOf returns the Go value held by a reflect.Value, nil for an invalid
// one (a nil interface key).
func valueOf(v reflect.Value) any {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}

// pyFloat is Python's float repr: the shortest round-tripping digits,
// positional for exponents in [-4, 16), with ".0" on integral values.
func pyFloat(x float64, bits int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(x, 'e', -1, bits)
	mant, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	if exp < -4 || exp >= 16 {
		return mant + "e" + e
	}
	s = strconv.FormatFloat(x, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyString is Python's str repr: single quotes unless the text holds a
// single quote and no double quote.
func pyString(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
