package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// runDir in a test's command line stands for a new run directory.
const runDir = "<run dir>"

var built struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// buildGorl builds the command once per test binary, with its test envs
// (build tag gorltest), and returns its path.
func buildGorl(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "gorl-test-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "gorl")
		built.out, built.err = exec.Command("go", "build", "-tags", "gorltest", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.path != "" {
		os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}

// TestBuild builds the command with the go tool.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	buildGorl(t)
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{flag.ErrHelp, 0},
		{errUsage, 2},
		{errors.New("unknown algorithm"), 2},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestCommandLine runs every subcommand with help flags, bad flags and bad
// settings, in process and (without -short) as the built binary: each
// must end with the expected exit code and a message naming what is wrong
// (the flag, setting, name or file), and no Go panic or goroutine trace.
// None of these command lines trains.
func TestCommandLine(t *testing.T) {
	// A fixed memory figure, so that the refusals of sizes that cannot fit
	// read the same on every machine (the binary inherits it).
	t.Setenv(memoryEnv, "16GiB")
	tmp := t.TempDir()
	badJSON := filepath.Join(tmp, "bad.json")
	unknownField := filepath.Join(tmp, "unknown.json")
	notRun := filepath.Join(tmp, "not-a-run")
	// A DQN run's configuration with its algo changed to ppo; huber_delta is a
	// setting only DQN has (discrete CQL and QR-DQN share the others).
	mixed := filepath.Join(tmp, "mixed.json")
	for path, text := range map[string]string{badJSON: `{"algo": "dqn",`, unknownField: `{"trainer": {"epochz": 3}}`,
		mixed: `{"algo": "ppo", "algorithm": {"hidden": [64], "n_step": 3, "beta_anneal_steps": 0, "double": true, "huber_delta": 1}}`} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(notRun, 0o755); err != nil {
		t.Fatal(err)
	}
	notPolicy := filepath.Join("testdata", "not-a-buffer.txt")
	// quiet stops a command line that would train before it does: a
	// trainer needs at least one epoch.
	// Each case gets a run directory of its own (runDir stands for it).
	quiet := []string{"--quiet", "--logdir", runDir, "--set", "trainer.epochs=0"}
	train := func(args ...string) []string { return append(append([]string{"train"}, quiet...), args...) }
	// refused runs a command line that validation must refuse before
	// anything is built; if it were not, it would train briefly (or run out
	// of memory, which is what these cases once did).
	refused := func(args ...string) []string {
		return append([]string{"train", "--quiet", "--logdir", filepath.Join(tmp, "refused"),
			"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=100"}, args...)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring of the standard output
		stderr string // substring of the standard error (the message, in process)
	}{
		{"no command", nil, 2, "", "usage:"},
		{"help", []string{"help"}, 0, "usage:", ""},
		{"-h", []string{"-h"}, 0, "gorl train --algo NAME", ""},
		{"unknown command", []string{"fly"}, 2, "", `unknown command "fly"`},

		{"train -h", []string{"train", "-h"}, 0, "", "-dataset"},
		{"train unknown flag", []string{"train", "--epochs", "3"}, 2, "", "flag provided but not defined: -epochs"},
		{"train bad seed", []string{"train", "--seed", "-1"}, 2, "", `invalid value "-1" for flag -seed`},
		{"train argument", []string{"train", "extra"}, 2, "", `unexpected arguments ["extra"]`},
		{"train unknown algo", train("--algo", "nosuch"), 2, "", `unknown algorithm "nosuch" (known: ` + strings.Join(algorithmNames(), ", ") + ")"},
		{"train --set unknown algo", train("--set", `algo="nosuch"`), 2, "", `unknown algorithm "nosuch"`},
		{"train --set other algo", train("--algo", "dqn", "--set", `algo="ppo"`), 2, "", "epochs 0 < 1"},
		{"train unknown env", train("--env", "CartPole-v9"), 2, "", `"CartPole-v9" (registered: Acrobot-v1, Ant-v4, `},
		{"train --set without value", train("--set", "algorithm.gamma"), 2, "", `--set "algorithm.gamma": want path=value`},
		{"train --set unknown field", train("--set", "trainer.epochz=3"), 2, "", `unknown setting trainer.epochz`},
		{"train --set unknown section", train("--set", "trainr.epochs=3"), 2, "", `--set trainr.epochs: no field "trainr"`},
		{"train --set not an object", train("--set", "seed.x=3"), 2, "", `--set seed.x: "seed" is not an object`},
		{"train --set wrong type", train("--set", "trainer.batch_size=many"), 2, "", "trainer.batch_size"},
		{"train --set unknown algorithm field", train("--algo", "ppo", "--set", "algorithm.eps_clipp=0.1"), 2, "", `ppo settings: unknown setting algorithm.eps_clipp`},
		{"train --set wrong type in algorithm", train("--set", "algorithm.gamma=high"), 2, "", `algorithm.gamma: want a number, got the string "high"`},
		{"train --set wrong type in a list", train("--set", `algorithm.hidden=[64,"x"]`), 2, "", `algorithm.hidden: want a list of integers, got [64,"x"]`},
		{"train --set negative seed", train("--set", "seed=-1"), 2, "", "seed: want a non-negative integer, got -1"},
		{"train --set huge count", train("--set", "train_envs=1e30"), 2, "", "train_envs: want an integer, got 1e+30"},
		{"train config of another algorithm", train("--config", mixed), 2, "", "these are settings of dqn, but the run's algo is ppo"},
		{"train huge buffer", refused("--set", "buffer_size=100000000000"), 2, "", "buffer_size: the run would need about 7.5 TB of memory"},
		{"train buffer beyond 2^40", refused("--set", "buffer_size=2000000000000"), 2, "", "buffer_size 2000000000000: the buffer's capacity must be in [1, 2^40]"},
		{"train huge network", refused("--set", "algorithm.hidden=[100000,100000]"), 2, "", "algorithm.hidden: the run would need about 200 GB of memory"},
		{"train huge ppo network", refused("--algo", "ppo", "--set", "algorithm.net.hidden=[100000,100000]"), 2, "", "algorithm.net.hidden: the run would need about 200 GB"},
		{"train batch larger than the buffer", refused("--set", "trainer.batch_size=100000000"), 2, "", "trainer.batch_size 100000000 is larger than buffer_size 100000"},
		{"train huge ppo batch", refused("--algo", "ppo", "--set", "trainer.batch_size=100000000"), 2, "", "trainer.batch_size: the run would need about 164 GB"},
		{"train a million envs", refused("--set", "train_envs=1000000"), 2, "", "train_envs 1000000: the number of envs must be in [0, 10000]"},
		{"train online without envs", refused("--set", "train_envs=0"), 2, "", "train_envs 0: dqn is an online algorithm that collects its own data and needs train_envs ≥ 1"},
		{"train tests without test envs", refused("--set", "test_envs=0"), 2, "", "trainer.test_episodes 10: test episodes need test_envs ≥ 1"},
		{"train two collection sizes", refused("--set", "trainer.episode_per_collect=3"), 2, "", "trainer.step_per_collect 256, trainer.episode_per_collect 3: set exactly one"},
		{"train zero batch", refused("--set", "trainer.batch_size=0"), 2, "", "trainer.batch_size 0: dqn samples batches of at least 1"},
		{"train bad algorithm value", refused("--set", "algorithm.gamma=2"), 2, "", "dqn settings: "},
		{"train negative envs", append(train("--set", "train_envs=-1"), "--set", "trainer.epochs=1"), 2, "", "train_envs -1"},
		{"train bad step timeout", train("--set", "step_timeout=soon"), 2, "", `step_timeout "soon": want a positive duration`},
		{"train missing config", train("--config", filepath.Join(tmp, "nope.json")), 2, "", "nope.json: no such file"},
		{"train bad config", train("--config", badJSON), 2, "", "bad.json"},
		{"train config unknown field", train("--config", unknownField), 2, "", `unknown setting trainer.epochz`},
		{"train resume without logdir", []string{"train", "--resume"}, 2, "", "--resume needs --logdir"},
		{"train resume of no run", []string{"train", "--resume", "--logdir", notRun}, 2, "", filepath.Join(notRun, configFile)},

		{"eval -h", []string{"eval", "-h"}, 0, "", "-episodes"},
		{"eval nothing", []string{"eval"}, 2, "", "eval: want one policy file or run directory"},
		{"eval two", []string{"eval", "a", "b"}, 2, "", "eval: want one policy file or run directory"},
		{"eval unknown flag", []string{"eval", "--epsiodes", "3", notRun}, 2, "", "flag provided but not defined: -epsiodes"},
		{"eval missing file", []string{"eval", filepath.Join(tmp, "nope.gorl")}, 2, "", "nope.gorl: no such file"},
		{"eval run dir without policy", []string{"eval", notRun}, 2, "", filepath.Join(notRun, bestFile)},
		{"eval not a policy", []string{"eval", notPolicy}, 2, "", "not-a-buffer.txt"},

		{"list", []string{"list"}, 0, "ALGORITHM", ""},
		{"bench -h", []string{"bench", "-h"}, 0, "", "offline-cartpole"},
		{"bench unknown run", []string{"bench", "no-such-run"}, 2, "", `bench: unknown run "no-such-run"`},
		{"bench no seeds", []string{"bench", "--seeds", "0", "go-benchmarks"}, 2, "", "--seeds 0 < 1"},
		{"bench unknown flag", []string{"bench", "--seed", "3"}, 2, "", "flag provided but not defined: -seed"},
		{"bench go-benchmarks", []string{"bench", "go-benchmarks"}, 0, "go test -run", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := func() []string {
				args := slices.Clone(tc.args)
				for i, a := range args {
					if a == runDir {
						args[i] = filepath.Join(t.TempDir(), "run")
					}
				}
				return args
			}
			var out, errOut bytes.Buffer
			err := run(context.Background(), args(), &out, &errOut)
			if got := exitCode(err); got != tc.code {
				t.Errorf("exit code %d (error %v), want %d", got, err, tc.code)
			}
			msg := errOut.String()
			if err != nil {
				msg += "gorl: " + err.Error()
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(msg, tc.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", out.String(), msg, tc.stdout, tc.stderr)
			}
			noPanic(t, out.String()+msg)
			if testing.Short() {
				return
			}
			cmd := exec.Command(buildGorl(t), args()...)
			var bout, berr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &bout, &berr
			err = cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(bout.String(), tc.stdout) || !strings.Contains(berr.String(), tc.stderr) {
				t.Errorf("the binary exited %d with stdout %q, stderr %q; want %d, %q and %q",
					code, bout.String(), berr.String(), tc.code, tc.stdout, tc.stderr)
			}
			noPanic(t, bout.String()+berr.String())
		})
	}
}
