package vector_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/env/wire"
	"github.com/gorl/gorl/nd"
)

// The test binary is also the worker of the process tests' envs.
func TestMain(m *testing.M) {
	env.Register("vectortest/Crash-v0", env.Spec{New: func() (env.Env, error) {
		f, err := envtest.New(envtest.Config{Lengths: []int{10}})
		return &crashing{Fake: f}, err
	}})
	wire.ServeWorker()
	os.Exit(m.Run())
}

// crashing is an envtest.Fake that calls log.Fatal in the third step of an
// episode reset with seed 99.
type crashing struct {
	*envtest.Fake
	doomed bool
	n      int
}

func (c *crashing) Reset(seed env.Seed) (any, env.Info, error) {
	v, ok := seed.Value()
	c.doomed, c.n = ok && v == 99, 0
	return c.Fake.Reset(seed)
}

func (c *crashing) Step(a any) (any, float64, bool, bool, env.Info, error) {
	if c.n++; c.doomed && c.n == 3 {
		log.Fatal("vectortest: crash")
	}
	return c.Fake.Step(a)
}

// TestProcessCartPole checks that CartPoles in worker processes give the
// results of CartPoles in this process, row for row, over the pipes and
// over the shared region.
func TestProcessCartPole(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			if shared && runtime.GOOS+"/"+runtime.GOARCH != "linux/amd64" {
				t.Skip("the shared region needs Linux on x86-64")
			}
			testProcessCartPole(t, vector.ProcessConfig{SharedMemory: shared})
		})
	}
}

func testProcessCartPole(t *testing.T, pc vector.ProcessConfig) {
	const n = 3
	pv, err := vector.NewProcess("CartPole-v1", n, vector.Config{StepTimeout: 10 * time.Second}, pc)
	if err != nil {
		t.Fatal(err)
	}
	defer pv.Close()
	var local []env.Env
	for range n {
		e, err := env.Make("CartPole-v1")
		if err != nil {
			t.Fatal(err)
		}
		local = append(local, e)
	}
	lv, err := vector.NewSync(local)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	ctx := context.Background()
	seeds := []env.Seed{env.SeedOf(1), env.SeedOf(2), env.SeedOf(3)}
	rp, err1 := pv.Reset(ctx, nil, seeds)
	want := nd.Data[float32](rp.Obs.(*nd.Array))
	got := slices.Clone(want)
	rl, err2 := lv.Reset(ctx, nil, seeds)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if want = nd.Data[float32](rl.Obs.(*nd.Array)); !slices.Equal(got, want) {
		t.Fatalf("reset: %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	acts := nd.Zeros(nd.Int64, n)
	for step := range 300 {
		for i := range n {
			nd.Data[int64](acts)[i] = rng.Int64N(2)
		}
		rp, err1 := pv.Step(ctx, nil, acts)
		if err1 != nil {
			t.Fatal(err1)
		}
		got := slices.Clone(nd.Data[float32](rp.Obs.(*nd.Array)))
		gotDone := slices.Concat(rp.Terminated, rp.Truncated)
		rl, err2 := lv.Step(ctx, nil, acts)
		if err2 != nil {
			t.Fatal(err2)
		}
		if want := nd.Data[float32](rl.Obs.(*nd.Array)); !slices.Equal(got, want) || !slices.Equal(gotDone, slices.Concat(rl.Terminated, rl.Truncated)) {
			t.Fatalf("step %d: %v %v, want %v %v %v", step, got, gotDone, want, rl.Terminated, rl.Truncated)
		}
		var done []int
		for i := range n {
			if rl.Terminated[i] || rl.Truncated[i] {
				done = append(done, i)
			}
		}
		if len(done) > 0 {
			_, err1 := pv.Reset(ctx, done, nil)
			_, err2 := lv.Reset(ctx, done, nil)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
		}
	}
}

// TestProcessCrash checks that an env whose worker dies fails the step
// with an error naming it, and that the other envs go on.
func TestProcessCrash(t *testing.T) {
	v, err := vector.NewProcess("vectortest/Crash-v0", 3, vector.Config{}, vector.ProcessConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	if _, err := v.Reset(ctx, nil, []env.Seed{env.SeedOf(1), env.SeedOf(99), env.SeedOf(2)}); err != nil {
		t.Fatal(err)
	}
	acts := nd.Zeros(nd.Int64, 3)
	for range 2 {
		if _, err := v.Step(ctx, nil, acts); err != nil {
			t.Fatal(err)
		}
	}
	_, err = v.Step(ctx, nil, acts)
	if !errors.Is(err, wire.ErrExited) || !strings.HasPrefix(err.Error(), "env 1: ") || !strings.Contains(err.Error(), "vectortest: crash") {
		t.Fatalf("error %v; want env 1's worker lost, with its last output", err)
	}
	// The other envs took their third step in the same call; they go on.
	res, err := v.Step(ctx, []int{0, 2}, nd.Zeros(nd.Int64, 2))
	if err != nil {
		t.Fatal(err)
	}
	// envtest.Fake's observation is [ID, episode, step].
	if got := nd.Data[float32](res.Obs.(*nd.Array)); got[2] != 4 || got[5] != 4 {
		t.Fatalf("the other envs' observations %v, want step 4", got)
	}
	if _, err := v.Reset(ctx, []int{1}, nil); !errors.Is(err, wire.ErrExited) {
		t.Fatalf("reset of the lost env: %v", err)
	}
}

// TestProcessRestartCollector checks that with Restart the collector stores
// the lost env's episode as truncated, and goes on with a new worker.
func TestProcessRestartCollector(t *testing.T) {
	var mu sync.Mutex
	var lost []string
	pc := vector.ProcessConfig{Restart: true, OnLost: func(id int, err error) {
		mu.Lock()
		defer mu.Unlock()
		lost = append(lost, strconv.Itoa(id)+": "+err.Error())
	}}
	v, err := vector.NewProcess("vectortest/Crash-v0", 3, vector.Config{}, pc)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	c, err := collector.New(collector.Config{Env: v, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Reset(ctx, []env.Seed{env.SeedOf(1), env.SeedOf(99), env.SeedOf(2)}); err != nil {
		t.Fatal(err)
	}
	stats, err := c.Collect(ctx, collector.Request{NStep: 30, Random: true})
	if err != nil {
		t.Fatal(err)
	}
	// Env 1's worker dies in its third step, which ends a 3-step episode;
	// envs 0 and 2 finish 10-step episodes at the tenth vector step, while
	// env 1's second episode (seeded by the collector's reset with no seed)
	// is 7 steps in.
	if stats.Steps != 30 || !slices.Equal(stats.Lens, []int{3, 10, 10}) {
		t.Fatalf("steps %d, episode lengths %v; want 30, [3 10 10]", stats.Steps, stats.Lens)
	}
	if len(lost) != 1 || !strings.HasPrefix(lost[0], "1: ") || !strings.Contains(lost[0], "vectortest: crash") {
		t.Fatalf("OnLost got %q", lost)
	}
	if _, err := c.Collect(ctx, collector.Request{NStep: 30, Random: true}); err != nil {
		t.Fatal(err)
	}
}

// TestProcessStartError checks the error for an id the worker cannot make.
func TestProcessStartError(t *testing.T) {
	_, err := vector.NewProcess("vectortest/NoSuch-v0", 2, vector.Config{}, vector.ProcessConfig{})
	if err == nil || !strings.HasPrefix(err.Error(), "env 0: ") || !strings.Contains(err.Error(), "not registered") {
		t.Fatalf("error %v", err)
	}
}
