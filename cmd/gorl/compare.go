package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/figure"
	"github.com/gorl/gorl/scores"
)

// randomReturns are the mean returns of a uniformly random policy, measured
// over 1000 episodes (env seeds 0 to 999, actions from the action space's
// Sample with PCG seed (0, 1)). They agree with the figures commonly
// quoted for Gymnasium's envs (CartPole about 22, Pendulum about −1200,
// Acrobot and MountainCar at their time limits).
var randomReturns = map[string]float64{
	"Acrobot-v1":               -498.61,
	"CartPole-v1":              22.65,
	"MountainCar-v0":           -200,
	"MountainCarContinuous-v0": -32.87,
	"Pendulum-v1":              -1233.33,
}

// referenceRange returns the range that normalizes returns on envID: the
// random policy's return (randomReturns) to the env's registered reward
// threshold (Gymnasium's), or its stop threshold where it has none
// (Tianshou's test threshold). ok is false when either is unknown.
func referenceRange(envID string) (r scores.Range, source string, ok bool) {
	random, ok := randomReturns[envID]
	if !ok {
		return scores.Range{}, "", false
	}
	spec, ok := env.Lookup(envID)
	if !ok {
		return scores.Range{}, "", false
	}
	switch {
	case spec.RewardThreshold != nil:
		r, source = scores.Range{Random: random, Target: *spec.RewardThreshold}, "Gymnasium threshold"
	case spec.StopThreshold() != nil:
		r, source = scores.Range{Random: random, Target: *spec.StopThreshold()}, "Tianshou test threshold"
	default:
		return scores.Range{}, "", false
	}
	return r, source, r.Validate() == nil
}

// scoreGroup is the scores of one algorithm on one env over seeds.
type scoreGroup struct {
	Algo, Env string
	Seeds     []uint64
	Returns   []float64
}

// scoreReport configures writeScoreReport.
type scoreReport struct {
	// What names the scores in the text, e.g. "final test return".
	What      string
	Bootstrap scores.BootstrapConfig
	Seed      uint64
	// Figure, if not empty, receives the interval estimates of the
	// normalized scores (.png or .svg).
	Figure string
}

// metrics are the aggregates of the reports, in their column order.
var metrics = []struct {
	Name string
	Agg  scores.Aggregate
}{{"IQM", scores.IQM}, {"mean", scores.Mean}, {"median", scores.Median}, {"optimality gap", scores.OptimalityGap}}

func fmtInterval(iv scores.Interval, prec int) string {
	return fmt.Sprintf("%.*f [%.*f, %.*f]", prec, iv.Estimate, prec, iv.Lo, prec, iv.Hi)
}

