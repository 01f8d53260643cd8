package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorl/gorl/algo"
)

// proc is a gorl process started by a test, its output read line by line.
type proc struct {
	t     *testing.T
	name  string
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	more  chan struct{} // signalled on each new line
	done  chan struct{} // closed when the output ends
}

// startProc starts the built gorl with args; the process is killed when
// the test ends.
func startProc(t *testing.T, bin, name string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, more: make(chan struct{}, 1), done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	r, w := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = w, w
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		w.Close()
	}()
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			select {
			case p.more <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("output of %s:\n%s", name, p.output())
		}
	})
	return p
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// waitFor returns the submatches of the first line from line from on that
// matches re, and the index after it; it fails the test after d.
func (p *proc) waitFor(re *regexp.Regexp, from int, d time.Duration) ([]string, int) {
	p.t.Helper()
	deadline := time.After(d)
	for {
		p.mu.Lock()
		for i := from; i < len(p.lines); i++ {
			if m := re.FindStringSubmatch(p.lines[i]); m != nil {
				p.mu.Unlock()
				return m, i + 1
			}
		}
		from = len(p.lines)
		p.mu.Unlock()
		select {
		case <-p.more:
		case <-p.done:
			select {
			case <-p.more:
				continue
			default:
			}
			p.t.Fatalf("%s ended without a line matching %q", p.name, re)
		case <-deadline:
			p.t.Fatalf("%s: no line matching %q within %v", p.name, re, d)
		}
	}
}

// lineCount returns the number of lines read so far.
func (p *proc) lineCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines)
}

// faultWait bounds each wait of the fault tests: generous, because the
// processes share a loaded machine.
const faultWait = 90 * time.Second

// TestDistributedFaults runs a learner, a NATS server and two actors as
// separate gorl processes on loopback, for each distributed algorithm:
// an actor killed mid-run is logged as gone while the learner goes on
// updating; the actor started again rejoins; the learner killed (SIGKILL,
// no chance to save) and started again with --resume continues from the
// update of its last checkpoint, the last one it printed.
func TestDistributedFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gorl processes that train")
	}
	bin := buildGorl(t)
	for _, tc := range []struct {
		algo string
		sets []string
	}{
		{"apex-dqn", []string{"algorithm.learning_starts=200", "algorithm.flush_every=20"}},
		{"impala", nil},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			serve := startProc(t, bin, "serve", "serve", "--port", "0")
			m, _ := serve.waitFor(regexp.MustCompile(`serving NATS on (nats://127\.0\.0\.1:\d+)`), 0, faultWait)
			url := m[1]
			dir := filepath.Join(t.TempDir(), "run")
			args := []string{"learner", "--connect", url, "--algo", tc.algo, "--actors", "2", "--logdir", dir,
				"--set", "max_updates=1000000", "--set", "reward_threshold=1e9", "--set", "test_every=50", "--set", "test_episodes=1"}
			for _, s := range tc.sets {
				args = append(args, "--set", s)
			}
			learner := startProc(t, bin, "learner", args...)
			actor := func(i int) *proc {
				return startProc(t, bin, fmt.Sprintf("actor %d", i), "actor", "--connect", url, "--id", strconv.Itoa(i))
			}
			actor(0)
			a1 := actor(1)
			update := regexp.MustCompile(`^update (\d+): `)
			_, at := learner.waitFor(regexp.MustCompile(`^(actor-0, )?actor-1 joined`), 0, faultWait)
			_, at = learner.waitFor(update, at, faultWait)

			a1.cmd.Process.Kill()
			_, at = learner.waitFor(regexp.MustCompile(`^actor-1 left: no heartbeat .* goes on with 1$`), at, faultWait)
			m, at = learner.waitFor(update, at, faultWait)
			m, at = learner.waitFor(update, at, faultWait) // two tests after the loss: updates go on
			t.Logf("learner at update %s after actor 1 left", m[1])

			actor(1)
			_, at = learner.waitFor(regexp.MustCompile(`^actor-1 joined \(2 live\)`), at, faultWait)
			m, at = learner.waitFor(update, at, faultWait)

			// The learner's checkpoint holds the update of the last test
			// line it printed (it writes the checkpoint first). Kill it
			// just after one.
			m, _ = learner.waitFor(update, at, faultWait)
			learner.cmd.Process.Signal(syscall.SIGKILL)
			<-learner.done
			last := 0
			for _, line := range strings.Split(learner.output(), "\n") {
				if m := update.FindStringSubmatch(line); m != nil {
					last, _ = strconv.Atoi(m[1])
				}
			}
			if last == 0 {
				t.Fatal("no test line before the kill")
			}
			again := startProc(t, bin, "learner again", "learner", "--connect", url, "--resume", "--logdir", dir)
			m, at = again.waitFor(regexp.MustCompile(`^resuming from the checkpoint of update (\d+) `), 0, faultWait)
			// A kill between writing a checkpoint and printing its line
			// leaves the next test's checkpoint.
			resumed, _ := strconv.Atoi(m[1])
			if resumed != last && resumed != last+50 {
				t.Errorf("resumed from update %d, want %d (the last test before the kill)", resumed, last)
			}
			m, _ = again.waitFor(update, at, faultWait)
			if got, _ := strconv.Atoi(m[1]); got <= resumed {
				t.Errorf("first test after the resume at update %d, want after %d", got, resumed)
			}
			b, err := os.ReadFile(filepath.Join(dir, resumesFile))
			if err != nil || !strings.Contains(string(b), fmt.Sprintf(`"gradient_steps":%d`, resumed)) {
				t.Errorf("%s = %q (%v), want a resume from update %d", resumesFile, b, err, resumed)
			}
		})
	}
}

