package main

import (
	"slices"
	"testing"
)

// TestR2D2Resume trains r2d2 on CartPoleNoVel-v1 for one epoch, resumes it
// from its checkpoint for a second, and compares the log with a straight
// run of two epochs: a resumed run continues exactly (networks, Adam, the
// policy's random source, ε and the counters, the prioritized buffer and
// the collector's hidden states), with plain ε-greedy actions and with
// held ones (ez_greedy), whose rows ride in the hidden states.
func TestR2D2Resume(t *testing.T) {
	if testing.Short() {
		t.Skip("trains agents")
	}
	for _, c := range []struct {
		name  string
		extra []string
	}{
		{"eps", nil},
		{"ez_greedy", []string{"--set", "algorithm.ez_greedy.mu=1", "--set", "algorithm.ez_greedy.max_duration=20"}},
	} {
		t.Run(c.name, func(t *testing.T) { testR2D2Resume(t, c.extra) })
	}
}

func testR2D2Resume(t *testing.T, extra []string) {
	args := func(dir string, epochs string) []string {
		return append([]string{"--quiet", "--algo", "r2d2", "--env", "CartPoleNoVel-v1", "--logdir", dir, "--seed", "4",
			"--set", "trainer.epochs=" + epochs, "--set", "trainer.step_per_epoch=200", "--set", "trainer.step_per_collect=10",
			"--set", "train_envs=2", "--set", "test_envs=2", "--set", "trainer.test_episodes=2",
			"--set", "trainer.prefill_steps=64", "--set", "trainer.batch_size=8", "--set", "trainer.log_interval=50",
			"--set", "trainer.reward_threshold=null", "--set", "buffer_size=2000",
			"--set", "algorithm.hidden=8", "--set", "algorithm.head_hidden=[8]", "--set", "algorithm.seq_len=4",
			"--set", "algorithm.burn_in=2", "--set", "algorithm.target_update_freq=5", "--set", "algorithm.eps_decay_steps=300"}, extra...)
	}
	straight, resumed := t.TempDir(), t.TempDir()
	if out, err := trainIn(t, args(straight, "2")...); err != nil {
		t.Fatalf("straight run: %v\n%s", err, out)
	}
	if out, err := trainIn(t, args(resumed, "1")...); err != nil {
		t.Fatalf("first epoch: %v\n%s", err, out)
	}
	if out, err := trainIn(t, "--quiet", "--resume", "--logdir", resumed, "--set", "trainer.epochs=2"); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	a, b := readLog(t, straight), readLog(t, resumed)
	if len(a) < 4 || !slices.Equal(a, b) {
		t.Errorf("the resumed run's log (%d records) differs from the straight run's (%d)", len(b), len(a))
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Errorf("first difference, record %d:\n%s\n%s", i+1, a[i], b[i])
				break
			}
		}
	}
}