// writeScoreReport writes, as Markdown, per algorithm and env the IQM,
// mean and median of the returns with 95 % stratified bootstrap
// intervals and the optimality gap of the normalized returns; then per
// algorithm the same aggregates of the normalized returns over the envs
// that every algorithm ran, the probability of improvement of each pair of
// algorithms, and the figure of the aggregates.
func writeScoreReport(w io.Writer, groups []scoreGroup, rep scoreReport) error {
	if len(groups) == 0 {
		return errors.New("no runs to compare")
	}
	rng := rand.New(rand.NewPCG(rep.Seed, 1))
	conf := rep.Bootstrap.Confidence
	if conf == 0 {
		conf = 0.95
	}
	fmt.Fprintf(w, "%s per seed; IQM, mean and median with %.0f%% stratified bootstrap intervals [lo, hi]; optimality gap of the normalized %s (0 at the target).\n\n",
		capitalize(rep.What), 100*conf, rep.What)
	tb := newTable(w, "algorithm", "env", "seeds", rep.What+" per seed", "IQM", "mean", "median", "optimality gap")
	for _, g := range groups {
		cells := []string{g.Algo, g.Env, fmt.Sprint(len(g.Returns))}
		per := make([]string, len(g.Returns))
		for i, x := range g.Returns {
			per[i] = fmt.Sprintf("%.1f", x)
		}
		cells = append(cells, strings.Join(per, ", "))
		for _, m := range metrics[:3] {
			iv, err := scores.Bootstrap([][]float64{g.Returns}, m.Agg, rep.Bootstrap, rng)
			if err != nil {
				return fmt.Errorf("%s on %s: %w", g.Algo, g.Env, err)
			}
			cells = append(cells, fmtInterval(iv, 1))
		}
		gap := "- (no reference range)"
		if r, _, ok := referenceRange(g.Env); ok {
			iv, err := scores.Bootstrap([][]float64{normalized(g.Returns, r)}, scores.OptimalityGap, rep.Bootstrap, rng)
			if err != nil {
				return err
			}
			gap = fmtInterval(iv, 2)
		}
		tb.Row(append(cells, gap)...)
	}
	tb.Flush()

	// Normalized aggregates over the envs every algorithm ran.
	algos, envs := commonEnvs(groups)
	if len(envs) == 0 {
		fmt.Fprintln(w, "\nNo env with a reference range was run by every algorithm: no normalized aggregate.")
		return nil
	}
	var ranges []string
	for _, e := range envs {
		r, src, _ := referenceRange(e)
		ranges = append(ranges, fmt.Sprintf("%s %.1f to %.1f (%s)", e, r.Random, r.Target, src))
	}
	fmt.Fprintf(w, "\nNormalized %s (0 for a random policy, 1 at the target: %s), each env a stratum:\n\n",
		rep.What, strings.Join(ranges, "; "))
	tb = newTable(w, "algorithm", "envs", "runs", "IQM", "mean", "median", "optimality gap")
	norm := map[string][][]float64{}
	fig := figure.Intervals{Rows: algos, XLabel: "normalized " + rep.What}
	for _, m := range metrics {
		fig.Metrics = append(fig.Metrics, capitalize(m.Name))
	}
	fig.Values = make([][]scores.Interval, len(metrics))
	for _, a := range algos {
		runs := 0
		for _, e := range envs {
			g := findGroup(groups, a, e)
			r, _, _ := referenceRange(e)
			norm[a] = append(norm[a], normalized(g.Returns, r))
			runs += len(g.Returns)
		}
		cells := []string{a, fmt.Sprint(len(envs)), fmt.Sprint(runs)}
		for i, m := range metrics {
			iv, err := scores.Bootstrap(norm[a], m.Agg, rep.Bootstrap, rng)
			if err != nil {
				return err
			}
			cells = append(cells, fmtInterval(iv, 2))
			fig.Values[i] = append(fig.Values[i], iv)
		}
		tb.Row(cells...)
	}
	tb.Flush()
	if len(algos) > 1 {
		fmt.Fprintf(w, "\nProbability of improvement P(X > Y), the chance that a run of X scores above a run of Y on the same env, averaged over the envs, with its %.0f%% interval:\n\n", 100*conf)
		tb = newTable(w, "X", "Y", "P(X > Y)")
		for i, x := range algos {
			for _, y := range algos[i+1:] {
				iv, err := scores.ImprovementInterval(norm[x], norm[y], rep.Bootstrap, rng)
				if err != nil {
					return err
				}
				tb.Row(x, y, fmtInterval(iv, 2))
			}
		}
		tb.Flush()
	}
	if rep.Figure != "" {
		if err := writeFigure(rep.Figure, fig); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nInterval estimates: %s\n", rep.Figure)
	}
	return nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func normalized(xs []float64, r scores.Range) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = r.Normalize(x)
	}
	return out
}

func findGroup(groups []scoreGroup, algo, envID string) scoreGroup {
	for _, g := range groups {
		if g.Algo == algo && g.Env == envID {
			return g
		}
	}
	return scoreGroup{}
}

// commonEnvs returns the algorithms of groups in order of appearance and
// the envs, sorted, with a reference range that every one of them ran.
func commonEnvs(groups []scoreGroup) (algos, envs []string) {
	ran := map[string]map[string]bool{}
	for _, g := range groups {
		if ran[g.Algo] == nil {
			ran[g.Algo] = map[string]bool{}
			algos = append(algos, g.Algo)
		}
		ran[g.Algo][g.Env] = true
	}
	for _, e := range slices.Sorted(maps.Keys(ran[algos[0]])) {
		if _, _, ok := referenceRange(e); !ok {
			continue
		}
		all := true
		for _, a := range algos {
			all = all && ran[a][e]
		}
		if all {
			envs = append(envs, e)
		}
	}
	return algos, envs
}

// finalScore returns the run's final test return (the last test's mean
// return), or with best its best one; ok is false if it logged no test.
func (r runLog) finalScore(best bool) (score float64, ok bool) {
	score = math.Inf(-1)
	for _, rec := range r.Records {
		v, has := rec.Values["return_mean"]
		if rec.Scope != "test" || !has || math.IsNaN(v) {
			continue
		}
		if best {
			score = max(score, v)
		} else {
			score = v
		}
		ok = true
	}
	return score, ok
}

