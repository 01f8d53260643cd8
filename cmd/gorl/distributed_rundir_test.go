package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// distRunCases are short runs of every distributed algorithm: a few
// updates, each tested on one episode, on the embedded server.
var distRunCases = []struct {
	algo, env string
	sets      []string
}{
	{"apex-dqn", "CartPole-v1", []string{"algorithm.learning_starts=100", "algorithm.batch_size=32", "algorithm.flush_every=20"}},
	{"impala", "CartPole-v1", []string{"algorithm.batch_size=2"}},
	{"a3c", "CartPole-v1", nil},
	{"apex-ddpg", "Pendulum-v1", []string{"algorithm.learning_starts=100", "algorithm.batch_size=32", "algorithm.flush_every=20"}},
}

// TestDistributedRunDir trains every distributed algorithm for a few
// updates with gorl train --actors 2, then checks that the run directory
// holds what a local run's does, that gorl eval reads its best policy,
// and that --resume continues from the checkpoint to a higher
// max_updates and rewrites the last policy.
func TestDistributedRunDir(t *testing.T) {
	if testing.Short() {
		t.Skip("trains")
	}
	for _, tc := range distRunCases {
		t.Run(tc.algo, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			args := []string{"train", "--algo", tc.algo, "--env", tc.env, "--actors", "2", "--logdir", dir,
				"--set", "max_updates=6", "--set", "test_every=3", "--set", "test_episodes=1", "--set", "reward_threshold=1e9"}
			for _, s := range tc.sets {
				args = append(args, "--set", s)
			}
			out := runGorl(t, args...)
			if !strings.Contains(out, "best policy: "+filepath.Join(dir, bestFile)) {
				t.Errorf("train output names no best policy:\n%s", out)
			}
			for _, f := range []string{configFile, logFile, bestFile, lastFile, checkpointFile} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("run directory: %v", err)
				}
			}
			// eval's own summary line: the algorithm and env of the
			// policy file's header, and the episodes asked for.
			ev := runGorl(t, "eval", "--episodes", "2", "--envs", "2", dir)
			want := regexp.MustCompile(`^` + regexp.QuoteMeta(tc.algo+" on "+tc.env) + `, 2 episodes: return -?\d`)
			if !want.MatchString(ev) {
				t.Errorf("gorl eval RUN_DIR = %q, want a line matching %q", ev, want)
			}
			if ev := runGorl(t, "eval", "--episodes", "1", "--envs", "1", filepath.Join(dir, lastFile)); !strings.HasPrefix(ev, tc.algo+" on ") {
				t.Errorf("gorl eval %s = %q", lastFile, ev)
			}

			last0, err := os.Stat(filepath.Join(dir, lastFile))
			if err != nil {
				t.Fatal(err)
			}
			res := runGorl(t, "train", "--resume", "--logdir", dir, "--set", "max_updates=9")
			if !strings.Contains(res, "resuming from the checkpoint of update 6 ") {
				t.Errorf("resume output:\n%s\nwant a resume from update 6", res)
			}
			if !regexp.MustCompile(`(?m)^update 9: `).MatchString(res) {
				t.Errorf("resume output:\n%s\nwant a test at update 9", res)
			}
			last1, err := os.Stat(filepath.Join(dir, lastFile))
			if err != nil {
				t.Fatal(err)
			}
			if !last1.ModTime().After(last0.ModTime()) && last1.Size() == last0.Size() {
				t.Errorf("%s not rewritten by the resumed run", lastFile)
			}
			runGorl(t, "eval", "--episodes", "1", "--envs", "1", dir)
		})
	}
}

// TestDistributedRemoteRuns runs a3c and apex-ddpg as separate gorl
// serve, gorl learner and two gorl actor processes on loopback: the
// learner stops at max_updates, the actors stop when it says so, and gorl
// eval reads the learner's run directory.
func TestDistributedRemoteRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gorl processes that train")
	}
	bin := buildGorl(t)
	for _, tc := range distRunCases[2:] {
		t.Run(tc.algo, func(t *testing.T) {
			serve := startProc(t, bin, "serve", "serve", "--port", "0")
			m, _ := serve.waitFor(regexp.MustCompile(`serving NATS on (nats://127\.0\.0\.1:\d+)`), 0, faultWait)
			url := m[1]
			dir := filepath.Join(t.TempDir(), "run")
			args := []string{"learner", "--connect", url, "--algo", tc.algo, "--env", tc.env, "--actors", "2", "--logdir", dir,
				"--set", "max_updates=30", "--set", "test_every=10", "--set", "test_episodes=1", "--set", "reward_threshold=1e9"}
			for _, s := range tc.sets {
				args = append(args, "--set", s)
			}
			learner := startProc(t, bin, "learner", args...)
			var actors []*proc
			for i := range 2 {
				actors = append(actors, startProc(t, bin, fmt.Sprintf("actor %d", i), "actor", "--connect", url, "--id", strconv.Itoa(i)))
			}
			learner.waitFor(regexp.MustCompile(`^update 30: `), 0, faultWait)
			learner.waitFor(regexp.MustCompile(`^best policy: `), 0, faultWait)
			for i, a := range actors {
				a.waitFor(regexp.MustCompile(fmt.Sprintf(`^actor %d: the learner ended the run`, i)), 0, faultWait)
			}
			ev := runGorl(t, "eval", "--episodes", "1", "--envs", "1", dir)
			if !strings.HasPrefix(ev, tc.algo+" on "+tc.env+", 1 episodes: ") {
				t.Errorf("gorl eval RUN_DIR = %q", ev)
			}
		})
	}
}
