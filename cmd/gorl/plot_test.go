package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/logger"
)

// fakeRun writes a run directory: a config.json naming algo, env and seed,
// and a log.jsonl with a test return at each step of tests (and a loss
// record with it), through the JSONL logger, and a TensorBoard event file
// whose events are a second apart.
func fakeRun(t *testing.T, dir, algo, env string, seed uint64, tests map[int64]float64, steps []int64) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"algo": algo, "env": env, "seed": seed})
	if err := os.WriteFile(filepath.Join(dir, configFile), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, logFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	clock := time.Unix(1_700_000_000, 0)
	tb, err := logger.NewTensorBoard(logger.TensorBoardConfig{Dir: dir, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	lg := logger.Multi{logger.NewJSONL(f), tb}
	for _, s := range steps {
		if err := lg.Log("test", s, map[string]float64{"return_mean": tests[s], "return_std": 1}); err != nil {
			t.Fatal(err)
		}
		if err := lg.Log("update", s, map[string]float64{"loss": 1 / float64(s+1)}); err != nil {
			t.Fatal(err)
		}
	}
}

// svgSeries counts the curve lines (stroke width 1.5) and bands
// (translucent fills) of an SVG document, checking that it parses.
func svgSeries(t *testing.T, doc []byte) (lines, bands int) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return lines, bands
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "path" {
			for _, a := range se.Attr {
				if a.Name.Local == "style" {
					lines += strings.Count(a.Value, "stroke-width:1.5")
					bands += strings.Count(a.Value, "fill-opacity:0.3")
				}
			}
		}
	}
}

func decodePNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// fakeRuns writes three dqn runs and two ppo runs on CartPole-v1 and one
// a2c run, and returns their directory.
func fakeRuns(t *testing.T) string {
	root := t.TempDir()
	steps := []int64{0, 1000, 2000, 3000}
	for seed, finals := range map[uint64][2]float64{0: {100, 400}, 1: {200, 450}, 2: {300, 500}} {
		// dqn ends at its first value, ppo at its second.
		fakeRun(t, filepath.Join(root, "dqn-"+string(rune('0'+seed))), "dqn", "CartPole-v1", seed,
			map[int64]float64{0: 20, 1000: 50, 2000: finals[0] + 50, 3000: finals[0]}, steps)
		if seed < 2 {
			fakeRun(t, filepath.Join(root, "ppo-"+string(rune('0'+seed))), "ppo", "CartPole-v1", seed,
				map[int64]float64{0: 20, 1000: 300, 2000: 400, 3000: finals[1]}, steps)
		}
	}
	fakeRun(t, filepath.Join(root, "a2c-0"), "a2c", "CartPole-v1", 0, map[int64]float64{0: 20, 1000: 30}, steps[:2])
	return root
}

func TestPlotCommand(t *testing.T) {
	root := fakeRuns(t)
	ctx := context.Background()
	all, _ := filepath.Glob(filepath.Join(root, "*"))
	svg := filepath.Join(root, "curves.svg")
	var out, errOut bytes.Buffer
	if err := run(ctx, append([]string{"plot", "--out", svg}, all...), &out, &errOut); err != nil {
		t.Fatalf("plot: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"6 runs in 3 lines", "dqn on CartPole-v1 (mean of 3 seeds)", "ppo on CartPole-v1 (mean of 2 seeds)", "a2c on CartPole-v1 (seed 0)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("plot printed %q, want %q in it", out.String(), want)
		}
	}
	doc, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	// Each line and band is drawn in the plot and in the legend.
	if lines, bands := svgSeries(t, doc); lines != 2*3 || bands != 2*2 {
		t.Errorf("the SVG has %d lines and %d bands, want 2×3 and 2×2", lines, bands)
	}

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"one run, default out", []string{"plot", filepath.Join(root, "a2c-0")}},
		{"flags after the runs, IQM", []string{"plot", filepath.Join(root, "dqn-0"), filepath.Join(root, "dqn-1"), "--agg", "iqm", "--out", filepath.Join(root, "iqm.png")}},
		{"loss by time", []string{"plot", "--x", "time", "--y", "loss", "--out", filepath.Join(root, "loss.png"), filepath.Join(root, "ppo-0")}},
	} {
		out.Reset()
		if err := run(ctx, tc.args, &out, &errOut); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		path, _, _ := strings.Cut(out.String(), ":")
		decodePNG(t, path)
	}
	if _, err := os.Stat(filepath.Join(root, "a2c-0", curveFile)); err != nil {
		t.Errorf("plot of one run wrote no %s: %v", curveFile, err)
	}

	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"no runs", []string{"plot"}, "no run directory"},
		{"not a run", []string{"plot", root}, "is not a run directory"},
		{"bad x", []string{"plot", "--x", "epoch", all[0]}, `--x "epoch"`},
		{"bad agg", []string{"plot", "--agg", "max", all[0]}, `--agg "max"`},
		{"absent metric", []string{"plot", "--y", "train/return", all[0]}, "its log has no train/return_mean"},
		{"bad format", []string{"plot", "--out", filepath.Join(root, "x.jpg"), all[0]}, "unknown format"},
	} {
		err := run(ctx, tc.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.msg)
		}
	}
}