func cmdCompare(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	best := fs.Bool("best", false, "score each run by its best test return instead of its final one")
	var rep scoreReport
	fs.IntVar(&rep.Bootstrap.Resamples, "resamples", 2000, "bootstrap resamples of each interval")
	fs.Uint64Var(&rep.Seed, "seed", 0, "seed of the bootstrap")
	fs.StringVar(&rep.Figure, "out", "compare.png", "figure of the normalized interval estimates, .png or .svg (empty: none)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gorl compare [flags] RUN_GLOB...\ncompares the final test returns of runs over seeds, per algorithm and env and normalized over envs (rliable's IQM, bootstrap intervals, probability of improvement)")
		fs.PrintDefaults()
	}
	pats, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pats) == 0 {
		fs.Usage()
		return errors.New("compare: no runs")
	}
	if rep.Bootstrap.Resamples < 1 {
		return fmt.Errorf("compare: --resamples %d < 1", rep.Bootstrap.Resamples)
	}
	var dirs []string
	for _, pat := range pats {
		m, err := filepath.Glob(pat)
		if err != nil {
			return fmt.Errorf("compare: %q: %w", pat, err)
		}
		if len(m) == 0 {
			return fmt.Errorf("compare: %q matches no run directory", pat)
		}
		for _, d := range m {
			if st, err := os.Stat(filepath.Join(d, configFile)); err == nil && !st.IsDir() && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) == 0 {
		return errors.New("compare: the patterns match no run directory (one with a " + configFile + ")")
	}
	var groups []scoreGroup
	for _, d := range dirs {
		r, err := readRunLog(d)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		s, ok := r.finalScore(*best)
		if !ok {
			fmt.Fprintf(stderr, "gorl: compare: %s logged no test return; left out\n", d)
			continue
		}
		i := slices.IndexFunc(groups, func(g scoreGroup) bool { return g.Algo == r.Algo && g.Env == r.Env })
		if i < 0 {
			groups = append(groups, scoreGroup{Algo: r.Algo, Env: r.Env})
			i = len(groups) - 1
		}
		groups[i].Seeds, groups[i].Returns = append(groups[i].Seeds, r.Seed), append(groups[i].Returns, s)
	}
	rep.What = "final test return"
	if *best {
		rep.What = "best test return"
	}
	fmt.Fprintf(stdout, "%d runs in %d groups.\n\n", len(dirs), len(groups))
	if err := writeScoreReport(stdout, groups, rep); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return nil
}

// writeMatrixScores writes the score report of the matrix's outcomes (the
// returns of the runs without error). If plot is not empty it draws there
// each pair's returns and bar, a panel per env, and shows the figure in the
// report as a Markdown image whose path is relative to the report file doc
// (the working directory if empty).
func writeMatrixScores(w io.Writer, outs []pairOutcome, seed uint64, plot, doc string) {
	var groups []scoreGroup
	for _, po := range outs {
		g := scoreGroup{Algo: po.Algo, Env: po.Env}
		for _, r := range po.Results {
			if r.Err == "" {
				g.Returns = append(g.Returns, r.Return)
			}
		}
		if len(g.Returns) > 0 {
			groups = append(groups, g)
		}
	}
	fmt.Fprint(w, "\n### Over seeds\n\n")
	if err := writeScoreReport(w, groups, scoreReport{What: "test return", Seed: seed}); err != nil {
		fmt.Fprintln(w, "No score report:", err)
	}
	if plot == "" {
		return
	}
	if err := writeFigure(plot, matrixFigure(outs)); err != nil {
		// The report still gets written: the runs are not lost to a figure.
		fmt.Fprintln(w, "\nNo figure:", err)
		return
	}
	fmt.Fprintf(w, "\n![The test return of every seed (dots) and the bar (red) of each pair, a panel per env](%s)\n", imageLink(plot, doc))
}

// matrixFigure is the figure of the matrix's outcomes: a panel per env, in
// the order the envs first appear, a row per pair with its runs' returns
// (those without error) and its bar.
func matrixFigure(outs []pairOutcome) figure.Points {
	fig := figure.Points{XLabel: "mean deterministic test return"}
	panel := map[string]int{}
	for _, po := range outs {
		i, ok := panel[po.Env]
		if !ok {
			i = len(fig.Panels)
			panel[po.Env] = i
			fig.Panels = append(fig.Panels, figure.PointsPanel{Title: po.Env, Marks: []float64{}})
		}
		var returns []float64
		for _, r := range po.Results {
			if r.Err == "" {
				returns = append(returns, r.Return)
			}
		}
		p := &fig.Panels[i]
		p.Rows = append(p.Rows, po.Algo)
		p.Values = append(p.Values, returns)
		p.Marks = append(p.Marks, po.Bar.Return)
	}
	return fig
}

// imageLink returns the path of the image file img as a Markdown document
// at doc links it: relative to doc's directory, with forward slashes.
func imageLink(img, doc string) string {
	if doc != "" {
		a, err1 := filepath.Abs(img)
		d, err2 := filepath.Abs(filepath.Dir(doc))
		if err1 == nil && err2 == nil {
			if rel, err := filepath.Rel(d, a); err == nil {
				img = rel
			}
		}
	}
	return filepath.ToSlash(img)
}

// seedSummary returns the IQM and mean of returns with their 95 %
// stratified bootstrap intervals, for one line of a report.
func seedSummary(returns []float64, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var parts []string
	for _, m := range metrics[:2] {
		iv, err := scores.Bootstrap([][]float64{returns}, m.Agg, scores.BootstrapConfig{}, rng)
		if err != nil {
			return "-"
		}
		parts = append(parts, m.Name+" "+fmtInterval(iv, 1))
	}
	return strings.Join(parts, ", ")
}
