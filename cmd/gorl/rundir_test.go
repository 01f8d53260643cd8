package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorl/gorl/logger"
)

// The tests of this file run real, short trainings of DQN on CartPole, some
// in the built command (with -tags gorltest, for its test envs) to send it
// signals.

// binary returns the command built for the package's tests (with its test
// envs), skipping the test under -short.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command and trains")
	}
	return buildGorl(t)
}

// lockedBuffer is a bytes.Buffer safe for a child's output and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// child is the command running in a process of its own.
type child struct {
	cmd            *exec.Cmd
	stdout, stderr lockedBuffer
	done           chan struct{}
}

func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(binary(t), args...), done: make(chan struct{})}
	c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.cmd.Wait(); close(c.done) }()
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		<-c.done
	})
	return c
}

// waitUntil polls cond until it holds, failing the test after timeout or
// if the child ends first.
func (c *child) waitUntil(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		select {
		case <-c.done:
			t.Fatalf("the command ended before %s: %v\nstdout:\n%s\nstderr:\n%s", what, c.cmd.ProcessState, c.stdout.String(), c.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v\nstdout:\n%s\nstderr:\n%s", what, timeout, c.stdout.String(), c.stderr.String())
		}
	}
}

// exitCode waits for the child to end and returns its exit status; it
// fails the test (and kills the child) after timeout.
func (c *child) exitCode(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-c.done:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		c.cmd.Process.Kill()
		t.Fatalf("the command did not end within %v\nstdout:\n%s\nstderr:\n%s", timeout, c.stdout.String(), c.stderr.String())
		return 0
	}
}

func (c *child) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// smallRun are the settings of a short DQN run on CartPole: steps epochs
// of stepsPerEpoch env steps, logged every 1000 steps, with no stop at a
// return.
func smallRun(dir string, epochs, stepsPerEpoch int) []string {
	return []string{"--quiet", "--logdir", dir, "--seed", "3",
		"--set", fmt.Sprint("trainer.epochs=", epochs), "--set", fmt.Sprint("trainer.step_per_epoch=", stepsPerEpoch),
		"--set", "train_envs=2", "--set", "test_envs=2", "--set", "trainer.test_episodes=2",
		"--set", "trainer.prefill_steps=64", "--set", "algorithm.hidden=[16]", "--set", "buffer_size=2000",
		"--set", "trainer.log_interval=1000", "--set", "trainer.reward_threshold=null",
		// Collections of 10 steps divide the epochs (dqn-CartPole-v1.json
		// collects 256).
		"--set", "trainer.step_per_collect=10"}
}

// trainIn runs gorl train in this process.
func trainIn(t *testing.T, args ...string) (stdout string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), append([]string{"train"}, args...), &out, &errOut)
	return out.String() + errOut.String(), err
}

// logRecord is a line of log.jsonl.
type logRecord struct {
	Step   int64              `json:"step"`
	Scope  string             `json:"scope"`
	Values map[string]float64 `json:"values"`
}

// readLog reads the records of dir's log.jsonl, without the timings
// (steps_per_second), which differ from run to run.
func readLog(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, logFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r logRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v in %q", logFile, err, sc.Text())
		}
		delete(r.Values, "steps_per_second")
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	return lines
}

// lastLoggedStep returns the step of the last complete record of dir's
// log.jsonl, -1 if none.
func lastLoggedStep(dir string) int64 {
	b, _ := os.ReadFile(filepath.Join(dir, logFile))
	lines := strings.Split(string(b), "\n")
	for i := len(lines) - 2; i >= 0; i-- {
		var r logRecord
		if json.Unmarshal([]byte(lines[i]), &r) == nil {
			return r.Step
		}
	}
	return -1
}

// eventSteps returns "tag@step" for every scalar in dir's event files, in
// file order, without the timings.
func eventSteps(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, eventsPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	var out []string
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for ev, err := range logger.ReadEvents(f) {
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, s := range ev.Scalars {
				if !strings.HasSuffix(s.Tag, "steps_per_second") {
					out = append(out, fmt.Sprintf("%s@%d", s.Tag, ev.Step))
				}
			}
		}
		f.Close()
	}
	return out
}