// TestDistributedCommandLine runs the distributed commands with bad flags
// and settings, in process: each must fail with exit code 2 and a message
// naming what is wrong (the expected substrings are the commands' and the
// configurations' own messages), before it starts a server, a run
// directory or training.
func TestDistributedCommandLine(t *testing.T) {
	tmp := t.TempDir()
	run1 := filepath.Join(tmp, "run1")
	if err := os.Mkdir(run1, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run1, configFile), []byte(`{"algo": "apex-dqn", "env": "CartPole-v1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A run that took its max_updates: its checkpoint's counts say 10
	// updates (the learner's part is not read before the refusal).
	done := filepath.Join(tmp, "done")
	if err := os.Mkdir(done, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(done, configFile), []byte(`{"algo": "impala", "env": "CartPole-v1", "max_updates": 10}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ck := distCheckpoint{Updates: 10, EnvSteps: 1600}
	if err := writeAtomic(filepath.Join(done, checkpointFile), func(w io.Writer) error {
		return algo.SaveParts(w, algo.JSONPart("progress", &ck), algo.Part{Name: "learner", Save: func(io.Writer) error { return nil }})
	}); err != nil {
		t.Fatal(err)
	}
	train := func(args ...string) []string {
		return append([]string{"train", "--algo", "apex-dqn", "--logdir", filepath.Join(tmp, "never")}, args...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no actors", train("--actors", "0"), "actors = 0, want ≥ 1"},
		{"URL without scheme", train("--nats", "localhost:4222"), `URL "localhost:4222": want nats://HOST:PORT`},
		{"empty URL", train("--nats", "nats://127.0.0.1:4222,"), "empty URL"},
		{"user without password", train("--user", "a"), "--user and --password go together"},
		{"unknown algorithm setting", train("--set", "algorithm.bogus=1"), "algorithm.bogus"},
		{"bad impala setting", []string{"train", "--algo", "impala", "--set", "algorithm.unroll=0"}, "unroll = 0, want ≥ 1"},
		{"unknown env", train("--env", "NoSuch-v0"), `unknown env "NoSuch-v0"`},
		{"bad group", train("--group", "a.b"), `group "a.b"`},
		{"no updates", train("--set", "max_updates=0"), "max_updates = 0, want ≥ 1"},
		{"set algo", train("--set", "algo=impala"), "--set algo: use --algo"},
		{"resume changes the network", []string{"train", "--resume", "--logdir", run1, "--set", "algorithm.batch_size=3"},
			"a resumed run may change only max_updates, reward_threshold, test_every, test_episodes"},
		{"resume changes the actors", []string{"train", "--resume", "--logdir", run1, "--actors", "3"}, "--actors, --group and --seed do not apply"},
		{"resume of a finished run", []string{"train", "--resume", "--logdir", done}, "already took max_updates = 10 updates; continue it with --set max_updates=N, N above 10"},
		{"learner without server", []string{"learner", "--algo", "apex-dqn"}, "learner: --connect URL is required"},
		{"learner unknown algorithm", []string{"learner", "--connect", "nats://127.0.0.1:1", "--algo", "a3c-x"}, `unknown distributed algorithm "a3c-x"`},
		{"learner argument", []string{"learner", "extra"}, `learner: unexpected arguments ["extra"]`},
		{"actor without server", []string{"actor", "--id", "0"}, "actor: --connect URL is required"},
		{"actor without id", []string{"actor", "--connect", "nats://127.0.0.1:1"}, "actor: --id N is required"},
		{"actor of no server", []string{"actor", "--connect", "nats://127.0.0.1:1", "--id", "0"}, "connect to nats://127.0.0.1:1"},
		{"serve bad port", []string{"serve", "--port", "70000"}, "serve: --port 70000: want 0 to 65535"},
		{"serve unknown flag", []string{"serve", "--listen", "x"}, "flag provided but not defined: -listen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			err := run(context.Background(), tc.args, &out, &errOut)
			if got := exitCode(err); got != 2 {
				t.Errorf("exit code %d (error %v), want 2", got, err)
			}
			msg := errOut.String()
			if err != nil {
				msg += "gorl: " + err.Error()
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("stderr %q, want %q", msg, tc.want)
			}
			noPanic(t, out.String()+msg)
		})
	}
	if _, err := os.Stat(filepath.Join(tmp, "never")); err == nil {
		t.Error("a refused command line made its run directory")
	}
}
