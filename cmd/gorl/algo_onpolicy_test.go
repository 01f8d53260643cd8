package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/algo/pg"
	"github.com/gorl/gorl/algo/ppo"
)

// TestResolveOnPolicy checks the registered defaults of the on-policy
// algorithms and that --set reaches their fields, embedded ones included.
func TestResolveOnPolicy(t *testing.T) {
	rc, acfg, err := resolve("ppo", "CartPole-v1", nil, []string{"algorithm.eps_clip=0.1", "algorithm.max_grad_norm=1", "algorithm.net.hidden=[32]"})
	if err != nil {
		t.Fatal(err)
	}
	c := configAs[ppo.Config](t, acfg)
	if c.EpsClip != 0.1 || c.MaxGradNorm != 1 || len(c.Net.Hidden) != 1 || !c.Net.Shared || c.Gamma != 0.99 {
		t.Errorf("ppo configuration %+v", *c)
	}
	if rc.TrainEnvs != 20 || rc.Trainer.StepPerCollect != 2000 || rc.Trainer.RepeatPerCollect != 10 ||
		rc.Trainer.RewardThreshold == nil || *rc.Trainer.RewardThreshold != 195 || !rc.Trainer.TestInTrain {
		t.Errorf("ppo CartPole run %+v", rc)
	}
	rc, acfg, err = resolve("ppo", "Pendulum-v1", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := configAs[ppo.Config](t, acfg); c.Net.Shared || !c.ValueClip || !c.ReturnScaling || rc.Trainer.EpisodePerCollect != 16 ||
		rc.Trainer.RewardThreshold == nil || *rc.Trainer.RewardThreshold != -250 {
		t.Errorf("ppo Pendulum run %+v with %+v", rc, *c)
	}
	_, acfg, err = resolve("pg", "CartPole-v1", nil, []string{"algorithm.return_standardization=false"})
	if err != nil {
		t.Fatal(err)
	}
	if c := configAs[pg.Config](t, acfg); c.ReturnStandardization || c.Gamma != 0.95 {
		t.Errorf("pg configuration %+v", *c)
	}
	_, acfg, err = resolve("a2c", "CartPole-v1", nil, []string{"algorithm.ent_coef=0.01"})
	if err != nil {
		t.Fatal(err)
	}
	if c := configAs[a2c.Config](t, acfg); c.EntCoef != 0.01 || c.GAELambda != 1 {
		t.Errorf("a2c configuration %+v", *c)
	}
	if _, _, err := resolve("ppo", "CartPole-v1", nil, []string{"algorithm.eps_clipp=0.1"}); err == nil {
		t.Error("an unknown PPO field was accepted")
	}
}

// TestTrainOnPolicy trains each on-policy algorithm briefly through the
// command (CartPole, Pendulum for PPO's Normal head, and MountainCarContinuous
// with normalization and state-dependent exploration) and evaluates the best
// policy.
func TestTrainOnPolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("trains agents")
	}
	ctx := context.Background()
	for _, r := range [][2]string{{"pg", "CartPole-v1"}, {"a2c", "CartPole-v1"}, {"ppo", "CartPole-v1"}, {"ppo", "Pendulum-v1"}, {"ppo", "MountainCarContinuous-v0"}} {
		dir := filepath.Join(t.TempDir(), r[0])
		args := []string{"train", "--quiet", "--algo", r[0], "--env", r[1], "--logdir", dir,
			"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=400", "--set", "train_envs=2",
			"--set", "test_envs=2", "--set", "trainer.test_episodes=2", "--set", "algorithm.net.hidden=[8]"}
		if r[1] == "MountainCarContinuous-v0" {
			args = append(args, "--set", `normalize={"obs":true,"reward":true}`, "--set", "algorithm.net.use_sde=true",
				"--set", "trainer.step_per_collect=200", "--set", "trainer.episode_per_collect=0")
		} else if r[0] == "ppo" && r[1] == "CartPole-v1" {
			args = append(args, "--set", "trainer.step_per_collect=200")
		} else {
			// a2c-CartPole-v1.json collects 40 steps.
			args = append(args, "--set", "trainer.episode_per_collect=2", "--set", "trainer.step_per_collect=0")
		}
		var out, errOut bytes.Buffer
		if err := run(ctx, args, &out, &errOut); err != nil {
			t.Fatalf("%s on %s: %v\n%s%s", r[0], r[1], err, out.String(), errOut.String())
		}
		out.Reset()
		if err := run(ctx, []string{"eval", "--episodes", "2", dir}, &out, &errOut); err != nil {
			t.Fatalf("eval %s: %v\n%s", r[0], err, errOut.String())
		}
		if !strings.Contains(out.String(), "2 episodes: return") {
			t.Errorf("eval %s printed %q", r[0], out.String())
		}
		_, _, norm, err := loadPolicy(filepath.Join(dir, bestFile))
		if err != nil {
			t.Fatal(err)
		}
		if (norm != nil) != (r[1] == "MountainCarContinuous-v0") {
			t.Errorf("%s on %s: normalization statistics in the policy file: %v", r[0], r[1], norm != nil)
		} else if norm != nil {
			// Only the 400 training steps (and resets) update them.
			if obs, _ := norm.Stats(); obs.Count < 400 || obs.Count > 420 {
				t.Errorf("statistics of %v observations, want the 400 training steps and their resets", obs.Count)
			}
		}
	}
}
