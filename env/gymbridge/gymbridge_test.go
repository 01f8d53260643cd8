package gymbridge_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/gymbridge"
	"github.com/gorl/gorl/env/wire"
	"github.com/gorl/gorl/nd"
)

var cands = []string{os.Getenv(gymbridge.PythonVar), "python3", "/usr/bin/python3"}

var foundPython = sync.OnceValue(func() string {
	for _, py := range cands {
		if py != "" && exec.Command(py, "-c", "import numpy").Run() == nil {
			return py
		}
	}
	return ""
})

// python returns an interpreter with numpy: $GORL_PYTHON, python3 or
// /usr/bin/python3. Without one the test is skipped, or fails when
// GORL_REQUIRE_PYTHON is set (as in CI).
func python(t testing.TB) string {
	t.Helper()
	if py := foundPython(); py != "" {
		return py
	}
	if os.Getenv("GORL_REQUIRE_PYTHON") != "" {
		t.Fatalf("no Python with numpy among %q", cands)
	}
	t.Skipf("no Python with numpy among %q (install python3-numpy)", cands)
	return ""
}

func config(t testing.TB) gymbridge.Config {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return gymbridge.Config{Python: python(t), Dir: dir, Timeout: 20 * time.Second}
}

func serve(t testing.TB, factory string, cfg gymbridge.Config) *wire.Env {
	t.Helper()
	e, err := gymbridge.Serve(factory, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestCartPole steps the CartPole of testdata/cartpole.py, served by a
// worker, against env/classic's CartPole for 1,000 steps from each of three
// seeds: each episode starts both from the Go CartPole's initial state,
// both get the same random actions, and every observation (float32, so
// compared bit for bit), reward and termination flag must be equal.
func TestCartPole(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cfg := config(t)
			cfg.SharedMemory = tr.shared
			testCartPole(t, serve(t, "cartpole:CartPole", cfg))
		})
	}
}

// transports are the two ways frames travel: the pipes, and the shared
// region with the pipes as doorbells.
var transports = []struct {
	name   string
	shared bool
}{{"pipe", false}, {"shm", true}}

func testCartPole(t *testing.T, py *wire.Env) {
	for _, seed := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewPCG(seed, 0))
		cp := classic.NewCartPole()
		obs := make([]float32, 4)
		reset := func() {
			cp.Reset(rng)
			o, _, err := py.ResetOptions(env.NoSeed, map[string]any{"state": cp.State()})
			if err != nil {
				t.Fatal(err)
			}
			cp.Observe(obs)
			if got := nd.Data[float32](o.(*nd.Array)); !slices.Equal(got, obs) {
				t.Fatalf("seed %d reset: %v, want %v", seed, got, obs)
			}
		}
		reset()
		act := nd.Zeros(nd.Int64)
		episodes := 0
		for step := 1; step <= 1000; step++ {
			a := rng.IntN(2)
			nd.Data[int64](act)[0] = int64(a)
			o, rew, term, trunc, _, err := py.Step(act)
			if err != nil {
				t.Fatal(err)
			}
			wantRew, wantTerm, err := cp.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			cp.Observe(obs)
			if got := nd.Data[float32](o.(*nd.Array)); !slices.Equal(got, obs) || rew != wantRew || term != wantTerm || trunc {
				t.Fatalf("seed %d step %d: %v %v %v %v, want %v %v %v false", seed, step, got, rew, term, trunc, obs, wantRew, wantTerm)
			}
			if term {
				episodes++
				reset()
			}
		}
		if episodes < 10 {
			t.Fatalf("seed %d: %d episodes in 1000 random steps; the test should see many", seed, episodes)
		}
	}
}

// TestInfo checks the Infos and spaces that cross from Python.
func TestInfo(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			cfg := config(t)
			cfg.SharedMemory = tr.shared
			testInfo(t, serve(t, "faulty:Faulty", cfg))
		})
	}
}

