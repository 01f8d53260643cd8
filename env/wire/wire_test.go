package wire_test

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/wire"
	"github.com/gorl/gorl/nd"
)

func start(t *testing.T, id string, opts wire.Options) *wire.Env {
	t.Helper()
	cmd, err := wire.SelfCommand(id)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Name == "" {
		opts.Name = id
	}
	e, err := wire.Start(cmd, opts)
	if err != nil {
		t.Fatalf("Start(%s): %v", id, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestCartPole steps CartPole-v1 in a worker and in this process with the
// same seeds and actions: every observation, reward and flag must be equal
// (the values cross the pipe as raw bytes).
func TestCartPole(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) { testCartPole(t, tr.shared) })
	}
}

// transports are the two ways frames travel: the pipes, and the shared
// region (where supported) with the pipes as doorbells.
var transports = []struct {
	name   string
	shared bool
}{{"pipe", false}, {"shm", true}}

// sharedOK skips a test of the shared region where it is not supported.
func sharedOK(t testing.TB, shared bool) {
	t.Helper()
	if shared && runtime.GOOS+"/"+runtime.GOARCH != "linux/amd64" {
		t.Skip("the shared region needs Linux on x86-64")
	}
}

func testCartPole(t *testing.T, shared bool) {
	sharedOK(t, shared)
	remote := start(t, "CartPole-v1", wire.Options{Timeout: 10 * time.Second, SharedMemory: shared})
	local, err := env.Make("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	if !remote.ObservationSpace().Equal(local.ObservationSpace()) || !remote.ActionSpace().Equal(local.ActionSpace()) {
		t.Fatalf("spaces %v, %v; want %v, %v", remote.ObservationSpace(), remote.ActionSpace(), local.ObservationSpace(), local.ActionSpace())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	act := nd.Zeros(nd.Int64)
	episodes := 0
	for seed := uint64(1); episodes < 20; seed++ {
		ro, _, err1 := remote.Reset(env.SeedOf(seed))
		lo, _, err2 := local.Reset(env.SeedOf(seed))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		equalObs(t, "reset", ro, lo)
		for step := 1; ; step++ {
			nd.Data[int64](act)[0] = rng.Int64N(2)
			ro, rr, rt, rtr, _, err1 := remote.Step(act)
			lo, lr, lt, ltr, _, err2 := local.Step(act)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			equalObs(t, "step "+strconv.Itoa(step), ro, lo)
			if rr != lr || rt != lt || rtr != ltr {
				t.Fatalf("seed %d step %d: remote %v %v %v, local %v %v %v", seed, step, rr, rt, rtr, lr, lt, ltr)
			}
			if lt || ltr {
				break
			}
		}
		episodes++
	}
}

func equalObs(t *testing.T, where string, got, want any) {
	t.Helper()
	g, w := nd.Data[float32](got.(*nd.Array)), nd.Data[float32](want.(*nd.Array))
	if !slices.Equal(g, w) {
		t.Fatalf("%s: observation %v, want %v", where, g, w)
	}
}

// TestCheck runs the conformance checker on envs served by workers.
func TestCheck(t *testing.T) {
	for _, tr := range transports {
		for _, id := range []string{"CartPole-v1", "Pendulum-v1", "wiretest/Fake-v0", "wiretest/Dict-v0"} {
			t.Run(tr.name+"/"+id, func(t *testing.T) {
				sharedOK(t, tr.shared)
				envtest.Check(t, start(t, id, wire.Options{Timeout: 10 * time.Second, SharedMemory: tr.shared}))
			})
		}
	}
}

// TestInfoAndRender checks that Infos and frames cross the pipe.
func TestInfoAndRender(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			sharedOK(t, tr.shared)
			testInfoAndRender(t, start(t, "wiretest/Fake-v0", wire.Options{SharedMemory: tr.shared}))
		})
	}
}