// TestInterruptAndResume interrupts a run in its second epoch with SIGINT
// and continues it with the command it prints. The interrupted command
// must exit 130 saying where it stopped and where its checkpoint is (P14
// item 5; before, it ended with "context canceled" and status 2), and the
// resumed run's log.jsonl must equal a straight run's line for line, and
// its event files hold each step once (item 8; before, the records of the
// lost part of epoch 2 were logged twice).
func TestInterruptAndResume(t *testing.T) {
	const steps = 50_000 // per epoch: long enough to interrupt the second
	interrupted, straight := t.TempDir(), t.TempDir()
	c := startChild(t, append([]string{"train"}, smallRun(interrupted, 2, steps)...)...)
	c.waitUntil(t, "record past the first epoch", time.Minute, func() bool { return lastLoggedStep(interrupted) > steps })
	c.signal(t, syscall.SIGINT)
	if code := c.exitCode(t, time.Minute); code != exitInterrupted {
		t.Fatalf("exit status %d, want %d (the run ended before the interrupt?)\nstdout:\n%s\nstderr:\n%s",
			code, exitInterrupted, c.stdout.String(), c.stderr.String())
	}
	msg := c.stderr.String()
	for _, want := range []string{
		"the run stopped in epoch 2 after ",
		fmt.Sprintf("its checkpoint %s holds epoch 1 (%d env steps", filepath.Join(interrupted, checkpointFile), steps),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the interrupted run's message lacks %q:\n%s", want, msg)
		}
	}
	m := regexp.MustCompile(`\n  (gorl train .*)\n`).FindStringSubmatch(msg)
	if m == nil || m[1] != "gorl train --resume --logdir "+interrupted {
		t.Fatalf("no command to continue the run in:\n%s", msg)
	}
	if strings.Contains(msg, "context canceled") {
		t.Errorf("the message speaks of the context:\n%s", msg)
	}

	out, err := exec.Command(binary(t), append(strings.Fields(m[1])[1:], "--quiet")...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
	if !strings.Contains(string(out), "resuming from the checkpoint of epoch 1") || !strings.Contains(string(out), "log records written after it are dropped") {
		t.Errorf("the resumed run printed:\n%s", out)
	}
	if out, err := trainIn(t, smallRun(straight, 2, steps)...); err != nil {
		t.Fatalf("straight run: %v\n%s", err, out)
	}
	a, b := readLog(t, straight), readLog(t, interrupted)
	if !slices.Equal(a, b) {
		t.Errorf("log.jsonl of the interrupted and resumed run (%d records) differs from the straight run's (%d)", len(b), len(a))
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Errorf("first difference, record %d:\n%s\n%s", i+1, a[i], b[i])
				break
			}
		}
	}
	ea, eb := eventSteps(t, straight), eventSteps(t, interrupted)
	if files, _ := filepath.Glob(filepath.Join(interrupted, eventsPrefix+"*")); len(files) != 2 {
		t.Errorf("%d event files after one resume, want 2", len(files))
	}
	if !slices.Equal(ea, eb) {
		t.Errorf("the event files of the resumed run hold %d scalars, the straight run's %d (a step logged twice?)", len(eb), len(ea))
	}
}