func testInfo(t *testing.T, e *wire.Env) {
	if got := fmt.Sprint(e.ObservationSpace(), e.ActionSpace()); got != "Box(0.0, 10.0, (3,), float32) Discrete(2)" {
		t.Fatalf("spaces %s", got)
	}
	_, info, err := e.Reset(env.SeedOf(5))
	if err != nil {
		t.Fatal(err)
	}
	if info["seed"] != int64(5) {
		t.Fatalf("reset info %v", info)
	}
	obs, rew, _, _, info, err := e.Step(nd.MustNew(int64(1)))
	if err != nil {
		t.Fatal(err)
	}
	// testdata/faulty.py: obs [t, action, 0], reward 1, info {"t": t, "arr": int16 [0 1]}.
	if got := nd.Data[float32](obs.(*nd.Array)); !slices.Equal(got, []float32{1, 1, 0}) || rew != 1 {
		t.Fatalf("obs %v rew %v", got, rew)
	}
	arr, ok := info["arr"].(*nd.Array)
	if info["t"] != int64(1) || !ok || arr.DType() != nd.Int16 || !slices.Equal(nd.Data[int16](arr), []int16{0, 1}) {
		t.Fatalf("info %v", info)
	}
	if _, err := e.Render(); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("render: %v", err)
	}
}

// TestFaults checks that each failure inside a Python worker is an error
// naming the env and saying what happened, within a deadline, and that no
// process is left behind. Only the hanging worker meets the call timeout;
// the others get a long one, so that a worker slow to exit on a loaded
// machine is still seen to exit rather than to time out.
func TestFaults(t *testing.T) {
	before := children(t)
	cases := []struct {
		fault   string
		timeout time.Duration
		is      error  // what the third step's error wraps (nil: a *wire.RemoteError)
		text    string // and contains
	}{
		{"raise", 10 * time.Second, nil, "RuntimeError: faulty env: planned failure\nTraceback (most recent call last):"},
		{"exit", 10 * time.Second, wire.ErrExited, "exit status 3"},
		{"hang", 500 * time.Millisecond, wire.ErrTimeout, "did not answer within 500ms"},
		{"garbage", 10 * time.Second, wire.ErrProtocol, "frame length 4294967295"},
	}
	for _, tr := range transports {
		for _, c := range cases {
			t.Run(tr.name+"/"+c.fault, func(t *testing.T) {
				cfg := config(t)
				cfg.SharedMemory = tr.shared
				cfg.Kwargs = map[string]any{"fault": c.fault}
				cfg.Timeout = c.timeout
				e := serve(t, "faulty:Faulty", cfg)
				if _, _, err := e.Reset(env.NoSeed); err != nil {
					t.Fatal(err)
				}
				var err error
				t0 := time.Now()
				for range 3 {
					if _, _, _, _, _, err = e.Step(nd.MustNew(int64(0))); err != nil {
						break
					}
				}
				if d := time.Since(t0); d > 5*time.Second {
					t.Errorf("the error took %v", d)
				}
				var re *wire.RemoteError
				if c.is == nil && !errors.As(err, &re) || c.is != nil && !errors.Is(err, c.is) ||
					!strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), "faulty:Faulty") {
					t.Fatalf("error %v; want one wrapping %v, naming faulty:Faulty, containing %q", err, c.is, c.text)
				}
				e.Close()
			})
		}
	}
	if after := children(t); !slices.Equal(before, after) {
		t.Fatalf("child processes %v before, %v after", before, after)
	}
}

// TestStartErrors checks the errors of workers that cannot start.
func TestStartErrors(t *testing.T) {
	cfg := config(t)
	before := children(t)
	bad := cfg
	bad.Python = "/nonexistent/python3"
	if _, err := gymbridge.Serve("cartpole:CartPole", bad); !errors.Is(err, gymbridge.ErrNoPython) {
		t.Fatalf("missing interpreter: %v", err)
	}
	_, err := gymbridge.Serve("nosuchmodule:Env", cfg)
	if err == nil || !strings.Contains(err.Error(), "ModuleNotFoundError: No module named 'nosuchmodule'") || !strings.Contains(err.Error(), "Traceback") {
		t.Fatalf("failed import: %v", err)
	}
	// Without gymnasium installed the import fails; with it, the id is
	// unknown: either way a Python error with its traceback.
	t.Setenv(gymbridge.PythonVar, cfg.Python)
	_, err = env.Make("gym:NoSuchEnv-v0")
	if err == nil || !strings.Contains(err.Error(), "gym:NoSuchEnv-v0") || !strings.Contains(err.Error(), "Traceback") {
		t.Fatalf("unknown id: %v", err)
	}
	if after := children(t); !slices.Equal(before, after) {
		t.Fatalf("child processes %v before, %v after", before, after)
	}
}

// children returns the ids of this process's child processes that have not
// exited, from /proc.
func children(t *testing.T) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to count child processes: %v", err)
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[0] != "Z" && f[1] == strconv.Itoa(os.Getpid()) {
			out = append(out, pid)
		}
	}
	return out
}
