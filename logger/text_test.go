package logger

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

type logCall struct {
	scope  string
	step   int64
	values map[string]float64
}

// Expected outputs are written by hand from the formats documented on CSV
// and JSONL: keys sorted by bytes ("\x01" < " " < "b"), shortest
// round-trip floats, RFC 4180 quoting.
var textCases = []struct {
	name      string
	calls     []logCall
	csv, json string
}{
	{
		name:  "sorted keys",
		calls: []logCall{{"train", 1000, map[string]float64{"rew": 195.5, "len": 200, "n/ep": 4}}},
		csv:   "1000,train,len,200\n1000,train,n/ep,4\n1000,train,rew,195.5\n",
		json:  `{"step":1000,"scope":"train","values":{"len":200,"n/ep":4,"rew":195.5}}` + "\n",
	},
	{
		name: "new keys later, several scopes",
		calls: []logCall{
			{"train", 1, map[string]float64{"a": 1}},
			{"test", 1, map[string]float64{"b": -0.125}},
			{"train", 2, map[string]float64{"a": 2, "c": 3}},
		},
		csv:  "1,train,a,1\n1,test,b,-0.125\n2,train,a,2\n2,train,c,3\n",
		json: `{"step":1,"scope":"train","values":{"a":1}}` + "\n" + `{"step":1,"scope":"test","values":{"b":-0.125}}` + "\n" + `{"step":2,"scope":"train","values":{"a":2,"c":3}}` + "\n",
	},
	{
		name:  "float forms",
		calls: []logCall{{"u", -7, map[string]float64{"a": 0.1, "b": 1e21, "c": 1e-7, "d": math.MaxFloat64, "e": math.Copysign(0, -1), "f": 123456789}}},
		csv:   "-7,u,a,0.1\n-7,u,b,1e+21\n-7,u,c,1e-07\n-7,u,d,1.7976931348623157e+308\n-7,u,e,-0\n-7,u,f,1.23456789e+08\n",
		json:  `{"step":-7,"scope":"u","values":{"a":0.1,"b":1e+21,"c":1e-07,"d":1.7976931348623157e+308,"e":-0,"f":1.23456789e+08}}` + "\n",
	},
	{
		name:  "NaN and infinities",
		calls: []logCall{{"u", 3, map[string]float64{"n": math.NaN(), "p": math.Inf(1), "m": math.Inf(-1)}}},
		csv:   "3,u,m,-Inf\n3,u,n,NaN\n3,u,p,+Inf\n",
		json:  `{"step":3,"scope":"u","values":{"m":"-Inf","n":"NaN","p":"+Inf"}}` + "\n",
	},
	{
		name:  "quoting and escaping",
		calls: []logCall{{`a"b`, 1, map[string]float64{"x,y": 1, " lead": 2, "line\nbreak": 3, "tab\tin": 4, "\x01": 5, "é": 6, "bad\xffutf8": 7}}},
		csv: "1,\"a\"\"b\",\x01,5\n1,\"a\"\"b\",\" lead\",2\n1,\"a\"\"b\",bad\xffutf8,7\n" +
			"1,\"a\"\"b\",\"line\nbreak\",3\n1,\"a\"\"b\",tab\tin,4\n1,\"a\"\"b\",\"x,y\",1\n1,\"a\"\"b\",é,6\n",
		json: `{"step":1,"scope":"a\"b","values":{"\u0001":5," lead":2,"bad\ufffdutf8":7,"line\nbreak":3,"tab\tin":4,"x,y":1,"é":6}}` + "\n",
	},
	{
		name:  "empty scope, empty key, no values",
		calls: []logCall{{"", 5, map[string]float64{"": 1}}, {"train", 6, nil}, {"train", 7, map[string]float64{}}},
		csv:   "5,,,1\n",
		json:  `{"step":5,"scope":"","values":{"":1}}` + "\n",
	},
}

func TestCSV(t *testing.T) {
	for _, c := range textCases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			l, err := NewCSV(&b)
			if err != nil {
				t.Fatal(err)
			}
			for _, call := range c.calls {
				if err := l.Log(call.scope, call.step, call.values); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			want := "step,scope,key,value\n" + c.csv
			if b.String() != want {
				t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
			}
			// encoding/csv reads back every row as written (the bad UTF-8
			// case included: CSV carries bytes).
			rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, call := range c.calls {
				n += len(call.values)
			}
			if len(rows) != 1+n {
				t.Fatalf("%d rows read back, want %d", len(rows), 1+n)
			}
			for _, row := range rows[1:] {
				v, err := strconv.ParseFloat(row[3], 64)
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, call := range c.calls {
					if w, ok := call.values[row[2]]; ok && call.scope == row[1] && strconv.FormatInt(call.step, 10) == row[0] && same(v, w) {
						found = true
					}
				}
				if !found {
					t.Errorf("row %q read back matches no logged value", row)
				}
			}
		})
	}
}

func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

