package logger

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recorder is a Logger that records its calls and fails when told to.
type recorder struct {
	name    string
	calls   *[]string
	failLog error
	failEnd error
}

func (r recorder) Log(scope string, step int64, values map[string]float64) error {
	*r.calls = append(*r.calls, fmt.Sprintf("%s.Log(%s, %d, %v)", r.name, scope, step, values))
	return r.failLog
}

func (r recorder) Close() error {
	*r.calls = append(*r.calls, r.name+".Close")
	return r.failEnd
}

func TestMulti(t *testing.T) {
	errA, errC := errors.New("a failed"), errors.New("c failed")
	var calls []string
	m := Multi{
		recorder{name: "a", calls: &calls, failLog: errA},
		recorder{name: "b", calls: &calls},
		recorder{name: "c", calls: &calls, failLog: errC, failEnd: errC},
	}
	err := m.Log("train", 5, map[string]float64{"x": 1})
	if !errors.Is(err, errA) || !errors.Is(err, errC) {
		t.Fatalf("Log error %v, want both failures joined", err)
	}
	if err := m.Close(); !errors.Is(err, errC) || errors.Is(err, errA) {
		t.Fatalf("Close error %v, want c's failure only", err)
	}
	want := "a.Log(train, 5, map[x:1]) b.Log(train, 5, map[x:1]) c.Log(train, 5, map[x:1]) a.Close b.Close c.Close"
	if got := strings.Join(calls, " "); got != want {
		t.Fatalf("calls\n%s\nwant\n%s", got, want)
	}
	if err := (Multi{}).Log("s", 1, nil); err != nil {
		t.Fatalf("empty Multi: %v", err)
	}
	if err := (Multi{recorder{name: "b", calls: &calls}}).Log("s", 1, nil); err != nil {
		t.Fatalf("Multi without failures: %v", err)
	}
}