func testInfoAndRender(t *testing.T, e *wire.Env) {
	_, info, err := e.Reset(env.SeedOf(1))
	if err != nil {
		t.Fatal(err)
	}
	// envtest.Fake's Info is {"episode": e, "step": t}; ints cross as int64.
	if info["episode"] != int64(0) || info["step"] != int64(0) {
		t.Fatalf("reset info %v", info)
	}
	obs, _, _, _, info, err := e.Step(nd.MustNew(int64(1)))
	if err != nil {
		t.Fatal(err)
	}
	if got := nd.Data[float32](obs.(*nd.Array)); !slices.Equal(got, []float32{7, 0, 1}) {
		t.Fatalf("obs %v, want [7 0 1] (ID, episode, step)", got)
	}
	if info["step"] != int64(1) {
		t.Fatalf("step info %v", info)
	}
	img, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	// The Fake draws an 8×8 frame whose gray level is the step count.
	if b := img.Bounds(); b.Dx() != 8 || b.Dy() != 8 {
		t.Fatalf("frame %v", b)
	}
	if r, _, _, _ := img.At(3, 3).RGBA(); r>>8 != 1 {
		t.Fatalf("gray level %d, want 1", r>>8)
	}
	// An action outside the space is the env's error, and the worker stays.
	if _, _, _, _, _, err := e.Step(nd.MustNew(int64(5))); !errors.Is(err, env.ErrAction) {
		t.Fatalf("bad action: %v, want ErrAction", err)
	}
	if _, _, _, _, _, err := e.Step(nd.MustNew(int64(0))); err != nil {
		t.Fatal(err)
	}
}

// TestFaults checks that each failure of a worker is an error naming what
// happened, within a deadline, and that no process is left behind.
func TestFaults(t *testing.T) {
	before := children(t)
	cases := []struct {
		id      string
		timeout time.Duration
		is      error  // what the third step's error wraps (nil: a *wire.RemoteError)
		text    string // and contains
		alive   bool   // whether the worker goes on after it
	}{
		{"wiretest/Error-v0", 0, nil, "exception: envtest.Fake 0: step 3: envtest: planned failure", true},
		{"wiretest/Panic-v0", 0, wire.ErrExited, "panic: ", false},
		{"wiretest/Exit-v0", 0, wire.ErrExited, "exit status 3", false},
		{"wiretest/Fatal-v0", 0, wire.ErrExited, "wiretest: fatal in step", false},
		{"wiretest/Hang-v0", 300 * time.Millisecond, wire.ErrTimeout, "did not answer within 300ms", false},
		{"wiretest/Garbage-v0", 0, wire.ErrProtocol, "frame length 4294967295", false},
	}
	for _, tr := range transports {
		for _, c := range cases {
			t.Run(tr.name+"/"+c.id, func(t *testing.T) {
				sharedOK(t, tr.shared)
				e := start(t, c.id, wire.Options{Timeout: c.timeout, SharedMemory: tr.shared})
				if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
					t.Fatal(err)
				}
				var err error
				t0 := time.Now()
				for range 3 {
					if _, _, _, _, _, err = e.Step(nd.MustNew(int64(1))); err != nil {
						break
					}
				}
				if d := time.Since(t0); d > 5*time.Second {
					t.Errorf("the error took %v", d)
				}
				var re *wire.RemoteError
				if c.is == nil && !errors.As(err, &re) || c.is != nil && !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.text) || !strings.Contains(err.Error(), c.id) {
					t.Fatalf("error %v; want one wrapping %v, naming %s, containing %q", err, c.is, c.id, c.text)
				}
				_, _, _, _, _, err2 := e.Step(nd.MustNew(int64(1)))
				if alive := err2 == nil || errors.Is(err2, env.ErrNeedReset); alive != c.alive {
					t.Fatalf("after the fault: %v (alive %v, want %v)", err2, alive, c.alive)
				}
				if err := e.Close(); err != nil && c.alive {
					t.Fatal(err)
				}
			})
		}
	}
	if after := children(t); !slices.Equal(before, after) {
		t.Fatalf("child processes %v before, %v after", before, after)
	}
}

