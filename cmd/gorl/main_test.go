package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestList(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"list"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CartPole-v1", "Pendulum-v1", "dqn"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("gorl list does not mention %s:\n%s", want, out.String())
		}
	}
}

// TestResolve checks the order of configuration sources: defaults, then
// the pair's preset (dqn-CartPole-v1.json: 5000 steps per epoch, n-step 1),
// then a file, then --set.
func TestResolve(t *testing.T) {
	file := []byte(`{"seed": 7, "trainer": {"epochs": 3}, "algorithm": {"gamma": 0.5, "hidden": [8]}}`)
	rc, acfg, err := resolve("dqn", "CartPole-v1", file, []string{"algorithm.gamma=0.25", "trainer.batch_size=32", "algorithm.loss=huber"})
	if err != nil {
		t.Fatal(err)
	}
	c := configAs[dqnRun](t, acfg)
	if rc.Seed != 7 || rc.Trainer.Epochs != 3 || rc.Trainer.BatchSize != 32 || rc.Trainer.StepPerEpoch != 5000 {
		t.Errorf("run configuration %+v", rc)
	}
	if c.Gamma != 0.25 || len(c.Hidden) != 1 || c.Hidden[0] != 8 || c.Loss != "huber" || c.NStep != 1 {
		t.Errorf("algorithm configuration %+v", c.Config)
	}
	var back map[string]any
	if err := json.Unmarshal(rc.Algorithm, &back); err != nil || back["gamma"] != 0.25 {
		t.Errorf("the written algorithm configuration %s", rc.Algorithm)
	}
	// An optional section set field by field.
	_, acfg, err = resolve("dqn", "CartPole-v1", nil, []string{"algorithm.prioritized.alpha=0.6", "algorithm.prioritized.beta=0.4"})
	if err != nil {
		t.Fatal(err)
	}
	if p := configAs[dqnRun](t, acfg).Prioritized; p == nil || p.Alpha != 0.6 {
		t.Errorf("prioritized %+v", p)
	}
	if _, _, err := resolve("dqn", "CartPole-v1", []byte(`{"algorithm": {"gama": 1}}`), nil); err == nil {
		t.Error("an unknown field in a file was accepted")
	}
}

// TestTrainEvalResume trains a tiny DQN run, evaluates its policy with a
// GIF, and resumes it for one more epoch.
func TestTrainEvalResume(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an agent")
	}
	ctx := context.Background()
	dir := t.TempDir()
	tiny := []string{"--quiet", "--logdir", dir, "--seed", "3",
		"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=300", "--set", "train_envs=2",
		"--set", "test_envs=2", "--set", "trainer.test_episodes=2", "--set", "trainer.prefill_steps=64",
		"--set", "algorithm.hidden=[16]", "--set", "buffer_size=2000"}
	var out, errOut bytes.Buffer
	if err := run(ctx, append([]string{"train"}, tiny...), &out, &errOut); err != nil {
		t.Fatalf("train: %v\n%s%s", err, out.String(), errOut.String())
	}
	for _, f := range []string{configFile, logFile, bestFile, lastFile, checkpointFile, curveFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the run wrote no %s: %v", f, err)
		}
	}
	out.Reset()
	gif := filepath.Join(dir, "episode.gif")
	if err := run(ctx, []string{"eval", "--episodes", "3", "--gif", gif, dir}, &out, &errOut); err != nil {
		t.Fatalf("eval: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "3 episodes: return") {
		t.Errorf("eval printed %q", out.String())
	}
	if st, err := os.Stat(gif); err != nil || st.Size() == 0 {
		t.Errorf("no GIF written: %v", err)
	}
	out.Reset()
	if err := run(ctx, []string{"train", "--quiet", "--resume", "--logdir", dir, "--set", "trainer.epochs=2"}, &out, &errOut); err != nil {
		t.Fatalf("resume: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "epoch 2:") || strings.Contains(out.String(), "epoch 1:") {
		t.Errorf("the resumed run printed:\n%s", out.String())
	}
}