func TestParseMetric(t *testing.T) {
	for y, want := range map[string]metric{
		"test/return":      {"test", "return_mean"},
		"train/return":     {"train", "return_mean"},
		"test/best_return": {"test", "best_return"},
		"update/loss":      {"update", "loss"},
		"loss":             {"update", "loss"},
		"loss/actor":       {"update", "loss/actor"},
	} {
		if got, err := parseMetric(y); err != nil || got != want {
			t.Errorf("parseMetric(%q) = %v, %v; want %v", y, got, err, want)
		}
	}
}

func TestCompareCommand(t *testing.T) {
	root := fakeRuns(t)
	fig := filepath.Join(root, "cmp.png")
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"compare", "--out", fig, "--resamples", "500",
		filepath.Join(root, "dqn-*"), filepath.Join(root, "ppo-*")}, &out, &errOut)
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, errOut.String())
	}
	// Expected figures, by hand: dqn's final returns 100, 200, 300 (IQM of
	// three drops none: 200; the bootstrap interval of a resampled mean of
	// three lies within [100, 300]); ppo's 400, 450: IQM 425. Every ppo
	// run beats every dqn run: P(dqn > ppo) = 0 on every resample.
	// Normalized by CartPole's range 22.65 to 475: dqn's gap is
	// mean(1 − (x − 22.65)/452.35) = 1 − (200 − 22.65)/452.35 = 0.61.
	for _, want := range []string{
		"5 runs in 2 groups",
		"| dqn       | CartPole-v1 | 3     | 100.0, 200.0, 300.0",
		"| 200.0 [",
		"| 425.0 [",
		"| 0.61 [",
		"| dqn | ppo | 0.00 [0.00, 0.00] |",
		"Interval estimates: " + fig,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("compare printed:\n%s\nwant %q in it", out.String(), want)
		}
	}
	decodePNG(t, fig)

	out.Reset()
	if err := run(context.Background(), []string{"compare", "--best", "--out", "", filepath.Join(root, "dqn-*")}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	// Best returns: 150, 250, 350.
	if !strings.Contains(out.String(), "150.0, 250.0, 350.0") || strings.Contains(out.String(), "Interval estimates") {
		t.Errorf("compare --best printed:\n%s", out.String())
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"compare"}, "no runs"},
		{[]string{"compare", filepath.Join(root, "nothing-*")}, "matches no run directory"},
		{[]string{"compare", "--resamples", "0", root + "/*"}, "--resamples 0 < 1"},
	} {
		if err := run(context.Background(), tc.args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.msg)
		}
	}
}

func TestReferenceRanges(t *testing.T) {
	// Every env with a random return has a valid range, and the
	// CartPole range is Gymnasium's threshold over the random return.
	for id := range randomReturns {
		if _, _, ok := referenceRange(id); !ok {
			t.Errorf("%s: no reference range", id)
		}
	}
	if r, src, _ := referenceRange("CartPole-v1"); r.Target != 475 || r.Random != 22.65 || src != "Gymnasium threshold" {
		t.Errorf("CartPole-v1: %+v (%s)", r, src)
	}
	if r, src, _ := referenceRange("Pendulum-v1"); r.Target != -250 || src != "Tianshou test threshold" {
		t.Errorf("Pendulum-v1: %+v (%s)", r, src)
	}
}
