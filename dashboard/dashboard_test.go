package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFile writes data to dir/name, creating dir, and sets the file's
// modification time to mod when it is not zero.
func writeFile(t *testing.T, dir, name, data string, mod time.Time) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if !mod.IsZero() {
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
}

const rec0 = `{"step":0,"scope":"test","values":{"return_mean":9.5,"return_std":1}}` + "\n"
const rec1 = `{"step":1000,"scope":"train","values":{"return_mean":21}}` + "\n"
const rec2 = `{"step":2000,"scope":"test","values":{"return_mean":"NaN"}}` + "\n"

// newRunsDir makes a runs directory:
//
//	a/            config.json (ppo on CartPole-v1, seed 3), log.jsonl, two GIFs
//	sweep/b/      log.jsonl only, modified last
//	empty/        no run
//	.hidden/run/  a run in a hidden directory
//
// and a run outside it, outside/, whose directory holds the secret
// config.json that no request may read.
func newRunsDir(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "runs")
	outside = filepath.Join(base, "outside")
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	writeFile(t, filepath.Join(root, "a"), ConfigFile, `{"algo":"ppo","env":"CartPole-v1","seed":3}`, t0)
	writeFile(t, filepath.Join(root, "a"), LogFile, rec0+rec1, t0)
	writeFile(t, filepath.Join(root, "a"), "old.gif", "GIF89a-old", t0)
	writeFile(t, filepath.Join(root, "a"), "eval.gif", "GIF89a-new", t0.Add(time.Minute))
	writeFile(t, filepath.Join(root, "sweep", "b"), LogFile, rec0, t0.Add(time.Hour))
	if err := os.MkdirAll(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, ".hidden", "run"), LogFile, rec0, t0)
	writeFile(t, outside, ConfigFile, `{"secret":true}`, t0)
	writeFile(t, outside, LogFile, rec0, t0)
	return root, outside
}

func TestRuns(t *testing.T) {
	root, _ := newRunsDir(t)
	runs, err := Runs(root)
	if err != nil {
		t.Fatal(err)
	}
	// sweep/b was modified last, so it comes first; a has its config's
	// fields and the newer of its two GIFs; empty and .hidden are no runs.
	var got []string
	for _, r := range runs {
		got = append(got, r.Name)
	}
	if strings.Join(got, ",") != "sweep/b,a" {
		t.Fatalf("runs %q, want [sweep/b a]", got)
	}
	a := runs[1]
	if a.Algo != "ppo" || a.Env != "CartPole-v1" || a.Seed == nil || *a.Seed != 3 {
		t.Errorf("run a: algo %q env %q seed %v, want ppo CartPole-v1 3", a.Algo, a.Env, a.Seed)
	}
	if a.GIF != "eval.gif" || a.LogSize != int64(len(rec0+rec1)) {
		t.Errorf("run a: gif %q log size %d, want eval.gif %d", a.GIF, a.LogSize, len(rec0+rec1))
	}
	if b := runs[0]; b.Algo != "" || b.Seed != nil || b.GIF != "" {
		t.Errorf("run sweep/b: %+v, want no config fields and no GIF", b)
	}
}

