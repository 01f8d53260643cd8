package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestTrainOverlap trains DQN with trainer.overlap=true for one epoch and
// resumes it for a second. With the CartPole preset's collections of 256
// steps and 0.5 updates per step, each epoch of 100 steps is one collection:
// 512 env steps and 256 updates after two. A resume may not switch the mode
// off.
func TestTrainOverlap(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an agent")
	}
	dir := t.TempDir()
	ctx := context.Background()
	args := []string{"train", "--quiet", "--no-plot", "--logdir", dir, "--set", "trainer.overlap=true", "--set", "trainer.epochs=1",
		"--set", "trainer.step_per_epoch=100", "--set", "train_envs=2", "--set", "test_envs=1", "--set", "trainer.test_episodes=1",
		"--set", "trainer.prefill_steps=64", "--set", "algorithm.hidden=[8]"}
	var out, errOut bytes.Buffer
	if err := run(ctx, args, &out, &errOut); err != nil {
		t.Fatalf("train: %v\n%s", err, errOut.String())
	}
	out.Reset()
	if err := run(ctx, []string{"train", "--quiet", "--no-plot", "--resume", "--logdir", dir, "--set", "trainer.epochs=2"}, &out, &errOut); err != nil {
		t.Fatalf("resume: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "epoch 2:") || !strings.Contains(out.String(), "512 env steps, 256 updates") {
		t.Errorf("resumed run:\n%s", out.String())
	}
	err := run(ctx, []string{"train", "--quiet", "--no-plot", "--resume", "--logdir", dir, "--set", "trainer.epochs=3", "--set", "trainer.overlap=false"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "trainer.overlap") {
		t.Errorf("resume switching the mode off: %v, want a refusal naming trainer.overlap", err)
	}
}