// TestTerminateBeforeCheckpoint stops a run with SIGTERM before its first
// checkpoint: it must exit 130 and say that resuming starts it over (P14
// items 4 and 5; before, SIGTERM killed it with no word), and --resume
// must then start it over, with a log that begins once.
func TestTerminateBeforeCheckpoint(t *testing.T) {
	dir := t.TempDir()
	c := startChild(t, append([]string{"train"}, smallRun(dir, 1, 100_000_000)...)...)
	c.waitUntil(t, "training record", time.Minute, func() bool { return lastLoggedStep(dir) > 0 })
	c.signal(t, syscall.SIGTERM)
	if code := c.exitCode(t, time.Minute); code != exitInterrupted {
		t.Fatalf("exit status %d, want %d\nstderr:\n%s", code, exitInterrupted, c.stderr.String())
	}
	msg := c.stderr.String()
	for _, want := range []string{"terminated: stopping", "the run stopped in epoch 1", "no checkpoint yet",
		"starts it over:\n  gorl train --resume --logdir " + dir + "\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	// A reward threshold met by any test ends the restarted run at its
	// first test during training.
	out, err := trainIn(t, "--quiet", "--resume", "--logdir", dir, "--set", "trainer.reward_threshold=0")
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if !strings.Contains(out, "holds no checkpoint (the run stopped before its first epoch ended): the run starts over") {
		t.Errorf("the resumed run printed:\n%s", out)
	}
	var firstTests int
	for _, r := range readLog(t, dir) {
		if strings.Contains(r, `"scope":"test"`) && strings.Contains(r, `"epoch":0`) {
			firstTests++
		}
	}
	if firstTests != 1 {
		t.Errorf("log.jsonl holds %d tests before training, want 1", firstTests)
	}
}

// TestSecondInterrupt runs on an env whose Step never returns: the first
// SIGINT cannot stop the run, the second must end it at once with a
// message and status 130 (P14 item 4; before, both were ignored).
func TestSecondInterrupt(t *testing.T) {
	dir := t.TempDir()
	c := startChild(t, "train", "--quiet", "--env", "test/Stuck-v0", "--logdir", dir, "--set", "algorithm.hidden=[8]")
	c.waitUntil(t, "stuck env", time.Minute, func() bool { return strings.Contains(c.stderr.String(), "stuck in Step") })
	c.signal(t, syscall.SIGINT)
	c.waitUntil(t, "word of the interrupt", time.Minute, func() bool { return strings.Contains(c.stderr.String(), "interrupt again to exit at once") })
	c.signal(t, syscall.SIGINT)
	if code := c.exitCode(t, 10*time.Second); code != exitInterrupted {
		t.Errorf("exit status %d, want %d", code, exitInterrupted)
	}
	if !strings.Contains(c.stderr.String(), "interrupt again: exiting at once") {
		t.Errorf("no word of the exit:\n%s", c.stderr.String())
	}
}

// TestRunDirTaken checks that a run directory is not mixed: a directory
// holding a run is refused without --resume and replaced whole with
// --overwrite, and a directory in use by a live run is refused, while the
// lock of a killed run is no obstacle (P14 item 7; before, the second run
// overwrote the first one's files and appended to its log).
func TestRunDirTaken(t *testing.T) {
	dir := t.TempDir()
	if out, err := trainIn(t, smallRun(dir, 1, 300)...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	before, _ := os.ReadFile(filepath.Join(dir, logFile))
	_, err := trainIn(t, smallRun(dir, 1, 300)...)
	if err == nil || !strings.Contains(err.Error(), "already holds a run") || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a second run in a run's directory: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, logFile)); !bytes.Equal(before, after) {
		t.Error("the refused run changed log.jsonl")
	}
	if _, err := trainIn(t, "--resume", "--overwrite", "--logdir", dir); err == nil {
		t.Error("--resume with --overwrite accepted")
	}
	// A file of the user's stays, and no file of the old run is left.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(dir, resumesFile), []byte("{}\n"), 0o644)
	if out, err := trainIn(t, append(smallRun(dir, 1, 300), "--overwrite")...); err != nil {
		t.Fatalf("--overwrite: %v\n%s", err, out)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, logFile)); !bytes.Equal(before, after) {
		t.Errorf("the overwriting run's log differs from the first run's (%d bytes, want %d)", len(after), len(before))
	}
	events, _ := filepath.Glob(filepath.Join(dir, eventsPrefix+"*"))
	_, errNotes := os.Stat(filepath.Join(dir, "notes.txt"))
	_, errResumes := os.Stat(filepath.Join(dir, resumesFile))
	if len(events) != 1 || errNotes != nil || errResumes == nil {
		t.Errorf("after --overwrite: %d event files (want 1), notes.txt: %v (want kept), resumes.jsonl: %v (want gone)", len(events), errNotes, errResumes)
	}

	// A live run holds the lock, in another process or in this one.
	busy := t.TempDir()
	c := startChild(t, "train", "--quiet", "--env", "test/Stuck-v0", "--logdir", busy, "--set", "algorithm.hidden=[8]")
	c.waitUntil(t, "start of training", time.Minute, func() bool { return strings.Contains(c.stdout.String(), "training dqn") })
	_, err = trainIn(t, "--resume", "--logdir", busy)
	if want := fmt.Sprintf("in use by another gorl run (process %d)", c.cmd.Process.Pid); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a second run in a busy directory: %v, want %q", err, want)
	}
	release, err := lockRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockRun(dir); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a second lock in one process: %v", err)
	}
	release()
	// A run killed with SIGKILL leaves its lock file but no lock.
	c.signal(t, syscall.SIGKILL)
	c.exitCode(t, time.Minute)
	if _, err := os.Stat(filepath.Join(busy, lockFile)); err != nil {
		t.Errorf("the killed run left no lock file (%v): the test shows nothing", err)
	}
	if out, err := trainIn(t, append(smallRun(busy, 1, 300), "--overwrite")...); err != nil {
		t.Errorf("a run after a killed one: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(busy, lockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a finished run left its lock file: %v", err)
	}
}