func TestRunsEmptyAndMissing(t *testing.T) {
	runs, err := Runs(t.TempDir())
	if err != nil || runs == nil || len(runs) != 0 {
		t.Errorf("Runs of an empty directory = %v, %v; want an empty list", runs, err)
	}
	if _, err := Runs(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Runs of a missing directory: no error")
	}
	if _, err := New(Config{Dir: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("New with a missing directory: no error")
	}
}

func get(t *testing.T, h http.Handler, method, target, host string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.Host = "127.0.0.1:6006"
	if host != "" {
		req.Host = host
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func TestRoutes(t *testing.T) {
	root, outside := newRunsDir(t)
	// A link to the outside run, and a run whose files are links to the
	// outside files.
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "linked-files"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ConfigFile, LogFile} {
		if err := os.Symlink(filepath.Join(outside, f), filepath.Join(root, "linked-files", f)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(Config{Dir: root})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, target, host string
		code                 int
		body                 string // a part of the body, or "" to check none
	}{
		{"GET", "/", "", 200, "gorl dashboard"},
		{"HEAD", "/", "", 200, ""},
		{"GET", "/static/app.js", "", 200, "EventSource"},
		{"GET", "/static/style.css", "", 200, "canvas"},
		{"GET", "/api/runs", "", 200, `"name":"sweep/b"`},
		{"GET", "/api/config?run=a", "", 200, `"algo":"ppo"`},
		{"GET", "/api/gif?run=a", "", 200, "GIF89a-new"},
		// Read-only: no method that could change anything.
		{"POST", "/api/runs", "", 405, ""},
		{"DELETE", "/api/config?run=a", "", 405, ""},
		{"PUT", "/", "", 405, ""},
		// Unknown runs and files.
		{"GET", "/api/config?run=nope", "", 404, ""},
		{"GET", "/api/config?run=empty", "", 404, ""},
		{"GET", "/api/config?run=sweep", "", 404, ""},
		{"GET", "/api/config?run=sweep/b", "", 404, "no config.json"},
		{"GET", "/api/gif?run=sweep/b", "", 404, ""},
		{"GET", "/api/log?run=nope", "", 404, ""},
		{"GET", "/api/nothing", "", 404, ""},
		{"GET", "/static/missing.js", "", 404, ""},
		// Traversal and names that are not clean local paths.
		{"GET", "/api/config?run=", "", 400, ""},
		{"GET", "/api/config?run=..", "", 400, ""},
		{"GET", "/api/config?run=../outside", "", 400, ""},
		{"GET", "/api/config?run=..%2Foutside", "", 400, ""},
		{"GET", "/api/config?run=a/../../outside", "", 400, ""},
		{"GET", "/api/config?run=%2Fetc", "", 400, ""},
		{"GET", "/api/config?run=" + filepath.ToSlash(outside), "", 400, ""},
		{"GET", "/api/config?run=a%5C..%5C..%5Coutside", "", 400, ""},
		{"GET", "/api/config?run=./a", "", 400, ""},
		{"GET", "/api/config?run=a/", "", 400, ""},
		{"GET", "/api/config?run=a%00", "", 400, ""},
		{"GET", "/api/config?run=.hidden/run", "", 400, ""},
		{"GET", "/api/log?run=../outside", "", 400, ""},
		{"GET", "/api/gif?run=../outside", "", 400, ""},
		// A symbolic link out of the runs directory.
		{"GET", "/api/config?run=link", "", 400, ""},
		// Files that are links are not read.
		{"GET", "/api/config?run=linked-files", "", 404, ""},
		// DNS rebinding: only IP addresses, localhost and configured names.
		{"GET", "/api/runs", "evil.example:6006", 403, ""},
		{"GET", "/api/runs", "127.0.0.1:6006", 200, ""},
		{"GET", "/api/runs", "[::1]:6006", 200, ""},
		{"GET", "/api/runs", "LOCALHOST", 200, ""},
	}
	for _, tc := range tests {
		w := get(t, s, tc.method, tc.target, tc.host)
		if w.Code != tc.code {
			t.Errorf("%s %s (host %q): status %d, want %d (body %q)", tc.method, tc.target, tc.host, w.Code, tc.code, w.Body.String())
			continue
		}
		if body := w.Body.String(); tc.body != "" && !strings.Contains(body, tc.body) {
			t.Errorf("%s %s: body %q does not hold %q", tc.method, tc.target, body, tc.body)
		}
		if strings.Contains(w.Body.String(), "secret") {
			t.Errorf("%s %s: answered with the outside config", tc.method, tc.target)
		}
	}
	// Paths with dot segments never reach the files beside the page: the
	// router redirects to the cleaned path or answers 404.
	for _, target := range []string{"/static/../dashboard.go", "/static/%2e%2e/dashboard.go",
		"/static/..%2fdashboard.go", "/static/../../go.mod", "/../go.mod"} {
		if w := get(t, s, "GET", target, ""); w.Code == 200 || strings.Contains(w.Body.String(), "package dashboard") {
			t.Errorf("GET %s: status %d, body %q", target, w.Code, w.Body.String())
		}
	}
	// The links are not listed as runs.
	w := get(t, s, "GET", "/api/runs", "")
	var runs []Run
	if err := json.Unmarshal(w.Body.Bytes(), &runs); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Name == "link" || r.Name == "linked-files" {
			t.Errorf("run %q listed", r.Name)
		}
	}
}

func TestHostsConfig(t *testing.T) {
	root, _ := newRunsDir(t)
	s, err := New(Config{Dir: root, Hosts: []string{"trainbox"}})
	if err != nil {
		t.Fatal(err)
	}
	if w := get(t, s, "GET", "/api/runs", "TrainBox:6006"); w.Code != 200 {
		t.Errorf("configured host: status %d, want 200", w.Code)
	}
	if w := get(t, s, "GET", "/api/runs", "other:6006"); w.Code != 403 {
		t.Errorf("other host: status %d, want 403", w.Code)
	}
}

// step is what one follower step is expected to return.
type step struct {
	reset, exists bool
	recs          []string // steps of the records, as in the file
	more          bool
}

// followSteps checks the follower of path step by step: before each step
// it runs the action, then compares the step's results.
func TestFollower(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, LogFile)
	write := func(s string) func() {
		return func() {
			if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	appendTo := func(s string) func() {
		return func() {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	truncate := func(n int) func() {
		return func() {
			if err := os.Truncate(path, int64(n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	remove := func() {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	replace := func(s string) func() {
		return func() {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}
	}
	nothing := func() {}
	recs := func(s ...string) []string { return s }
	// recLong is longer than rec1, so a file rec0+rec1 truncated to rec0
	// then grown by recLong is longer than before, with other bytes where
	// rec1 was.
	recLong := `{"step":1000,"scope":"train","values":{"return_mean":21,"padding_to_be_longer":1}}` + "\n"
	tests := []struct {
		name   string
		action func()
		want   step
	}{
		{"missing at start", nothing, step{reset: true}},
		{"still missing", nothing, step{}},
		{"created", write(rec0), step{reset: true, exists: true, recs: recs("0")}},
		{"nothing new", nothing, step{exists: true}},
		{"partial line waits", appendTo(rec1[:10]), step{exists: true}},
		{"line completed", appendTo(rec1[10:] + rec2), step{exists: true, recs: recs("1000", "2000")}},
		{"not JSON skipped", appendTo("garbage\n\n[1]\n" + rec0), step{exists: true, recs: recs("0")}},
		{"truncated (resume)", truncate(len(rec0)), step{reset: true, exists: true, recs: recs("0")}},
		{"appended", appendTo(rec1), step{exists: true, recs: recs("1000")}},
		{"truncated and regrown past the old size", func() { truncate(len(rec0))(); appendTo(recLong + rec2)() },
			step{reset: true, exists: true, recs: recs("0", "1000", "2000")}},
		{"deleted", remove, step{reset: true}},
		{"deleted still", nothing, step{}},
		{"created again", write(rec1), step{reset: true, exists: true, recs: recs("1000")}},
		{"replaced by rename", replace(rec2 + rec0), step{reset: true, exists: true, recs: recs("2000", "0")}},
	}
	f := &follower{path: path}
	defer f.close()
	for _, tc := range tests {
		tc.action()
		reset, exists, got, more := f.step()
		var steps []string
		for _, r := range got {
			var rec struct {
				Step json.Number `json:"step"`
			}
			if err := json.Unmarshal(r, &rec); err != nil {
				t.Fatalf("%s: record %s: %v", tc.name, r, err)
			}
			steps = append(steps, rec.Step.String())
		}
		if reset != tc.want.reset || exists != tc.want.exists || more != tc.want.more ||
			strings.Join(steps, ",") != strings.Join(tc.want.recs, ",") {
			t.Errorf("%s: step = reset %v exists %v recs %v more %v; want %+v", tc.name, reset, exists, steps, more, tc.want)
		}
	}
}

func TestFollowerLongLines(t *testing.T) {
	// A line longer than one chunk is dropped whole; the records around it
	// are kept, and reading a file larger than a chunk takes several steps.
	path := filepath.Join(t.TempDir(), LogFile)
	long := `{"step":5,"values":{"x":"` + strings.Repeat("y", chunk+10) + `"}}` + "\n"
	many := strings.Repeat(rec1, chunk/len(rec1)+1)
	if err := os.WriteFile(path, []byte(rec0+long+rec2+many), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &follower{path: path}
	defer f.close()
	var n, steps int
	for more := true; more; steps++ {
		var recs []json.RawMessage
		_, _, recs, more = f.step()
		n += len(recs)
		if steps > 10 {
			t.Fatal("no end after 10 steps")
		}
	}
	if want := 2 + chunk/len(rec1) + 1; n != want {
		t.Errorf("%d records, want %d (the long line dropped)", n, want)
	}
	if steps < 3 {
		t.Errorf("%d steps, want at least 3 for a file of more than two chunks", steps)
	}
}

// event is one server-sent event.
type event struct{ name, data string }

// readEvents sends the events of an event stream on a channel until the
// stream ends.
func readEvents(r io.Reader) <-chan event {
	ch := make(chan event, 100)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		var ev event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					ch <- ev
				}
				ev = event{}
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return ch
}

func TestLogStream(t *testing.T) {
	root, _ := newRunsDir(t)
	s, err := New(Config{Dir: root, Poll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/log?run=a", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	events := readEvents(resp.Body)
	next := func(what string) event {
		t.Helper()
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("%s: stream ended", what)
			}
			return ev
		case <-ctx.Done():
			t.Fatalf("%s: no event", what)
		}
		return event{}
	}
	expect := func(what string, want ...event) {
		t.Helper()
		for _, w := range want {
			if got := next(what); got != w {
				t.Fatalf("%s: event %+v, want %+v", what, got, w)
			}
		}
	}
	logPath := filepath.Join(root, "a", LogFile)
	compact := func(lines ...string) string {
		return "[" + strings.Join(strings.Fields(strings.Join(lines, " ")), ",") + "]"
	}
	expect("start", event{"reset", `{"exists":true}`}, event{"records", compact(rec0, rec1)})

	f, err := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(rec2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	expect("append", event{"records", compact(rec2)})

	if err := os.Truncate(logPath, int64(len(rec0))); err != nil {
		t.Fatal(err)
	}
	expect("truncate", event{"reset", `{"exists":true}`}, event{"records", compact(rec0)})

	if err := os.Remove(logPath); err != nil {
		t.Fatal(err)
	}
	// The directory keeps its config.json, so it is still a run.
	expect("delete", event{"reset", `{"exists":false}`})
	if err := os.WriteFile(logPath, []byte(rec1), 0o644); err != nil {
		t.Fatal(err)
	}
	expect("recreate", event{"reset", `{"exists":true}`}, event{"records", compact(rec1)})
}

func TestLogStreamEndsWithServer(t *testing.T) {
	// A stream ends when its request's context does, which is how the
	// command stops the streams when it shuts the server down.
	root, _ := newRunsDir(t)
	s, err := New(Config{Dir: root, Poll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, "GET", "/api/log?run=a", nil)
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		s.ServeHTTP(w, req)
		close(done)
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the stream did not end with its context")
	}
}
