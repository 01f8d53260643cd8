package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gorl/gorl/figure"
	"github.com/gorl/gorl/logger"
	"github.com/gorl/gorl/scores"
)

// curveFile is the learning curve gorl train draws into the run directory
// when the run ends.
const curveFile = "curve.png"

// runLog is what a run directory tells about a run: its config.json's
// head and its log.jsonl's records.
type runLog struct {
	Dir       string
	Algo, Env string
	Seed      uint64
	// Offline runs log their tests at the number of updates, not of env
	// steps.
	Offline bool
	Records []logger.Record
}

// readRunLog reads config.json and log.jsonl of the run in dir.
func readRunLog(dir string) (runLog, error) {
	b, err := os.ReadFile(filepath.Join(dir, configFile))
	if err != nil {
		return runLog{}, fmt.Errorf("%s is not a run directory: %w", dir, err)
	}
	var head struct {
		Algo    string `json:"algo"`
		Env     string `json:"env"`
		Seed    uint64 `json:"seed"`
		Dataset string `json:"dataset"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return runLog{}, fmt.Errorf("%s: %w", filepath.Join(dir, configFile), err)
	}
	r := runLog{Dir: dir, Algo: head.Algo, Env: head.Env, Seed: head.Seed, Offline: head.Dataset != ""}
	f, err := os.Open(filepath.Join(dir, logFile))
	if err != nil {
		return runLog{}, err
	}
	defer f.Close()
	for rec, err := range logger.ReadJSONL(f) {
		if err != nil {
			return runLog{}, fmt.Errorf("%s: %w", f.Name(), err)
		}
		r.Records = append(r.Records, rec)
	}
	return r, nil
}

// metric is a statistic of the logs: a key under a scope.
type metric struct{ Scope, Key string }

// parseMetric reads --y: "test/return" and "train/return" are the mean
// returns; "test/K", "train/K" and "update/K" name key K of that scope;
// anything else (loss, loss/actor) is a key of the updates.
func parseMetric(y string) (metric, error) {
	if y == "" {
		return metric{}, errors.New("empty --y")
	}
	scope, key, ok := strings.Cut(y, "/")
	switch {
	case ok && (scope == "test" || scope == "train") && key == "return":
		return metric{scope, "return_mean"}, nil
	case ok && (scope == "test" || scope == "train" || scope == "update") && key != "":
		return metric{scope, key}, nil
	}
	return metric{"update", y}, nil
}

// curveOf returns the values of m in the run's log by step.
func (r runLog) curveOf(m metric) figure.Curve {
	var c figure.Curve
	for _, rec := range r.Records {
		if v, ok := rec.Values[m.Key]; ok && rec.Scope == m.Scope {
			c.X, c.Y = append(c.X, float64(rec.Step)), append(c.Y, v)
		}
	}
	return c
}

// timeCurveOf returns the values of m by seconds since the run's first
// event, read from its TensorBoard event files (which record the wall
// time of every Log call), in the order of their names.
func timeCurveOf(dir string, m metric) (figure.Curve, error) {
	names, err := filepath.Glob(filepath.Join(dir, eventsPrefix+"*"))
	if err != nil {
		return figure.Curve{}, err
	}
	slices.Sort(names)
	tag := m.Scope + "/" + m.Key
	var c figure.Curve
	t0 := math.NaN()
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return figure.Curve{}, err
		}
		for ev, err := range logger.ReadEvents(bytes.NewReader(b)) {
			if err != nil {
				break // a file being written ends in a partial record
			}
			if math.IsNaN(t0) {
				t0 = ev.WallTime
			}
			for _, s := range ev.Scalars {
				if s.Tag == tag && (len(c.X) == 0 || ev.WallTime-t0 >= c.X[len(c.X)-1]) {
					c.X, c.Y = append(c.X, ev.WallTime-t0), append(c.Y, float64(s.Value))
				}
			}
		}
	}
	return c, nil
}

// plotOptions are gorl plot's flags.
type plotOptions struct {
	X, Y, Agg string
	Seed      uint64
	Resamples int
}

// curvesFigure reads the runs in dirs and returns their learning curves of
// o.Y by o.X: one series per algorithm and env, the mean (or IQM) over the
// group's seeds with a bootstrap band.
func curvesFigure(dirs []string, o plotOptions) (figure.Curves, []string, error) {
	m, err := parseMetric(o.Y)
	if err != nil {
		return figure.Curves{}, nil, err
	}
	agg := scores.Mean
	switch o.Agg {
	case "mean":
	case "iqm":
		agg = scores.IQM
	default:
		return figure.Curves{}, nil, fmt.Errorf("--agg %q: want mean or iqm", o.Agg)
	}
	if o.X != "env_step" && o.X != "time" {
		return figure.Curves{}, nil, fmt.Errorf("--x %q: want env_step or time", o.X)
	}
	type group struct {
		name  string
		env   string
		runs  []figure.Curve
		seeds []uint64
	}
	var groups []*group
	byKey := map[string]*group{}
	offline := false
	for _, dir := range dirs {
		r, err := readRunLog(dir)
		if err != nil {
			return figure.Curves{}, nil, err
		}
		c := r.curveOf(m)
		if o.X == "time" {
			if c, err = timeCurveOf(dir, m); err != nil {
				return figure.Curves{}, nil, err
			}
		}
		if len(c.X) == 0 {
			return figure.Curves{}, nil, fmt.Errorf("%s: its log has no %s/%s", dir, m.Scope, m.Key)
		}
		offline = offline || r.Offline
		key := r.Algo + " on " + r.Env
		g := byKey[key]
		if g == nil {
			g = &group{name: key, env: r.Env}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.runs, g.seeds = append(g.runs, c), append(g.seeds, r.Seed)
	}
	fig := figure.Curves{XLabel: "env steps", YLabel: o.Y}
	if offline {
		fig.XLabel = "env steps (updates for offline runs)"
	}
	if o.X == "time" {
		fig.XLabel = "seconds"
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0))
	var legend []string
	envs := map[string]bool{}
	for _, g := range groups {
		name := g.name
		if len(g.runs) > 1 {
			name = fmt.Sprintf("%s (%s of %d seeds)", g.name, o.Agg, len(g.runs))
		} else {
			name = fmt.Sprintf("%s (seed %d)", g.name, g.seeds[0])
		}
		s, err := figure.Group(name, g.runs, figure.GroupConfig{Aggregate: agg, Bootstrap: scores.BootstrapConfig{Resamples: o.Resamples}}, rng)
		if err != nil {
			return figure.Curves{}, nil, err
		}
		fig.Series = append(fig.Series, s)
		legend = append(legend, name)
		envs[g.env] = true
	}
	if len(envs) == 1 {
		fig.Title = groups[0].env
	}
	return fig, legend, nil
}

// writeFigure writes fig to path in the format of its extension, through a
// temporary file renamed into place.
func writeFigure(path string, fig any) error {
	format, err := figure.FormatOf(path)
	if err != nil {
		return err
	}
	return writeAtomic(path, func(w io.Writer) error { return figure.Write(w, format, fig) })
}

// writeRunCurve draws the test-return curve of the run in dir into its
// curve.png (the training return when the run logged no test).
func writeRunCurve(dir string) error {
	o := plotOptions{X: "env_step", Y: "test/return", Agg: "mean"}
	fig, _, err := curvesFigure([]string{dir}, o)
	if err != nil {
		o.Y = "train/return"
		if fig, _, err = curvesFigure([]string{dir}, o); err != nil {
			return err
		}
	}
	return writeFigure(filepath.Join(dir, curveFile), fig)
}

func cmdPlot(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o plotOptions
	out := fs.String("out", "", "figure file, .png or .svg (default RUN_DIR/"+curveFile+" for one run, curves.png for several)")
	fs.StringVar(&o.X, "x", "env_step", "x axis: env_step, or time (seconds, from the TensorBoard event files)")
	fs.StringVar(&o.Y, "y", "test/return", "statistic: test/return, train/return, a loss such as loss or loss/actor, or SCOPE/KEY of log.jsonl")
	fs.StringVar(&o.Agg, "agg", "mean", "line of a group of seeds: mean or iqm")
	fs.IntVar(&o.Resamples, "resamples", 1000, "bootstrap resamples of the 95% band")
	fs.Uint64Var(&o.Seed, "seed", 0, "seed of the bootstrap")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gorl plot [flags] RUN_DIR...\nlearning curves; runs of one algorithm and env are one line, their seeds a 95% bootstrap band")
		fs.PrintDefaults()
	}
	dirs, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		fs.Usage()
		return errors.New("plot: no run directory")
	}
	if o.Resamples < 1 {
		return fmt.Errorf("plot: --resamples %d < 1", o.Resamples)
	}
	if *out == "" {
		*out = "curves.png"
		if len(dirs) == 1 {
			*out = filepath.Join(dirs[0], curveFile)
		}
	}
	fig, legend, err := curvesFigure(dirs, o)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if err := writeFigure(*out, fig); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Fprintf(stdout, "%s: %s by %s, %s in %s:\n", *out, o.Y, o.X, count(len(dirs), "run"), count(len(legend), "line"))
	for _, l := range legend {
		fmt.Fprintln(stdout, "  "+l)
	}
	return nil
}

// parseInterspersed parses args with fs, flags before, between or after
// the positional arguments, which it returns; after "--" every argument is
// positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// count returns n and noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
