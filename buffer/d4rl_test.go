//go:build hdf5 && cgo

package buffer_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// d4rlSource returns a buffer.Vector of two envs: env 0 has an episode of
// 3 steps ending terminated and then 2 steps of an unfinished one; env 1
// an episode of 4 steps ending truncated. Observations are float32 [3],
// actions float32 [1], and info holds an int64 env_id.
func d4rlSource(t *testing.T) *buffer.Vector {
	t.Helper()
	b, err := buffer.NewVector(buffer.Config{Size: 20}, 2)
	if err != nil {
		t.Fatal(err)
	}
	add := func(env, step int, term, trunc bool) {
		v := float32(10*env + step)
		data := batch.MustNew("obs", []float32{v, -v, 0.5}, "act", []float32{v / 10}, "rew", float64(v)/4,
			"terminated", term, "truncated", trunc, "obs_next", []float32{v + 1, -v - 1, 0.5},
			"info", batch.MustNew("env_id", int64(env)))
		if _, err := b.Add(stackOne(t, data), []int{env}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for s := range 3 {
		add(0, s, s == 2, false)
	}
	for s := 3; s < 5; s++ {
		add(0, s, false, false)
	}
	for s := range 4 {
		add(1, s, false, s == 3)
	}
	return b
}

// stackOne makes a batch of one row of the transition b.
func stackOne(t *testing.T, b *batch.Batch) *batch.Batch {
	t.Helper()
	s, err := batch.Stack(0, b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func takeAll(t *testing.T, b buffer.Buffer) *batch.Batch {
	t.Helper()
	var out batch.Batch
	if err := b.TakeTo(&out, b.SampleIndices(0, nil)); err != nil {
		t.Fatal(err)
	}
	return &out
}

// TestD4RLRoundTrip writes a buffer in the D4RL layout and reads it back:
// every transition comes back in time order, sub-buffer after sub-buffer,
// with the same obs, act, rew, terminated, obs_next and info, and the
// newest step of the unfinished episode marked truncated (the layout's
// episode boundary).
func TestD4RLRoundTrip(t *testing.T) {
	src := d4rlSource(t)
	path := filepath.Join(t.TempDir(), "data.h5")
	if err := buffer.SaveD4RL(path, src); err != nil {
		t.Fatal(err)
	}
	got, err := buffer.LoadD4RL(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != src.Len() {
		t.Fatalf("read %d transitions, wrote %d", got.Len(), src.Len())
	}
	want, have := takeAll(t, src), takeAll(t, got)
	for _, k := range []string{"obs", "act", "rew", "terminated", "obs_next", "info.env_id", "done"} {
		w, err := want.Array(k)
		if err != nil {
			t.Fatal(err)
		}
		h, err := have.Array(k)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if k == "done" {
			w = w.Copy()
			_ = w.SetIndex(true, nd.I(4)) // the unfinished episode's newest step
		}
		if w.Str() != h.Str() {
			t.Errorf("%s: read %s, wrote %s", k, h.Str(), w.Str())
		}
	}
	tr, _ := have.Array("truncated")
	if want := "[False False False False  True False False False  True]"; tr.Str() != want {
		t.Errorf("truncated %s, want %s", tr.Str(), want)
	}
}

// writeH5py writes spec (h5check.py's form) to path with h5py.
func writeH5py(t *testing.T, py, path string, spec map[string]any) {
	t.Helper()
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".json", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, checker, "write", path, path+".json").CombinedOutput(); err != nil {
		t.Fatalf("h5py write: %v\n%s", err, out)
	}
}

func dataset(dtype string, shape []int, data ...any) map[string]any {
	return map[string]any{"kind": "dataset", "dtype": dtype, "shape": shape, "data": data, "attrs": map[string]any{}}
}

// TestD4RLFromH5py reads files h5py wrote in the D4RL layout, as D4RL and
// Minari users have them: without next_observations (derived from the
// next row; the timeout row and the last row, whose next observation the
// file lacks, left out), with Minari's names and float flags, and files
// with a missing dataset or rows that disagree, which fail naming them.
func TestD4RLFromH5py(t *testing.T) {
	py := python(t)
	// Five steps: an episode of 3 ending terminal (row 2), then one of 2
	// ending in a timeout (row 4).
	base := func() map[string]any {
		return map[string]any{"kind": "group", "attrs": map[string]any{}, "members": map[string]any{
			"observations": dataset("float32", []int{5, 2}, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5),
			"actions":      dataset("float32", []int{5, 1}, -1, -0.5, 0, 0.5, 1),
			"rewards":      dataset("float32", []int{5}, 1, 2, 3, 4, 5),
			"terminals":    dataset("bool", []int{5}, false, false, true, false, false),
			"timeouts":     dataset("bool", []int{5}, false, false, false, false, true),
			"infos":        map[string]any{"kind": "group", "attrs": map[string]any{}, "members": map[string]any{"qpos": dataset("float64", []int{5}, 10, 11, 12, 13, 14)}},
		}}
	}
	members := func(s map[string]any) map[string]any { return s["members"].(map[string]any) }
	for _, c := range []struct {
		name string
		edit func(map[string]any)
		want map[string]string // key → Str of the loaded array
		err  []string          // substrings of the error
	}{
		{name: "D4RL", edit: func(map[string]any) {}, want: map[string]string{
			"obs":        "[[0.  0.5]\n [1.  1.5]\n [2.  2.5]\n [3.  3.5]]",
			"obs_next":   "[[1.  1.5]\n [2.  2.5]\n [2.  2.5]\n [4.  4.5]]",
			"rew":        "[1. 2. 3. 4.]",
			"terminated": "[False False  True False]",
			"info.qpos":  "[10. 11. 12. 13.]",
		}},
		{name: "Minari names, float flags, next_observations", edit: func(s map[string]any) {
			m := members(s)
			m["terminations"], m["truncations"] = dataset("float32", []int{5}, 0, 0, 1, 0, 0), dataset("uint8", []int{5}, 0, 0, 0, 0, 1)
			delete(m, "terminals")
			delete(m, "timeouts")
			m["next_observations"] = dataset("float32", []int{5, 2}, 1, 1.5, 2, 2.5, 9, 9, 4, 4.5, 5, 5.5)
		}, want: map[string]string{
			"obs_next":  "[[1.  1.5]\n [2.  2.5]\n [9.  9. ]\n [4.  4.5]\n [5.  5.5]]",
			"truncated": "[False False False False  True]",
		}},
		{name: "Minari episodes", edit: func(s map[string]any) {
			episode := func(obs []any, acts []any, term, trunc []any) map[string]any {
				t := len(acts)
				rew := make([]any, t)
				for i := range rew {
					rew[i] = float64(i + 1)
				}
				return map[string]any{"kind": "group", "attrs": map[string]any{}, "members": map[string]any{
					"observations": dataset("float32", []int{t + 1, 1}, obs...), "actions": dataset("float32", []int{t, 1}, acts...),
					"rewards": dataset("float64", []int{t}, rew...), "terminations": dataset("bool", []int{t}, term...),
					"truncations": dataset("bool", []int{t}, trunc...),
				}}
			}
			s["members"] = map[string]any{
				"episode_0":  episode([]any{0, 1, 2, 3}, []any{0.1, 0.2, 0.3}, []any{false, false, true}, []any{false, false, false}),
				"episode_1":  episode([]any{10, 11, 12}, []any{0.4, 0.5}, []any{false, false}, []any{false, true}),
				"episode_10": episode([]any{20, 21}, []any{0.6}, []any{true}, []any{false}),
			}
		}, want: map[string]string{
			"obs":        "[[ 0.]\n [ 1.]\n [ 2.]\n [10.]\n [11.]\n [20.]]",
			"obs_next":   "[[ 1.]\n [ 2.]\n [ 3.]\n [11.]\n [12.]\n [21.]]",
			"rew":        "[1. 2. 3. 1. 2. 1.]",
			"terminated": "[False False  True False False  True]",
			"truncated":  "[False False False False  True False]",
		}},
		{name: "Minari episode rows disagree", edit: func(s map[string]any) {
			s["members"] = map[string]any{"episode_0": map[string]any{"kind": "group", "attrs": map[string]any{}, "members": map[string]any{
				"observations": dataset("float32", []int{3, 1}, 0, 1, 2), "actions": dataset("float32", []int{3, 1}, 0, 0, 0),
				"rewards": dataset("float64", []int{2}, 1, 1), "terminations": dataset("bool", []int{2}, false, true),
				"truncations": dataset("bool", []int{2}, false, false),
			}}}
		}, err: []string{"episode_0/actions of shape [3 1]", "one row fewer"}},
		{name: "missing rewards", edit: func(s map[string]any) { delete(members(s), "rewards") }, err: []string{`no dataset "rewards"`}},
		{name: "missing timeouts", edit: func(s map[string]any) { delete(members(s), "timeouts") }, err: []string{`no dataset "timeouts"`, "truncations"}},
		{name: "rows disagree", edit: func(s map[string]any) { members(s)["actions"] = dataset("float32", []int{4, 1}, 1, 2, 3, 4) },
			err: []string{"actions of shape [4 1]", "observations of shape [5 2]"}},
		{name: "next_observations shape", edit: func(s map[string]any) {
			members(s)["next_observations"] = dataset("float32", []int{5, 3}, make([]any, 15)...)
		}, err: []string{"next_observations", "[5 3]", "[5 2]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := base()
			c.edit(spec)
			for _, d := range members(spec) {
				if m, ok := d.(map[string]any); ok && m["kind"] == "dataset" {
					for i, v := range m["data"].([]any) {
						if v == nil {
							m["data"].([]any)[i] = 0
						}
					}
				}
			}
			path := filepath.Join(t.TempDir(), "d4rl.hdf5")
			writeH5py(t, py, path, spec)
			got, err := buffer.LoadD4RL(path)
			if c.err != nil {
				if !errors.Is(err, buffer.ErrFormat) {
					t.Fatalf("LoadD4RL: %v, want ErrFormat", err)
				}
				for _, w := range c.err {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			all := takeAll(t, got)
			for k, w := range c.want {
				a, err := all.Array(k)
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				if a.Str() != w {
					t.Errorf("%s:\n%s\nwant\n%s", k, a.Str(), w)
				}
			}
		})
	}
}
