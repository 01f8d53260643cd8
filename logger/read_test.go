package logger

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestReadJSONLRoundTrip(t *testing.T) {
	// What JSONL writes reads back, NaN and the infinities included.
	var b bytes.Buffer
	l := NewJSONL(&b)
	calls := []Record{
		{Step: 0, Scope: "test", Values: map[string]float64{"return_mean": 9.6, "return_std": 1.25}},
		{Step: 1000, Scope: "train", Values: map[string]float64{"return_mean": math.NaN(), "x": math.Inf(1), "y": math.Inf(-1)}},
		{Step: 2000, Scope: "update", Values: map[string]float64{"loss": 0.1 + 0.2}},
	}
	for _, c := range calls {
		if err := l.Log(c.Scope, c.Step, c.Values); err != nil {
			t.Fatal(err)
		}
	}
	// A line still being written (no newline yet) is not a record.
	b.WriteString(`{"step":3000,"scope":"te`)
	var got []Record
	for rec, err := range ReadJSONL(&b) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	if len(got) != len(calls) {
		t.Fatalf("read %d records, want %d", len(got), len(calls))
	}
	for i, want := range calls {
		g := got[i]
		if g.Step != want.Step || g.Scope != want.Scope || len(g.Values) != len(want.Values) {
			t.Errorf("record %d = %+v, want %+v", i, g, want)
		}
		for k, v := range want.Values {
			if w := g.Values[k]; w != v && !(math.IsNaN(w) && math.IsNaN(v)) {
				t.Errorf("record %d: %s = %v, want %v", i, k, w, v)
			}
		}
	}
}

func TestReadJSONLErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, msg string }{
		{"not JSON", "{\"step\":1,\"scope\":\"a\",\"values\":{}}\nnot json\n", "line 2"},
		{"missing values", "{\"step\":1,\"scope\":\"a\"}\n", "line 1"},
		{"bad string value", "{\"step\":1,\"scope\":\"a\",\"values\":{\"k\":\"big\"}}\n", "not a number"},
		{"object value", "{\"step\":1,\"scope\":\"a\",\"values\":{\"k\":{}}}\n", "not a number"},
	} {
		var err error
		n := 0
		for _, e := range ReadJSONL(strings.NewReader(tc.in)) {
			if e != nil {
				err = e
				break
			}
			n++
		}
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.msg)
		}
	}
}
