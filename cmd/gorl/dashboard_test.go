package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a command writing and a test
// reading at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var dashboardURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/(\?run=[^ \n]+)?`)

// waitURL waits for the dashboard's address to appear in out.
func waitURL(t *testing.T, out *syncBuffer, done <-chan error) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if u := dashboardURL.FindString(out.String()); u != "" {
			return u
		}
		select {
		case err := <-done:
			t.Fatalf("the command ended before serving: %v\n%s", err, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("no address printed: %q", out.String())
	return ""
}

func TestDashboardCommand(t *testing.T) {
	runs := t.TempDir()
	runPath := filepath.Join(runs, "ppo-1")
	if err := os.Mkdir(runPath, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runPath, configFile), []byte(`{"algo":"ppo","env":"CartPole-v1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		wantRun string // the run the page opens on
	}{
		{"runs directory, flags after it", []string{runs, "--addr", "127.0.0.1:0"}, ""},
		{"flags first", []string{"--addr", "127.0.0.1:0", runs}, ""},
		{"a run directory", []string{runPath, "--addr", "127.0.0.1:0"}, "ppo-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errOut syncBuffer
			done := make(chan error, 1)
			go func() { done <- run(ctx, append([]string{"dashboard"}, tc.args...), &out, &errOut) }()
			u := waitURL(t, &out, done)
			if !strings.Contains(out.String(), "dashboard of ") || !strings.Contains(out.String(), "read-only") {
				t.Errorf("output %q", out.String())
			}
			if tc.wantRun != "" && !strings.HasSuffix(u, "?run="+tc.wantRun) {
				t.Errorf("address %s does not open run %s", u, tc.wantRun)
			}
			base, _, _ := strings.Cut(u, "?")
			resp, err := http.Get(base + "api/runs")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), `"name":"ppo-1"`) {
				t.Errorf("GET /api/runs: %d %s", resp.StatusCode, body)
			}
			// A log stream open when the command stops must not hold it.
			stream, err := http.Get(base + "api/log?run=ppo-1")
			if err != nil {
				t.Fatal(err)
			}
			defer stream.Body.Close()
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("dashboard stopped with %v", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("dashboard did not stop")
			}
		})
	}
}

func TestDashboardCommandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "missing")}, "runs directory"},
		{[]string{dir, "--addr", "nonsense"}, "--addr"},
		{[]string{dir, "other"}, "unexpected arguments"},
		{[]string{"--nope"}, "not defined"},
	} {
		var out, errOut bytes.Buffer
		err := run(context.Background(), append([]string{"dashboard"}, tc.args...), &out, &errOut)
		if err == nil || !strings.Contains(err.Error()+errOut.String(), tc.want) {
			t.Errorf("gorl dashboard %q: %v (stderr %q), want an error with %q", tc.args, err, errOut.String(), tc.want)
		}
	}
}

func TestTrainDashboard(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an agent")
	}
	logdir := filepath.Join(t.TempDir(), "tiny")
	var out, errOut syncBuffer
	args := []string{"train", "--algo", "ppo", "--quiet", "--dashboard", "--logdir", logdir,
		"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=100", "--set", "train_envs=2",
		"--set", "test_envs=1", "--set", "trainer.test_episodes=1", "--set", "trainer.step_per_collect=100",
		"--set", "algorithm.net.hidden=[8]"}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("train: %v\n%s", err, errOut.String())
	}
	if u := dashboardURL.FindString(out.String()); !strings.HasSuffix(u, "/?run=tiny") {
		t.Errorf("output %q: want the dashboard's address, open on the run", out.String())
	}
}
