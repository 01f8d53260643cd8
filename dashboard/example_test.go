package dashboard_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gorl/gorl/dashboard"
)

// A Server is an http.Handler: serve it with http.Server on a loopback
// address (gorl dashboard does), or here with httptest. Its API lists the
// runs of the runs directory.
func ExampleNew() {
	runs, _ := os.MkdirTemp("", "runs")
	defer os.RemoveAll(runs)
	run := filepath.Join(runs, "ppo-CartPole-v1")
	os.Mkdir(run, 0o755)
	os.WriteFile(filepath.Join(run, dashboard.ConfigFile), []byte(`{"algo":"ppo","env":"CartPole-v1","seed":1}`), 0o644)
	os.WriteFile(filepath.Join(run, dashboard.LogFile), []byte(`{"step":0,"scope":"test","values":{"return_mean":21}}`+"\n"), 0o644)

	s, err := dashboard.New(dashboard.Config{Dir: runs})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, path := range []string{"/api/config?run=ppo-CartPole-v1", "/api/config?run=../etc", "/api/config?run=other"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%s: %d %s", path, resp.StatusCode, body)
		if resp.StatusCode == 200 {
			fmt.Println()
		}
	}
	// Output:
	// /api/config?run=ppo-CartPole-v1: 200 {"algo":"ppo","env":"CartPole-v1","seed":1}
	// /api/config?run=../etc: 400 invalid run name "../etc"
	// /api/config?run=other: 404 no run "other"
}

// Runs lists the runs below a directory, most recently modified first.
func ExampleRuns() {
	runs, _ := os.MkdirTemp("", "runs")
	defer os.RemoveAll(runs)
	for _, name := range []string{"dqn/seed1", "dqn/seed2"} {
		os.MkdirAll(filepath.Join(runs, name), 0o755)
		os.WriteFile(filepath.Join(runs, name, dashboard.ConfigFile), []byte(`{"algo":"dqn","env":"CartPole-v1"}`), 0o644)
	}
	list, _ := dashboard.Runs(runs)
	for _, r := range list {
		fmt.Println(r.Name, r.Algo, r.Env, r.LogSize)
	}
	// Unordered output:
	// dqn/seed1 dqn CartPole-v1 0
	// dqn/seed2 dqn CartPole-v1 0
}
