package logger

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// CSV writes statistics in long format: a header line
//
//	step,scope,key,value
//
// then one row per value, the keys of one Log call in sorted order. Keys
// that appear only later need no change of the header, and the file stays
// valid whatever keys each call brings; a wide table is one pivot away
// (pandas: df.pivot_table(index=["step", "scope"], columns="key")).
//
// Fields follow RFC 4180: a field containing a comma, a double quote, CR or
// LF, or starting with white space (which some readers trim), is quoted,
// with quotes doubled.
// Values are written in the shortest form that reads back to the same
// float64 ('g' format), NaN and infinities as NaN, +Inf and -Inf.
//
// Each Log call renders its rows in memory and hands them to the writer in
// a single Write: nothing is buffered between calls. CSV is safe for
// concurrent use.
type CSV struct {
	text
}

// NewCSV returns a CSV logger writing to w, and writes the header. The
// caller keeps ownership of w: Close does not close it.
func NewCSV(w io.Writer) (*CSV, error) {
	c := &CSV{text{w: w, format: "CSV"}}
	if _, err := io.WriteString(w, "step,scope,key,value\n"); err != nil {
		return nil, fmt.Errorf("logger: writing CSV header: %w", err)
	}
	return c, nil
}

// Log writes one row per value. A call with no values writes nothing. After
// a write error, Log writes nothing more and returns that error again: a
// row after a partly written one would not be found by a reader.
//
// Log panics with ErrClosed after Close.
func (c *CSV) Log(scope string, step int64, values map[string]float64) error {
	return c.log(scope, step, values, appendCSV)
}

// Close makes further calls to Log panic. It does not close the writer and
// returns nil; calling it again does nothing.
func (c *CSV) Close() error { return c.close() }

func appendCSV(buf []byte, scope string, step int64, keys []string, values map[string]float64) []byte {
	for _, k := range keys {
		buf = strconv.AppendInt(buf, step, 10)
		buf = append(buf, ',')
		buf = appendCSVField(buf, scope)
		buf = append(buf, ',')
		buf = appendCSVField(buf, k)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, values[k], 'g', -1, 64)
		buf = append(buf, '\n')
	}
	return buf
}

func appendCSVField(buf []byte, s string) []byte {
	first, _ := utf8.DecodeRuneInString(s)
	if !strings.ContainsAny(s, ",\"\r\n") && !unicode.IsSpace(first) {
		return append(buf, s...)
	}
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, s[i])
	}
	return append(buf, '"')
}

// JSONL writes statistics as JSON lines: one object per Log call,
//
//	{"step":1000,"scope":"train","values":{"len":200,"rew":195.5}}
//
// with the values' keys in sorted order. Values are written in the
// shortest form that reads back to the same float64; NaN and the
// infinities, which JSON numbers cannot express, are written as the strings
// "NaN", "+Inf" and "-Inf". Strings are escaped as JSON requires; invalid
// UTF-8 bytes become U+FFFD, as encoding/json does.
//
// Each Log call renders its line in memory and hands it to the writer in a
// single Write: nothing is buffered between calls. JSONL is safe for
// concurrent use.
type JSONL struct {
	text
}

// NewJSONL returns a JSONL logger writing to w. The caller keeps ownership
// of w: Close does not close it.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{text{w: w, format: "JSON lines"}} }

// Log writes one line. A call with no values writes nothing. After a write
// error, Log writes nothing more and returns that error again.
//
// Log panics with ErrClosed after Close.
func (j *JSONL) Log(scope string, step int64, values map[string]float64) error {
	return j.log(scope, step, values, appendJSONL)
}

// Close makes further calls to Log panic. It does not close the writer and
// returns nil; calling it again does nothing.
func (j *JSONL) Close() error { return j.close() }

func appendJSONL(buf []byte, scope string, step int64, keys []string, values map[string]float64) []byte {
	buf = append(buf, `{"step":`...)
	buf = strconv.AppendInt(buf, step, 10)
	buf = append(buf, `,"scope":`...)
	buf = appendJSONString(buf, scope)
	buf = append(buf, `,"values":{`...)
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, k)
		buf = append(buf, ':')
		switch v := values[k]; {
		case math.IsNaN(v):
			buf = append(buf, `"NaN"`...)
		case math.IsInf(v, 1):
			buf = append(buf, `"+Inf"`...)
		case math.IsInf(v, -1):
			buf = append(buf, `"-Inf"`...)
		default:
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
	}
	return append(buf, "}}\n"...)
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, each byte of invalid UTF-8 replaced by
// U+FFFD.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, `\ufffd`...)
			} else {
				buf = append(buf, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			buf = append(buf, '\\', c)
		case c == '\n':
			buf = append(buf, '\\', 'n')
		case c == '\r':
			buf = append(buf, '\\', 'r')
		case c == '\t':
			buf = append(buf, '\\', 't')
		case c < 0x20:
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			buf = append(buf, c)
		}
		i++
	}
	return append(buf, '"')
}

// text is the state shared by the CSV and JSONL loggers.
type text struct {
	mu     sync.Mutex
	w      io.Writer
	format string   // for error messages
	keys   []string // scratch for sorting keys
	buf    []byte   // scratch for rendering
	err    error    // first write error, returned by every later Log
	closed bool
}

func (t *text) log(scope string, step int64, values map[string]float64,
	render func([]byte, string, int64, []string, map[string]float64) []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		panic(ErrClosed)
	}
	if t.err != nil {
		return t.err
	}
	if len(values) == 0 {
		return nil
	}
	t.keys = sortedKeys(t.keys, values)
	t.buf = render(t.buf[:0], scope, step, t.keys, values)
	if _, err := t.w.Write(t.buf); err != nil {
		t.err = fmt.Errorf("logger: writing %s: %w", t.format, err)
		return t.err
	}
	return nil
}

func (t *text) close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	return nil
}
