package main

import (
	"os"
	"path/filepath"
	"regexp"
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
			want := regexp.MustCompile(`^` + regexp.QuoteMeta(tc.algo+" on "+tc.env) + `, 2 episodes: return \d`)
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
