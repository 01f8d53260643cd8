package main

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/trainer"
)

// TestTable checks the Markdown layout: header, delimiter row, aligned
// rows.
func TestTable(t *testing.T) {
	var b bytes.Buffer
	tb := newTable(&b, "seed", "return")
	tb.Row("0", "200.5 ± 3.0")
	tb.Row("12", "9.0")
	if err := tb.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `| seed | return      |
| ---  | ---         |
| 0    | 200.5 ± 3.0 |
| 12   | 9.0         |
`
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
}

// TestDatasetRoundTrip checks a dataset's round trip through a file in the
// buffer format (saveDataset, openDataset): the same transitions come back.
func TestDatasetRoundTrip(t *testing.T) {
	data, err := buffer.NewVector(buffer.Config{Size: 20}, 2)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 7 {
		b := batch.MustNew("obs", [][]float32{{float32(i), rng.Float32(), 0, 0}, {1, 2, 0, 0}}, "act", []int64{int64(i % 2), 1},
			"rew", []float64{1, 0.5}, "terminated", []bool{i == 4, false}, "truncated", []bool{false, false},
			"obs_next", [][]float32{{0, 1, 0, 0}, {2, 3, 0, 0}})
		if _, err := data.Add(b, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "data.buf")
	if err := saveDataset(path, data); err != nil {
		t.Fatal(err)
	}
	obs, act, err := spaces(offlineEnv)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := openDataset(path, offlineEnv, obs, act)
	if err != nil {
		t.Fatal(err)
	}
	idx := data.SampleIndices(0, nil)
	var want, got batch.Batch
	if err := data.TakeTo(&want, idx); err != nil {
		t.Fatal(err)
	}
	if err := loaded.TakeTo(&got, idx); err != nil {
		t.Fatal(err)
	}
	if loaded.Len() != 14 || !batch.Equal(&want, &got) {
		t.Errorf("loaded %d transitions:\n%v\nwant\n%v", loaded.Len(), &got, &want)
	}
}

// TestOfflineRun runs the offline pipeline for one seed (a few seconds)
// and checks the table's structure; whether the targets are met depends on
// the BLAS's rounding, so the test does not require it.
func TestOfflineRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains DQN, BC and BCQ")
	}
	var out bytes.Buffer
	if err := offlineRuns(context.Background(), BenchOptions{Seeds: 1, Log: io.Discard}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"| seed | DQN test return", "| 0    |", "BC: mean test return ≥ 195 after training on ", "BCQ: mean test return ≥ 195 after training on "} {
		if !strings.Contains(s, want) {
			t.Errorf("the output lacks %q:\n%s", want, s)
		}
	}
}

// TestBestOf: a run that did not reach the threshold is marked.
func TestBestOf(t *testing.T) {
	for _, tc := range []struct {
		r    trainer.Result
		want string
	}{
		{trainer.Result{Solved: true, GradientSteps: 2000, BestReturn: 250, BestStd: 10}, "250.0 ± 10.0"},
		{trainer.Result{GradientSteps: 10000, BestReturn: 120, BestStd: 30}, "120.0 ± 30.0 (not solved)"},
	} {
		if got := bestOf(tc.r); got != tc.want {
			t.Errorf("%+v: bestOf %q, want %q", tc.r, got, tc.want)
		}
	}
}
