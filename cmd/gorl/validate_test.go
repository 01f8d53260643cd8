package main

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/env"
)

// TestRefusedRunWritesNothing checks that a configuration the trainer
// would refuse is refused before the run directory is created.
func TestRefusedRunWritesNothing(t *testing.T) {
	t.Setenv(memoryEnv, "16GiB")
	for _, tc := range []struct {
		set  []string
		want string
	}{
		{[]string{"trainer.epochs=0"}, "epochs 0 < 1"},
		{[]string{"trainer.step_per_epoch=0"}, "step_per_epoch 0 < 1"},
		{[]string{"trainer.step_per_collect=0"}, "set exactly one"},
		{[]string{"trainer.batch_size=0"}, "trainer.batch_size 0"},
		{[]string{"test_envs=0"}, "trainer.test_episodes 10:"},
		{[]string{"buffer_size=0"}, "buffer_size 0"},
		{[]string{"algorithm.gamma=-1"}, "dqn settings"},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		args := []string{"train", "--quiet", "--logdir", dir}
		for _, s := range tc.set {
			args = append(args, "--set", s)
		}
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.set, err, tc.want)
		}
		if _, serr := os.Stat(dir); !errors.Is(serr, os.ErrNotExist) {
			t.Errorf("%v: the refused run created its directory (%v)", tc.set, serr)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1024", 1024, true},
		{"8GiB", 8 << 30, true},
		{"1.5 GB", 1.5e9, true},
		{"512MiB", 512 << 20, true},
		{"12B", 12, true},
		{"lots", 0, false},
		{"-1GB", 0, false},
		{"NaN", 0, false},
	} {
		got, err := parseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseBytes(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestMemoryCheck checks the refusal against GORL_MEMORY: the message names
// the largest part's setting and the bytes.
func TestMemoryCheck(t *testing.T) {
	est := memoryEstimate{{"buffer_size", 3e9}, {"trainer.batch_size", 1e9}}
	t.Setenv(memoryEnv, "5GB")
	if err := est.check(); err != nil {
		t.Errorf("4 GB in 5 GB: %v", err)
	}
	t.Setenv(memoryEnv, "2GB")
	err := est.check()
	want := "buffer_size: the run would need about 4 GB of memory, 3 GB of it for buffer_size, more than the 2 GB available (GORL_MEMORY"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("4 GB in 2 GB: %v, want %q", err, want)
	}
	t.Setenv(memoryEnv, "off")
	if err := est.check(); err != nil {
		t.Errorf("check off: %v", err)
	}
	t.Setenv(memoryEnv, "much")
	if err := est.check(); err == nil || !strings.Contains(err.Error(), `GORL_MEMORY="much"`) {
		t.Errorf("a bad GORL_MEMORY: %v", err)
	}
}

// TestMeminfo reads MemAvailable from a /proc/meminfo text.
func TestMeminfo(t *testing.T) {
	text := []byte("MemTotal:       32768000 kB\nMemFree:         1000 kB\nMemAvailable:   2048000 kB\n")
	if kb, ok := meminfoField(text, "MemAvailable"); !ok || kb != 2048000 {
		t.Errorf("MemAvailable = %v, %v; want 2048000", kb, ok)
	}
	if _, ok := meminfoField(text, "SwapTotal"); ok {
		t.Error("found a field that is not there")
	}
}

// TestNetworkBytes checks the parameter count of an MLP: 4 inputs, hidden
// 8, 2 outputs has 4·8+8 + 8·2+2 = 58 parameters (by hand).
func TestNetworkBytes(t *testing.T) {
	params, acts := networkBytes(4, []float64{8}, 2)
	if params != 58*bytesPerParam || acts != 10*bytesPerActivation {
		t.Errorf("networkBytes = %v, %v; want %v, %v", params, acts, 58*bytesPerParam, 10*bytesPerActivation)
	}
	got := hiddenLayers([]byte(`{"net": {"hidden": [64, 64]}, "dueling": {"value_hidden": [32]}, "hidden_x": 3}`))
	if len(got) != 2 || len(got["algorithm.net.hidden"]) != 2 || len(got["algorithm.dueling.value_hidden"]) != 1 {
		t.Errorf("hiddenLayers = %v", got)
	}
}

// TestNoTestEpisodes trains with trainer.test_episodes=0, which the
// trainer's documentation says runs no tests: the run ends without error
// and its best policy is the last.
func TestNoTestEpisodes(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an agent")
	}
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"train", "--quiet", "--logdir", dir, "--set", "trainer.test_episodes=0",
		"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=200", "--set", "train_envs=2",
		"--set", "trainer.prefill_steps=64", "--set", "algorithm.hidden=[16]", "--set", "buffer_size=1000"}, &out, &errOut)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "no tests (trainer.test_episodes=0)") {
		t.Errorf("the run printed:\n%s", out.String())
	}
	best, err1 := os.ReadFile(filepath.Join(dir, bestFile))
	last, err2 := os.ReadFile(filepath.Join(dir, lastFile))
	if err1 != nil || err2 != nil || !bytes.Equal(best, last) {
		t.Errorf("best.gorl (%v) is not the last policy (%v)", err1, err2)
	}
}

