package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRestoreOtherAlgorithm resumes a DQN run whose checkpoint a PPO run
// wrote: the error says which algorithms' state the file holds.
func TestRestoreOtherAlgorithm(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two agents")
	}
	tiny := []string{"--quiet", "--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=100", "--set", "train_envs=2",
		"--set", "test_envs=1", "--set", "trainer.test_episodes=1", "--set", "algorithm.hidden=[8]"}
	ppoDir, dqnDir := t.TempDir(), t.TempDir()
	ctx := context.Background()
	var out, errOut bytes.Buffer
	ppoArgs := append([]string{"train", "--algo", "ppo", "--logdir", ppoDir, "--set", "trainer.step_per_collect=100",
		"--set", "algorithm.net.hidden=[8]"}, tiny[:len(tiny)-2]...)
	if err := run(ctx, ppoArgs, &out, &errOut); err != nil {
		t.Fatalf("ppo: %v", err)
	}
	if err := run(ctx, append([]string{"train", "--logdir", dqnDir, "--set", "trainer.prefill_steps=64"}, tiny...), &out, &errOut); err != nil {
		t.Fatalf("dqn: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(ppoDir, checkpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dqnDir, checkpointFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"train", "--quiet", "--resume", "--logdir", dqnDir, "--set", "trainer.epochs=2"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "ppo") || !strings.Contains(err.Error(), "not of this run's dqn") {
		t.Errorf("resume: %v, want the checkpoint's algorithm named", err)
	}
}