// TestResumeSettings checks that a resume keeps the settings that make the
// run what it is and records those it may change (P14 item 9; before,
// --resume --seed 99 rewrote config.json with seed 99).
func TestResumeSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("trains")
	}
	dir := t.TempDir()
	if out, err := trainIn(t, append(smallRun(dir, 1, 300), "--seed", "2")...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, configFile))
	for _, tc := range []struct {
		args []string
		name string // the setting the error must name
	}{
		{[]string{"--seed", "99"}, "seed"},
		{[]string{"--algo", "ppo"}, "algo"},
		{[]string{"--env", "Acrobot-v1"}, "env"},
		{[]string{"--set", "algorithm.gamma=0.5"}, "algorithm.gamma"},
		{[]string{"--set", "buffer_size=3000"}, "buffer_size"},
		{[]string{"--set", "train_envs=3"}, "train_envs"},
		{[]string{"--set", "trainer.batch_size=32"}, "trainer.batch_size"},
	} {
		_, err := trainIn(t, append([]string{"--quiet", "--resume", "--logdir", dir}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), "cannot change "+tc.name+" ") && !strings.Contains(err.Error(), "cannot change "+tc.name+":") {
			t.Errorf("--resume %s: %v, want an error naming %s", strings.Join(tc.args, " "), err, tc.name)
		}
		if now, _ := os.ReadFile(filepath.Join(dir, configFile)); !bytes.Equal(now, cfg) {
			t.Fatalf("--resume %s changed config.json:\n%s", strings.Join(tc.args, " "), now)
		}
	}
	out, err := trainIn(t, "--quiet", "--resume", "--logdir", dir, "--seed", "2", "--set", "trainer.epochs=2")
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if !strings.Contains(out, "changed on resume: trainer.epochs 1 → 2") || !strings.Contains(out, "epoch 2:") {
		t.Errorf("the resumed run printed:\n%s", out)
	}
	var rc RunConfig
	b, _ := os.ReadFile(filepath.Join(dir, configFile))
	if err := json.Unmarshal(b, &rc); err != nil || rc.Seed != 2 || rc.Trainer.Epochs != 2 {
		t.Errorf("config.json after the resume: seed %d, epochs %d (%v); want 2, 2", rc.Seed, rc.Trainer.Epochs, err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, resumesFile))
	var rec resumeRecord
	if err := json.Unmarshal(b, &rec); err != nil || rec.Epoch != 1 || rec.EnvSteps != 300 ||
		string(rec.Changes["trainer.epochs"].From) != "1" || string(rec.Changes["trainer.epochs"].To) != "2" || len(rec.Changes) != 1 {
		t.Errorf("%s: %s (%v)", resumesFile, b, err)
	}
}

// TestStepTimeout checks that step_timeout ends a run whose env hangs with
// a message naming the env and its step (P14 item 4; before, the run hung
// until killed).
func TestStepTimeout(t *testing.T) {
	c := startChild(t, "train", "--quiet", "--env", "test/Stuck-v0", "--logdir", t.TempDir(),
		"--set", "algorithm.hidden=[8]", "--set", "step_timeout=200ms")
	if code := c.exitCode(t, time.Minute); code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	msg := c.stderr.String()
	if !strings.Contains(msg, "env 0: step 1") || !strings.Contains(msg, "did not return within 200ms") {
		t.Errorf("the message does not name the env, its step and the timeout:\n%s", msg)
	}
	noPanic(t, msg)
}

// TestProcessWorkers trains with workers=process on an env whose process
// exits in its 50th step: without restart_workers the run ends with a
// message naming the env and the worker's last output; with it the run
// goes on to the end, warning of each restart.
func TestProcessWorkers(t *testing.T) {
	args := []string{"train", "--quiet", "--env", "test/Crash-v0", "--set", "algorithm.hidden=[8]",
		"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=400", "--set", "train_envs=2", "--set", "test_envs=1",
		"--set", "trainer.test_episodes=1", "--set", "workers=process"}
	c := startChild(t, append(args, "--logdir", t.TempDir())...)
	if code := c.exitCode(t, time.Minute); code == 0 {
		t.Errorf("exit status 0 after a worker crashed")
	}
	msg := c.stderr.String()
	if !strings.Contains(msg, "env 0: ") || !strings.Contains(msg, "worker exited") || !strings.Contains(msg, "test/Crash-v0: exiting") {
		t.Errorf("the message does not name the env and the worker's exit:\n%s", msg)
	}
	noPanic(t, msg)

	c = startChild(t, append(args, "--logdir", t.TempDir(), "--set", "restart_workers=true")...)
	if code := c.exitCode(t, time.Minute); code != 0 {
		t.Errorf("exit status %d with restart_workers\n%s", code, c.stderr.String())
	}
	if msg := c.stderr.String(); !strings.Contains(msg, "restarting it") {
		t.Errorf("no warning of a restart:\n%s", msg)
	}

	// The same over the shared memory region (Linux on amd64 only).
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return
	}
	c = startChild(t, append(args, "--logdir", t.TempDir(), "--set", "restart_workers=true", "--set", "shared_memory=true")...)
	if code := c.exitCode(t, time.Minute); code != 0 {
		t.Errorf("exit status %d with restart_workers and shared_memory\n%s", code, c.stderr.String())
	}
	if msg := c.stderr.String(); !strings.Contains(msg, "restarting it") {
		t.Errorf("no warning of a restart over the shared region:\n%s", msg)
	}
}