// TestRestart checks that with Restart a lost worker makes a truncated
// step and the next Reset starts a new one.
func TestRestart(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) { testRestart(t, tr.shared) })
	}
}

func testRestart(t *testing.T, shared bool) {
	sharedOK(t, shared)
	var lost []error
	e := start(t, "wiretest/Exit-v0", wire.Options{Restart: true, SharedMemory: shared, OnLost: func(err error) { lost = append(lost, err) }})
	pid := e.Pid()
	if _, _, err := e.Reset(env.SeedOf(1)); err != nil {
		t.Fatal(err)
	}
	var last []float32
	for i := 1; i <= 3; i++ {
		obs, rew, term, trunc, info, err := e.Step(nd.MustNew(int64(1)))
		if err != nil {
			t.Fatal(err)
		}
		got := nd.Data[float32](obs.(*nd.Array))
		if i < 3 {
			last = slices.Clone(got)
			continue
		}
		// The worker exits in its third step: the step is truncated and
		// returns the last observation, [ID 0, episode 0, step 2].
		if !trunc || term || rew != 0 || !slices.Equal(got, last) || info["worker_error"] == nil {
			t.Fatalf("lost step: obs %v rew %v term %v trunc %v info %v; want %v, truncated", got, rew, term, trunc, info, last)
		}
	}
	if len(lost) != 1 || !errors.Is(lost[0], wire.ErrExited) {
		t.Fatalf("OnLost got %v", lost)
	}
	obs, _, err := e.Reset(env.SeedOf(1))
	if err != nil {
		t.Fatal(err)
	}
	if e.Pid() == pid || e.Pid() == 0 {
		t.Fatalf("pid %d after a restart, was %d", e.Pid(), pid)
	}
	if got := nd.Data[float32](obs.(*nd.Array)); !slices.Equal(got, []float32{0, 0, 0}) {
		t.Fatalf("obs after restart %v", got)
	}
}

// TestStartErrors checks the errors of workers that cannot start.
func TestStartErrors(t *testing.T) {
	_, err := wire.Start(func() *exec.Cmd { return exec.Command("/nonexistent/worker") }, wire.Options{Name: "x"})
	if err == nil || !strings.Contains(err.Error(), "starting the worker") {
		t.Fatalf("missing program: %v", err)
	}
	cmd, _ := wire.SelfCommand("wiretest/NoSuch-v0")
	_, err = wire.Start(cmd, wire.Options{Name: "y"})
	if !errors.Is(err, env.ErrNotRegistered) && !strings.Contains(err.Error(), "not registered") {
		t.Fatalf("unknown id: %v", err)
	}
	_, err = wire.Start(func() *exec.Cmd { return exec.Command("sh", "-c", "echo oops >&2; exit 4") }, wire.Options{Name: "z"})
	if !errors.Is(err, wire.ErrExited) || !strings.Contains(err.Error(), "oops") {
		t.Fatalf("worker exiting at once: %v", err)
	}
}

// TestParentKilled checks that a worker dies with the process that
// started it.
func TestParentKilled(t *testing.T) {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "WIRETEST_SPAWNER=1")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("spawner said %q", line)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, state, ok := procStat(pid)
		if !ok || state == "Z" {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("worker %d still running after its parent was killed", pid)
		}
	}
}

// TestStepAllocs locks the client's step, action to observation, at zero
// allocations (an env whose Info is nil).
func TestStepAllocs(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			sharedOK(t, tr.shared)
			testStepAllocs(t, start(t, "wiretest/Frames-v0", wire.Options{Timeout: 10 * time.Second, SharedMemory: tr.shared}))
		})
	}
}

func testStepAllocs(t *testing.T, e *wire.Env) {
	if _, _, err := e.Reset(env.NoSeed); err != nil {
		t.Fatal(err)
	}
	act := nd.MustNew(int64(1))
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, _, _, _, err := e.Step(act); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per step", allocs)
	}
}
