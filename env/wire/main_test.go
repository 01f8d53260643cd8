package wire_test

import (
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/wire"
	"github.com/gorl/gorl/nd"
)

// The test binary is also the worker of the envs below: TestMain serves one
// when started by wire.SelfCommand.
func TestMain(m *testing.M) {
	register := func(id string, cfg envtest.Config, wrap func(*envtest.Fake) env.Env) {
		env.Register(id, env.Spec{New: func() (env.Env, error) {
			f, err := envtest.New(cfg)
			if err != nil || wrap == nil {
				return f, err
			}
			return wrap(f), nil
		}})
	}
	five := []int{5}
	register("wiretest/Fake-v0", envtest.Config{ID: 7, Lengths: five, Info: true}, nil)
	register("wiretest/Dict-v0", envtest.Config{ID: 7, Lengths: five, Dict: true}, nil)
	register("wiretest/Error-v0", envtest.Config{Lengths: five, ErrorAt: 3}, nil)
	register("wiretest/Panic-v0", envtest.Config{Lengths: five, PanicAt: 3}, nil)
	register("wiretest/Hang-v0", envtest.Config{Lengths: five}, func(f *envtest.Fake) env.Env {
		return &faulty{Fake: f, at: 3, fault: func() { time.Sleep(time.Hour) }}
	})
	register("wiretest/Exit-v0", envtest.Config{Lengths: five}, func(f *envtest.Fake) env.Env {
		return &faulty{Fake: f, at: 3, fault: func() { os.Exit(3) }}
	})
	register("wiretest/Fatal-v0", envtest.Config{Lengths: five}, func(f *envtest.Fake) env.Env {
		return &faulty{Fake: f, at: 3, fault: func() { log.Fatal("wiretest: fatal in step") }}
	})
	register("wiretest/Garbage-v0", envtest.Config{Lengths: five}, func(f *envtest.Fake) env.Env {
		return &faulty{Fake: f, at: 3, fault: func() {
			// A frame header claiming more than MaxFrame, on the reply pipe.
			os.NewFile(4, "replies").Write([]byte{0xff, 0xff, 0xff, 0xff, 0x82})
			time.Sleep(time.Hour)
		}}
	})
	env.Register("wiretest/Frames-v0", env.Spec{New: newFrames})
	wire.ServeWorker()
	if os.Getenv("WIRETEST_SPAWNER") != "" {
		spawner()
	}
	os.Exit(m.Run())
}

// faulty runs fault at its at-th Step.
type faulty struct {
	*envtest.Fake
	n, at int
	fault func()
}

func (f *faulty) Step(a any) (any, float64, bool, bool, env.Info, error) {
	if f.n++; f.n == f.at {
		f.fault()
	}
	return f.Fake.Step(a)
}

// spawner starts a worker, prints its pid and waits to be killed.
func spawner() {
	cmd, _ := wire.SelfCommand("wiretest/Fake-v0")
	e, err := wire.Start(cmd, wire.Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println(e.Pid())
	time.Sleep(time.Hour)
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
		if ppid, state, ok := procStat(pid); ok && ppid == os.Getpid() && state != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// procStat returns the parent pid and state of process pid.
func procStat(pid int) (ppid int, state string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, "", false
	}
	s := string(b)
	// The command name, in parentheses, may hold spaces.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0], true
}

// frames is an env of 84×84×4 uint8 observations (an Atari frame stack)
// that costs nothing to step, for benchmarks of the transfer.
type frames struct {
	obs, act env.Space
	buf      *nd.Array
}

func newFrames() (env.Env, error) {
	obs, err := env.NewBox(0, 255, []int{84, 84, 4}, nd.Uint8)
	if err != nil {
		return nil, err
	}
	act, _ := env.NewDiscrete(6, 0)
	return &frames{obs: obs, act: act, buf: nd.Zeros(nd.Uint8, 84, 84, 4)}, nil
}

func (f *frames) ObservationSpace() env.Space { return f.obs }
func (f *frames) ActionSpace() env.Space      { return f.act }
func (f *frames) Close() error                { return nil }
func (f *frames) Reset(env.Seed) (any, env.Info, error) {
	return f.buf, nil, nil
}
func (f *frames) Step(any) (any, float64, bool, bool, env.Info, error) {
	d := nd.Data[uint8](f.buf)
	d[0]++
	return f.buf, 1, false, false, nil, nil
}