// panicky is CartPole whose Step panics at the fifth step of an episode.
type panicky struct {
	env.Env
	n int
}

func (p *panicky) Reset(seed env.Seed) (any, env.Info, error) {
	p.n = 0
	return p.Env.Reset(seed)
}

func (p *panicky) Step(a any) (any, float64, bool, bool, env.Info, error) {
	if p.n++; p.n == 5 {
		panicInStep()
	}
	return p.Env.Step(a)
}

// panicInStep is a named frame for the stack to show.
func panicInStep() { panic("the env broke") }

const panickyID = "TestPanicky-v0"

func init() {
	env.Register(panickyID, env.Spec{New: func() (env.Env, error) {
		e, err := env.Make("CartPole-v1")
		return &panicky{Env: e}, err
	}})
}

// TestEnvPanicStack trains on an env that panics: the error says where
// the panic's stack was written, the run's error.log holds it, and
// --verbose prints it too.
func TestEnvPanicStack(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"train", "--quiet", "--logdir", dir, "--env", panickyID, "--set", "trainer.epochs=1",
			"--set", "train_envs=1", "--set", "test_envs=1", "--set", "trainer.test_episodes=1"}
		if verbose {
			args = append(args, "--verbose")
		}
		var out, errOut bytes.Buffer
		err := run(context.Background(), args, &out, &errOut)
		log := filepath.Join(dir, errorLogFile)
		if err == nil || !strings.Contains(err.Error(), "the env broke") || !strings.Contains(err.Error(), "stack is in "+log) {
			t.Fatalf("error %v, want the panic and %s", err, log)
		}
		b, rerr := os.ReadFile(log)
		if rerr != nil || !strings.Contains(string(b), "panicInStep") {
			t.Errorf("%s: %v\n%s", log, rerr, b)
		}
		if got := strings.Contains(errOut.String(), "panicInStep"); got != verbose {
			t.Errorf("verbose %v: stderr shows the stack: %v\n%s", verbose, got, errOut.String())
		}
	}
}

// TestEvalNonFinite saves a policy with a NaN weight: eval refuses it,
// naming the file and the parameter.
func TestEvalNonFinite(t *testing.T) {
	rc, acfg, err := resolve("dqn", "CartPole-v1", nil, []string{"algorithm.hidden=[8]"})
	if err != nil {
		t.Fatal(err)
	}
	alg, err := newAlgorithm(rc, acfg)
	if err != nil {
		t.Fatal(err)
	}
	ps := alg.Policy().Params()
	ps[len(ps)-1].Tensor.Data()[0] = float32(math.NaN())
	path := filepath.Join(t.TempDir(), "nan.gorl")
	if err := savePolicy(path, rc, alg.Policy(), nil); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = run(context.Background(), []string{"eval", "--episodes", "1", path}, &out, &errOut)
	want := path + ": parameter " + ps[len(ps)-1].Name + " holds NaN"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("eval: %v, want %q", err, want)
	}
}

// TestRunSafe makes a command panic: runSafe returns a one-line error
// saying where the stack is, and prints the stack only with --verbose.
func TestRunSafe(t *testing.T) {
	Register("panics", Algorithm[struct{}]{
		Defaults: func(string) (*struct{}, RunDefaults) { panic("a bug\nsecond line") },
		New:      func(*struct{}, env.Space, env.Space, *rand.Rand) (algo.Algorithm, error) { return nil, nil },
	})
	defer delete(algorithms, "panics")
	for _, verbose := range []bool{false, true} {
		args := []string{"train", "--algo", "panics"}
		if verbose {
			args = append(args, "--verbose")
		}
		var out, errOut bytes.Buffer
		err := runSafe(context.Background(), args, &out, &errOut)
		var ie *internalError
		if !errors.As(err, &ie) || exitCode(err) == 0 {
			t.Fatalf("runSafe: %v (exit code %d), want an internal error", err, exitCode(err))
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "internal error: a bug") || !strings.Contains(msg, ie.log) || ie.log == "" {
			t.Errorf("message %q", msg)
		}
		b, rerr := os.ReadFile(ie.log)
		if rerr != nil || !strings.Contains(string(b), "goroutine ") {
			t.Errorf("%s: %v", ie.log, rerr)
		}
		os.Remove(ie.log)
		if got := strings.Contains(errOut.String(), "goroutine "); got != verbose {
			t.Errorf("verbose %v: stderr shows the stack: %v", verbose, got)
		}
	}
}
