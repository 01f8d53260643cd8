package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// runGorl runs the command line args and returns its output, failing t on
// an error.
func runGorl(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("gorl %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String()
}

// tiny are the --set assignments of the short runs of these tests.
var tiny = []string{"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=20", "--set", "test_envs=1", "--set", "trainer.test_episodes=1"}

// TestCollectAndTrainContinuous runs the continuous offline workflow of
// the README through the command: a briefly trained TD3 on Pendulum,
// gorl collect with Gaussian noise into a buffer file, then TD3+BC and
// continuous BCQ trained from it, evaluated and (TD3+BC) resumed.
func TestCollectAndTrainContinuous(t *testing.T) {
	if testing.Short() {
		t.Skip("trains agents")
	}
	dir := t.TempDir()
	expert := filepath.Join(dir, "td3")
	runGorl(t, append([]string{"train", "--quiet", "--algo", "td3", "--env", "Pendulum-v1", "--logdir", expert,
		"--set", "algorithm.actor_hidden=[8]", "--set", "algorithm.critic.hidden=[8]"}, tiny...)...)
	data := filepath.Join(dir, "pendulum.buf")
	out := runGorl(t, "collect", "--policy", expert, "--steps", "400", "--envs", "2", "--noise", "0.2", "--out", data)
	if !strings.Contains(out, "collected 400 steps of Pendulum-v1 with td3") || !strings.Contains(out, "2 episodes") {
		t.Errorf("collect printed %q", out)
	}
	obs, act, err := spaces("Pendulum-v1")
	if err != nil {
		t.Fatal(err)
	}
	buf, err := openDataset(data, "Pendulum-v1", obs, act)
	if err != nil {
		t.Fatal(err)
	}
	var all batch.Batch
	if err := buf.TakeTo(&all, buf.SampleIndices(0, nil)); err != nil {
		t.Fatal(err)
	}
	a, _ := all.Array("act")
	f, _ := a.AsType(nd.Float64)
	vals := nd.Data[float64](f.Copy())
	lo, hi := slices.Min(vals), slices.Max(vals)
	if buf.Len() != 400 || lo < -2 || hi > 2 || hi-lo < 0.5 {
		t.Errorf("%d transitions, actions in [%v, %v]; want 400 env actions in [−2, 2], spread by the noise", buf.Len(), lo, hi)
	}
	for _, name := range []string{"td3-bc", "bcq-continuous"} {
		run := filepath.Join(dir, name)
		out := runGorl(t, append([]string{"train", "--quiet", "--algo", name, "--env", "Pendulum-v1", "--dataset", data, "--logdir", run,
			"--set", "algorithm.actor_hidden=[8]", "--set", "algorithm.critic.hidden=[8]"}, tiny...)...)
		if !strings.Contains(out, "training "+name+" on Pendulum-v1") || !strings.Contains(out, "epoch 1:") {
			t.Errorf("%s printed:\n%s", name, out)
		}
		if out := runGorl(t, "eval", "--episodes", "1", run); !strings.Contains(out, name+" on Pendulum-v1, 1 episodes") {
			t.Errorf("eval %s printed %q", name, out)
		}
	}
	out = runGorl(t, "train", "--quiet", "--resume", "--logdir", filepath.Join(dir, "td3-bc"), "--set", "trainer.epochs=2")
	if !strings.Contains(out, "epoch 2:") || strings.Contains(out, "epoch 1:") {
		t.Errorf("the resumed run printed:\n%s", out)
	}
}

// TestCollectDiscrete collects from a behaviour-cloning policy on CartPole
// with ε-greedy actions and checks the errors of gorl collect's settings.
func TestCollectDiscrete(t *testing.T) {
	if testing.Short() {
		t.Skip("trains agents")
	}
	dir := t.TempDir()
	bcRun := filepath.Join(dir, "bc")
	runGorl(t, append([]string{"train", "--quiet", "--algo", "bc", "--dataset", datasets(t, dir)["good"], "--logdir", bcRun,
		"--set", "algorithm.hidden=[8]"}, tiny...)...)
	data := filepath.Join(dir, "cartpole.buf")
	if out := runGorl(t, "collect", "--policy", bcRun, "--steps", "300", "--epsilon", "0.3", "--out", data); !strings.Contains(out, "collected 300 steps of CartPole-v1 with bc") {
		t.Errorf("collect printed %q", out)
	}
	obs, act, err := spaces("CartPole-v1")
	if err != nil {
		t.Fatal(err)
	}
	if buf, err := openDataset(data, "CartPole-v1", obs, act); err != nil || buf.Len() != 300 {
		t.Errorf("the collected dataset: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--noise", "0.1"}, "--noise adds Gaussian noise to Box actions"},
		{[]string{"--noise", "0.1", "--epsilon", "0.1"}, "not both"},
		{[]string{"--epsilon", "2"}, "--epsilon 2"},
		{[]string{"--env", "Pendulum-v1"}, "the policy acts in Discrete(2)"},
	} {
		var out, errOut bytes.Buffer
		args := append([]string{"collect", "--policy", bcRun, "--steps", "10", "--out", filepath.Join(dir, "x.buf")}, c.args...)
		if err := run(context.Background(), args, &out, &errOut); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gorl %s: %v, want an error naming %q", strings.Join(args, " "), err, c.want)
		}
	}
}

