package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
)

// writeDataset saves b to a file in dir and returns its path.
func writeDataset(t *testing.T, dir, name string, b buffer.Buffer) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Save(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// datasets writes the files of the dataset tests into dir: CartPole data
// collected with random actions, the same file cut short and with a byte
// flipped, an empty buffer, and data whose observations (3 numbers) or
// actions (out of Discrete(2)) do not fit CartPole-v1.
func datasets(t *testing.T, dir string) map[string]string {
	t.Helper()
	good := writeDataset(t, dir, "cartpole.buf", algotest.RandomCartPoleData(t, 400, 1))
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"good": good}
	files["truncated"] = filepath.Join(dir, "truncated.buf")
	if err := os.WriteFile(files["truncated"], raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(raw)
	flipped[len(flipped)/2] ^= 0xff
	files["flipped"] = filepath.Join(dir, "flipped.buf")
	if err := os.WriteFile(files["flipped"], flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	empty, err := buffer.NewVector(buffer.Config{Size: 10}, 1)
	if err != nil {
		t.Fatal(err)
	}
	files["empty"] = writeDataset(t, dir, "empty.buf", empty)
	for _, c := range []struct {
		name string
		obs  [][]float32
		act  []int64
	}{
		{"obs3", [][]float32{{0, 0, 0}, {0, 0, 0}}, []int64{0, 1}},
		{"act7", [][]float32{{0, 0, 0, 0}, {0, 0, 0, 0}}, []int64{0, 7}},
	} {
		b, err := buffer.NewVector(buffer.Config{Size: 10}, 2)
		if err != nil {
			t.Fatal(err)
		}
		data := batch.MustNew("obs", c.obs, "act", c.act, "rew", []float64{1, 1},
			"terminated", []bool{false, false}, "truncated", []bool{false, false}, "obs_next", c.obs)
		if _, err := b.Add(data, []int{0, 1}, nil); err != nil {
			t.Fatal(err)
		}
		files[c.name] = writeDataset(t, dir, c.name+".buf", b)
	}
	return files
}

// TestDatasetErrors checks the messages of gorl train for datasets that
// cannot be used and for --dataset with the wrong kind of algorithm: each
// names the setting or file at fault, and no run directory is made.
func TestDatasetErrors(t *testing.T) {
	dir := t.TempDir()
	files := datasets(t, dir)
	for _, tc := range []struct {
		name string
		args []string
		want []string // substrings of the error
	}{
		{"offline without dataset", []string{"--algo", "bc"}, []string{"bc learns from a dataset", "--dataset"}},
		{"bcq without dataset", []string{"--algo", "bcq"}, []string{"bcq learns from a dataset"}},
		{"online with dataset", []string{"--algo", "dqn", "--dataset", files["good"]}, []string{"--dataset", "dqn collects its own data", "bc, bcq"}},
		{"on-policy with dataset", []string{"--algo", "ppo", "--dataset", files["good"]}, []string{"ppo collects its own data"}},
		{"missing file", []string{"--algo", "bc", "--dataset", filepath.Join(dir, "nope.buf")}, []string{"dataset", "nope.buf", "no such file"}},
		{"truncated file", []string{"--algo", "bc", "--dataset", files["truncated"]}, []string{"dataset", "truncated.buf"}},
		{"corrupt file", []string{"--algo", "bcq", "--dataset", files["flipped"]}, []string{"dataset", "flipped.buf"}},
		{"not a buffer", []string{"--algo", "bc", "--dataset", filepath.Join("testdata", "not-a-buffer.txt")}, []string{"dataset", "not-a-buffer.txt"}},
		{"empty buffer", []string{"--algo", "bc", "--dataset", files["empty"]}, []string{"empty.buf holds no transitions"}},
		{"observation shape", []string{"--algo", "bc", "--dataset", files["obs3"]}, []string{"obs3.buf does not fit CartPole-v1", "obs:", "shape [3]"}},
		{"action range", []string{"--algo", "bcq", "--dataset", files["act7"]}, []string{"act7.buf does not fit CartPole-v1", "act:", "transition 1", "Discrete(2)"}},
		{"box actions", []string{"--algo", "bc", "--env", "Pendulum-v1", "--dataset", files["good"]}, []string{"does not fit Pendulum-v1", "obs:"}},
		{"continuous CQL on discrete actions", []string{"--algo", "cql", "--dataset", files["good"]}, []string{"CQL needs a Box action space", "cartpole.buf", "actions Discrete(2)"}},
		{"TD3+BC on discrete actions", []string{"--algo", "td3-bc", "--dataset", files["good"]}, []string{"needs a Box action space", "actions Discrete(2)"}},
		{"training envs", []string{"--algo", "bc", "--dataset", files["good"], "--set", "train_envs=2"}, []string{"train_envs 2", "bc learns from its dataset"}},
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
			noPanic(t, err.Error()+out.String()+errOut.String())
			if _, err := os.Stat(logdir); err == nil {
				t.Errorf("a failed start made the run directory")
			}
		})
	}
}

// TestTrainOffline trains BC and BCQ briefly from a saved dataset through
// the command, evaluates the best policy and resumes the BC run.
func TestTrainOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("trains agents")
	}
	ctx := context.Background()
	data := datasets(t, t.TempDir())["good"]
	for _, name := range []string{"bc", "bcq"} {
		dir := filepath.Join(t.TempDir(), name)
		args := []string{"train", "--quiet", "--algo", name, "--dataset", data, "--logdir", dir, "--seed", "4",
			"--set", "trainer.epochs=1", "--set", "trainer.step_per_epoch=20", "--set", "test_envs=2",
			"--set", "trainer.test_episodes=2", "--set", "algorithm.hidden=[8]"}
		var out, errOut bytes.Buffer
		if err := run(ctx, args, &out, &errOut); err != nil {
			t.Fatalf("%s: %v\n%s%s", name, err, out.String(), errOut.String())
		}
		if s := out.String(); !strings.Contains(s, "training "+name+" on CartPole-v1 (seed 4, 0+2 envs, stop at mean test return ≥ 195") ||
			!strings.Contains(s, "epoch 1: test return") {
			t.Errorf("%s printed:\n%s", name, s)
		}
		if cfg, err := os.ReadFile(filepath.Join(dir, configFile)); err != nil || !strings.Contains(string(cfg), `"dataset": "`+data+`"`) {
			t.Errorf("config.json does not record the dataset (%v):\n%s", err, cfg)
		}
		out.Reset()
		if err := run(ctx, []string{"eval", "--episodes", "2", dir}, &out, &errOut); err != nil {
			t.Fatalf("eval %s: %v\n%s", name, err, errOut.String())
		}
		if !strings.Contains(out.String(), name+" on CartPole-v1, 2 episodes: return") {
			t.Errorf("eval %s printed %q", name, out.String())
		}
		if name != "bc" {
			continue
		}
		out.Reset()
		if err := run(ctx, []string{"train", "--quiet", "--resume", "--logdir", dir, "--set", "trainer.epochs=2"}, &out, &errOut); err != nil {
			t.Fatalf("resume %s: %v\n%s", name, err, errOut.String())
		}
		if !strings.Contains(out.String(), "epoch 2:") || strings.Contains(out.String(), "epoch 1:") {
			t.Errorf("the resumed run printed:\n%s", out.String())
		}
	}
}
