//go:build hdf5 && cgo

package buffer_test

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
)

var (
	h5pyRequired = flag.Bool("h5py.required", false, "fail, instead of skipping, the tests that need Python with h5py when it is missing")
	h5pyPython   = flag.String("h5py.python", "", "Python interpreter with h5py (default: the first of python3 on PATH and /usr/bin/python3 that imports h5py)")
)

// checker is the h5py checker shared with CI, relative to this package.
var checker = filepath.Join("..", ".ci", "h5check.py")

func python(t *testing.T) string {
	t.Helper()
	candidates := []string{"python3", "/usr/bin/python3"}
	if *h5pyPython != "" {
		candidates = []string{*h5pyPython}
	}
	for _, c := range candidates {
		if exec.Command(c, "-c", "import h5py").Run() == nil {
			return c
		}
	}
	if *h5pyRequired {
		t.Fatalf("no Python with h5py among %q (-h5py.required is set)", candidates)
	}
	t.Skipf("no Python with h5py among %q; install python3-h5py or pass -h5py.python", candidates)
	return ""
}

func TestHDF5RoundTrip(t *testing.T) {
	for _, c := range fileCases(t) {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "buf.h5")
			err := c.buf.(interface{ SaveHDF5(string) error }).SaveHDF5(path)
			if c.name == "replay" {
				// Its info.msg holds strings, ints and nil: only strings
				// and nil have an HDF5 form.
				var e *buffer.Error
				if !errors.Is(err, buffer.ErrFormat) || !errors.As(err, &e) || e.Path != "info.msg" {
					t.Fatalf("SaveHDF5 of mixed objects: %v, want ErrFormat naming info.msg", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := buffer.LoadHDF5(path)
			if err != nil {
				t.Fatal(err)
			}
			if h, ok := got.(*buffer.HER); ok {
				h.SetRewardFunc(goalReward)
			}
			if h, ok := got.(*buffer.HERVector); ok {
				h.SetRewardFunc(goalReward)
			}
			sameBuffer(t, c.buf, got, c.next, c.ids)
		})
	}
}

func TestHDF5Errors(t *testing.T) {
	if _, err := buffer.LoadHDF5(filepath.Join(t.TempDir(), "missing.h5")); !errors.Is(err, buffer.ErrFormat) {
		t.Errorf("missing file: %v", err)
	}
	path := filepath.Join(t.TempDir(), "text.h5")
	os.WriteFile(path, []byte("not hdf5"), 0o644)
	if _, err := buffer.LoadHDF5(path); !errors.Is(err, buffer.ErrFormat) {
		t.Errorf("not an HDF5 file: %v", err)
	}
}

// TestH5pyReadsBuffer writes seed 002's three-add buffer plus a string
// column with nil rows and has h5py check every group, dataset, dtype,
// value and attribute; then alters one expected value to show the check
// can fail.
func TestH5pyReadsBuffer(t *testing.T) {
	py := python(t)
	buf, _ := seedBuffers(t)
	if _, err := buf.Add(batch.MustNew("obs", 3, "act", 3, "rew", 3, "terminated", 1, "truncated", 0, "obs_next", 4,
		"info", batch.MustNew("msg", "héllo")), nil, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "buf.h5")
	if err := buf.SaveHDF5(path); err != nil {
		t.Fatal(err)
	}
	ints := func(v ...int64) map[string]any {
		d := make([]any, len(v))
		for i := range v {
			d[i] = v[i]
		}
		return map[string]any{"dtype": "int64", "shape": []int{len(v)}, "data": d}
	}
	scalar := func(dtype string, v any) map[string]any {
		return map[string]any{"dtype": dtype, "shape": []int{}, "data": []any{v}}
	}
	col := func(dtype string, v ...any) map[string]any {
		d := make([]any, 20)
		copy(d, v)
		for i := len(v); i < 20; i++ {
			switch dtype {
			case "bool":
				d[i] = false
			case "str":
				d[i] = ""
			default:
				d[i] = 0
			}
		}
		return map[string]any{"kind": "dataset", "dtype": dtype, "shape": []int{20}, "data": d, "attrs": map[string]any{}}
	}
	none := make([]any, 20)
	for i := range none {
		none[i] = i != 3
	}
	keys := []any{"obs", "act", "rew", "terminated", "truncated", "obs_next", "info", "done"}
	spec := map[string]any{
		"kind": "group",
		"attrs": map[string]any{
			"format": scalar("str", "gorl buffer"), "version": scalar("int64", 1), "kind": scalar("str", "ReplayBuffer"),
			"size": scalar("int64", 20), "stack_num": scalar("int64", 0),
			"ignore_obs_next": scalar("bool", false), "save_only_last_obs": scalar("bool", false), "sample_avail": scalar("bool", false),
			"sub_size": ints(20), "sub_len": ints(4), "sub_next": ints(4), "sub_last": ints(3),
			"sub_ep_len": ints(0), "sub_ep_start": ints(4),
			"sub_ep_return": map[string]any{"dtype": "float64", "shape": []int{1}, "data": []any{0.0}},
		},
		"members": map[string]any{
			"data": map[string]any{
				"kind":  "group",
				"attrs": map[string]any{"keys": map[string]any{"dtype": "str", "shape": []int{len(keys)}, "data": keys}},
				"members": map[string]any{
					"obs": col("int64", 0, 1, 2, 3), "act": col("int64", 0, 1, 2, 3), "rew": col("float64", 0.0, 1.0, 2.0, 3.0),
					"terminated": col("bool", false, false, false, true), "truncated": col("bool"),
					"obs_next": col("int64", 1, 2, 3, 4), "done": col("bool", false, false, false, true),
					"info": map[string]any{
						"kind":  "group",
						"attrs": map[string]any{"keys": map[string]any{"dtype": "str", "shape": []int{1}, "data": []any{"msg"}}},
						"members": map[string]any{
							"msg":      col("str", "", "", "", "héllo"),
							"msg.none": map[string]any{"kind": "dataset", "dtype": "bool", "shape": []int{20}, "data": none, "attrs": map[string]any{}},
						},
					},
				},
			},
		},
	}
	run := func() (string, error) {
		b, err := json.MarshalIndent(spec, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		specPath := path + ".json"
		if err := os.WriteFile(specPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(py, checker, "check", path, specPath).CombinedOutput()
		return string(out), err
	}
	if out, err := run(); err != nil {
		t.Fatalf("h5py check failed: %v\n%s", err, out)
	}
	spec["members"].(map[string]any)["data"].(map[string]any)["members"].(map[string]any)["obs"] = col("int64", 0, 1, 2, 9)
	if out, err := run(); err == nil || !strings.Contains(out, "/data/obs: element 3") {
		t.Errorf("altered spec passed the check: %v\n%s", err, out)
	}
	// And Go reads the file back.
	got, err := buffer.LoadHDF5(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != 4 {
		t.Errorf("len(loaded) = %d, want 4", got.Len())
	}
}