// TestDatasetChecks checks the errors for datasets that cannot be trained
// on, before any training: NaN and Inf named with their key and row, a
// continuous algorithm on a Discrete dataset and env naming the space, and
// a dataset of another env naming both shapes.
func TestDatasetChecks(t *testing.T) {
	dir := t.TempDir()
	files := datasets(t, dir)
	bad := func(name, key string, v float64) string {
		b, err := buffer.NewVector(buffer.Config{Size: 10}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			rew, obs := 1.0, []float32{0, 0, 0, 0}
			// Row 1 ends the episode of the bad row 0: the buffer format
			// refuses a NaN in the running return of an unfinished one.
			if i == 0 && key == "rew" {
				rew = v
			}
			if i == 0 && key == "obs" {
				obs[1] = float32(v)
			}
			tr := batch.MustNew("obs", [][]float32{obs}, "act", []int64{1}, "rew", []float64{rew},
				"terminated", []bool{i == 1}, "truncated", []bool{false}, "obs_next", [][]float32{{0, 0, 0, 0}})
			if _, err := b.Add(tr, []int{0}, nil); err != nil {
				t.Fatal(err)
			}
		}
		return writeDataset(t, dir, name, b)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"NaN reward", []string{"--algo", "bc", "--dataset", bad("nan.buf", "rew", math.NaN())}, []string{"nan.buf", "rew, row 0: NaN"}},
		{"Inf observation", []string{"--algo", "bc", "--dataset", bad("inf.buf", "obs", math.Inf(1))}, []string{"inf.buf", "obs, row 0: +Inf"}},
		{"continuous algorithm, discrete data", []string{"--algo", "td3-bc", "--dataset", files["good"]}, []string{"td3bc", "Discrete(2)"}},
		{"bcq-continuous on CartPole", []string{"--algo", "bcq-continuous", "--dataset", files["good"]}, []string{"bcqc", "Discrete(2)"}},
		{"dataset of another env", []string{"--algo", "td3-bc", "--env", "Pendulum-v1", "--dataset", files["good"]},
			[]string{"does not fit Pendulum-v1", "shape [4]", "shape [3]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logdir := filepath.Join(t.TempDir(), "run")
			var out, errOut bytes.Buffer
			err := run(context.Background(), append([]string{"train", "--quiet", "--logdir", logdir}, tc.args...), &out, &errOut)
			if err == nil {
				t.Fatalf("gorl train %s succeeded", strings.Join(tc.args, " "))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(out.String(), "epoch 1") {
				t.Errorf("trained before failing:\n%s", out.String())
			}
		})
	}
}

// TestDatasetHDF5 checks what a file of HDF5's signature gives: without
// HDF5 support an error naming the build tag; with it, the HDF5 library's
// refusal of a damaged file, naming the file.
func TestDatasetHDF5(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d4rl.hdf5")
	if err := os.WriteFile(path, append([]byte(hdf5Signature), make([]byte, 100)...), 0o644); err != nil {
		t.Fatal(err)
	}
	obs, act, err := spaces("Pendulum-v1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = openDataset(path, "Pendulum-v1", obs, act)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("openDataset of a damaged HDF5 file: %v", err)
	}
	if hdf5Built := !strings.Contains(err.Error(), "without HDF5 support"); !hdf5Built && !strings.Contains(err.Error(), "-tags hdf5") {
		t.Errorf("error %q does not name the build tag", err)
	}
	if err := saveDataset(filepath.Join(t.TempDir(), "x.h5"), datasetsEmpty(t)); err != nil && strings.Contains(err.Error(), "writing HDF5") &&
		!strings.Contains(err.Error(), "-tags hdf5") {
		t.Errorf("saveDataset: %v", err)
	}
}

func datasetsEmpty(t *testing.T) buffer.Buffer {
	b, err := buffer.NewVector(buffer.Config{Size: 4}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