func TestJSONL(t *testing.T) {
	for _, c := range textCases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			l := NewJSONL(&b)
			for _, call := range c.calls {
				if err := l.Log(call.scope, call.step, call.values); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if b.String() != c.json {
				t.Fatalf("got\n%s\nwant\n%s", b.String(), c.json)
			}
			// Every line is valid JSON that encoding/json decodes to the
			// logged values.
			dec := json.NewDecoder(&b)
			for _, call := range c.calls {
				if len(call.values) == 0 {
					continue
				}
				var line struct {
					Step   int64
					Scope  string
					Values map[string]any
				}
				if err := dec.Decode(&line); err != nil {
					t.Fatal(err)
				}
				if line.Step != call.step || line.Scope != strings.ToValidUTF8(call.scope, "\ufffd") || len(line.Values) != len(call.values) {
					t.Fatalf("decoded %+v, logged %+v", line, call)
				}
				for k, w := range call.values {
					got := line.Values[strings.ToValidUTF8(k, "\ufffd")]
					switch g := got.(type) {
					case float64:
						if g != w {
							t.Errorf("%q = %v, want %v", k, g, w)
						}
					case string:
						if g != strconv.FormatFloat(w, 'g', -1, 64) {
							t.Errorf("%q = %q, want %v", k, g, w)
						}
					default:
						t.Errorf("%q decoded as %T", k, got)
					}
				}
			}
		})
	}
}

// failingWriter accepts ok writes, then fails.
type failingWriter struct {
	ok     int
	writes int
}

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.writes > w.ok {
		return 0, errDiskFull
	}
	return len(p), nil
}

func TestTextWriteErrorsStick(t *testing.T) {
	if _, err := NewCSV(&failingWriter{}); !errors.Is(err, errDiskFull) {
		t.Fatalf("NewCSV on a failing writer: %v", err)
	}
	for name, mk := range map[string]func(*failingWriter) Logger{
		"CSV":   func(w *failingWriter) Logger { l, _ := NewCSV(w); return l },
		"JSONL": func(w *failingWriter) Logger { return NewJSONL(w) },
	} {
		t.Run(name, func(t *testing.T) {
			w := &failingWriter{ok: 2}
			l := mk(w)
			v := map[string]float64{"a": 1}
			var errs []error
			for i := 0; i < 4; i++ {
				errs = append(errs, l.Log("s", int64(i), v))
			}
			writes := w.writes
			if errs[0] != nil || !errors.Is(errs[2], errDiskFull) || !errors.Is(errs[3], errDiskFull) {
				t.Fatalf("errors %v: want the write error from the failing call on", errs)
			}
			if writes != 3 {
				t.Fatalf("%d writes, want 3: nothing after the failed one", writes)
			}
		})
	}
}

func TestTextLogAfterClose(t *testing.T) {
	c, _ := NewCSV(&bytes.Buffer{})
	for name, l := range map[string]Logger{"CSV": c, "JSONL": NewJSONL(&bytes.Buffer{})} {
		t.Run(name, func(t *testing.T) {
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			defer func() {
				if r := recover(); r != ErrClosed {
					t.Fatalf("panic value %v, want ErrClosed", r)
				}
			}()
			_ = l.Log("s", 1, map[string]float64{"a": 1})
		})
	}
}

// TestTextConcurrent logs from several goroutines; every line must come
// out whole (run with -race).
func TestTextConcurrent(t *testing.T) {
	var b bytes.Buffer
	l := NewJSONL(&lockedWriter{w: &b})
	const writers, each = 4, 100
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if err := l.Log("s", int64(i), map[string]float64{"a": float64(w), "b": 2}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != writers*each {
		t.Fatalf("%d lines, want %d", len(lines), writers*each)
	}
	for _, line := range lines {
		if !json.Valid([]byte(line)) {
			t.Fatalf("line %q is not valid JSON", line)
		}
	}
}

// lockedWriter fails the race detector if two Writes overlap.
type lockedWriter struct {
	w   *bytes.Buffer
	use int
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.use++ // a data race if the logger does not serialize Writes
	return w.w.Write(p)
}

func TestTextLogNoAllocations(t *testing.T) {
	values := map[string]float64{"loss": 0.5, "rew": 100, "len": 200, "n/ep": 8}
	c, _ := NewCSV(io.Discard)
	for name, l := range map[string]Logger{"CSV": c, "JSONL": NewJSONL(io.Discard)} {
		if n := testing.AllocsPerRun(100, func() { _ = l.Log("train", 1000, values) }); n != 0 {
			t.Errorf("%s.Log allocates %v times per call", name, n)
		}
	}
}

// FuzzJSONString checks appendJSONString against encoding/json: the output
// is valid JSON and decodes to what json.Marshal's output decodes to.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\s`, "\x00\x1f\x7f", "é\u2028", "bad\xff\xfe", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q -> %s: %v", s, out, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		if err := json.Unmarshal(ref, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%q decodes to %q, encoding/json's to %q", s, got, want)
		}
		if utf8.ValidString(s) && got != s {
			t.Fatalf("valid %q decodes to %q", s, got)
		}
	})
}

// FuzzCSVField checks that encoding/csv, even trimming leading white space,
// reads each field back as written.
// encoding/csv turns CR LF inside a quoted field into LF, and a lone CR
// as well, so fields with CR are skipped.
func FuzzCSVField(f *testing.F) {
	for _, s := range []string{"", "plain", "a,b", `q"q`, " lead", "\tlead", "\u00a0nbsp", "two\nlines", `"`} {
		f.Add(s, "key")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.ContainsRune(a+b, '\r') {
			t.Skip("encoding/csv normalizes CR")
		}
		line := appendCSVField(nil, a)
		line = append(line, ',')
		line = appendCSVField(line, b)
		line = append(line, ",1\n"...)
		r := csv.NewReader(bytes.NewReader(line))
		r.FieldsPerRecord = 3
		r.TrimLeadingSpace = true // leading white space must be quoted
		row, err := r.Read()
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if row[0] != a || row[1] != b {
			t.Fatalf("%q read back as %q, %q; want %q, %q", line, row[0], row[1], a, b)
		}
	})
}
