package scores

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Aggregate reduces the scores of runs on tasks, scores[task][run], to one
// number. Mean, Median, IQM and OptimalityGap are Aggregates.
type Aggregate func(scores [][]float64) float64

// flatten appends all scores to dst[:0], task after task.
func flatten(dst []float64, scores [][]float64) []float64 {
	dst = dst[:0]
	for _, task := range scores {
		dst = append(dst, task...)
	}
	return dst
}

// Mean returns the mean of all scores; NaN for none.
func Mean(scores [][]float64) float64 {
	all := flatten(nil, scores)
	if len(all) == 0 {
		return math.NaN()
	}
	return stat.Mean(all, nil)
}

// Median returns the median of all scores (the mean of the two middle ones
// for an even count); NaN for none.
func Median(scores [][]float64) float64 {
	all := flatten(nil, scores)
	slices.Sort(all)
	n := len(all)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return all[n/2]
	}
	return (all[n/2-1] + all[n/2]) / 2
}

// IQM returns the interquartile mean of all scores: with the n scores
// sorted, the mean of those left when the lowest and the highest ⌊n/4⌋ are
// dropped (rliable's IQM, scipy's trim_mean(x, 0.25)); NaN for none.
func IQM(scores [][]float64) float64 {
	all := flatten(nil, scores)
	slices.Sort(all)
	k := len(all) / 4
	all = all[k : len(all)-k]
	if len(all) == 0 {
		return math.NaN()
	}
	return stat.Mean(all, nil)
}

// OptimalityGap returns the mean shortfall of the scores from 1, the
// target of a normalized score: mean(max(1 − x, 0)) over all scores
// (rliable's optimality gap with γ = 1). Lower is better; NaN for none.
func OptimalityGap(scores [][]float64) float64 {
	all := flatten(nil, scores)
	if len(all) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, x := range all {
		sum += max(1-x, 0)
	}
	return sum / float64(len(all))
}

// Interval is a point estimate with a confidence interval around it.
type Interval struct {
	// Estimate is the aggregate of the scores themselves.
	Estimate float64 `json:"estimate"`
	// Lo and Hi bound the interval.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// BootstrapConfig configures Bootstrap and ImprovementInterval.
type BootstrapConfig struct {
	// Resamples is the number of bootstrap resamples; 0 means 2000.
	Resamples int `json:"resamples"`
	// Confidence is the probability mass inside the interval, in (0, 1);
	// 0 means 0.95.
	Confidence float64 `json:"confidence"`
}

// withDefaults returns c with its zero fields set to their defaults, or an
// error for a value out of range.
func (c BootstrapConfig) withDefaults() (BootstrapConfig, error) {
	if c.Resamples == 0 {
		c.Resamples = 2000
	}
	if c.Confidence == 0 {
		c.Confidence = 0.95
	}
	if c.Resamples < 1 {
		return c, fmt.Errorf("scores: %d bootstrap resamples, need at least 1", c.Resamples)
	}
	if !(c.Confidence > 0 && c.Confidence < 1) {
		return c, fmt.Errorf("scores: confidence %v is not in (0, 1)", c.Confidence)
	}
	return c, nil
}

// ErrNoScores is returned for a matrix with no task or a task with no run.
var ErrNoScores = errors.New("scores: no scores")

// check returns an error if scores has no task, a task without runs, or a
// score that is not finite.
func check(scores [][]float64) error {
	if len(scores) == 0 {
		return ErrNoScores
	}
	for t, task := range scores {
		if len(task) == 0 {
			return fmt.Errorf("%w for task %d", ErrNoScores, t)
		}
		for r, x := range task {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("scores: score %v of run %d of task %d is not finite", x, r, t)
			}
		}
	}
	return nil
}

// resampler draws stratified bootstrap resamples of one matrix into
// storage it reuses.
type resampler struct {
	src  [][]float64
	dst  [][]float64
	flat []float64
}

func newResampler(src [][]float64) *resampler {
	r := &resampler{src: src, dst: make([][]float64, len(src))}
	n := 0
	for _, task := range src {
		n += len(task)
	}
	r.flat = make([]float64, n)
	off := 0
	for t, task := range src {
		r.dst[t] = r.flat[off : off+len(task) : off+len(task)]
		off += len(task)
	}
	return r
}

// draw fills the resample: for each task in order, len(task) runs drawn
// uniformly with replacement (rng.IntN) from that task's runs.
func (r *resampler) draw(rng *rand.Rand) [][]float64 {
	for t, task := range r.src {
		d := r.dst[t]
		for i := range d {
			d[i] = task[rng.IntN(len(task))]
		}
	}
	return r.dst
}

// Bootstrap returns agg of scores with a stratified bootstrap percentile
// interval: agg over cfg.Resamples resamples, each drawing every task's
// runs with replacement from that task's runs, and the (1−c)/2 and (1+c)/2
// quantiles of those values for confidence c. It returns an error for an
// invalid cfg, no scores, a task without runs or a score that is not
// finite.
func Bootstrap(scores [][]float64, agg Aggregate, cfg BootstrapConfig, rng *rand.Rand) (Interval, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Interval{}, err
	}
	if err := check(scores); err != nil {
		return Interval{}, err
	}
	r := newResampler(scores)
	vals := make([]float64, cfg.Resamples)
	for i := range vals {
		vals[i] = agg(r.draw(rng))
	}
	return percentileInterval(agg(scores), vals, cfg.Confidence), nil
}

// percentileInterval sorts vals and returns estimate with their (1−c)/2
// and (1+c)/2 quantiles.
func percentileInterval(estimate float64, vals []float64, c float64) Interval {
	slices.Sort(vals)
	return Interval{Estimate: estimate, Lo: Quantile(vals, (1-c)/2), Hi: Quantile(vals, (1+c)/2)}
}

// Quantile returns the p-quantile of sorted, p in [0, 1], interpolating
// linearly between the two nearest order statistics at position
// p·(n−1) (numpy's default, Hyndman and Fan's type 7). It returns NaN for
// an empty slice and panics if p is outside [0, 1].
func Quantile(sorted []float64, p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("scores: Quantile of p = %v outside [0, 1]", p))
	}
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// ProbabilityOfImprovement returns P(X > Y), the probability that a run of
// algorithm X scores above a run of algorithm Y on the same task: per task
// the share of pairs (xᵢ, yⱼ) with xᵢ > yⱼ, ties counting one half (the
// Mann–Whitney U statistic over n·m), averaged over tasks. x and y hold
// the same tasks in the same order. It returns an error if they hold
// different numbers of tasks, no scores, a task without runs or a score
// that is not finite.
func ProbabilityOfImprovement(x, y [][]float64) (float64, error) {
	if err := checkPair(x, y); err != nil {
		return 0, err
	}
	return improvement(x, y), nil
}

func checkPair(x, y [][]float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("scores: comparing %d tasks with %d tasks", len(x), len(y))
	}
	if err := check(x); err != nil {
		return err
	}
	return check(y)
}

func improvement(x, y [][]float64) float64 {
	var sum float64
	for t := range x {
		var wins float64
		for _, a := range x[t] {
			for _, b := range y[t] {
				switch {
				case a > b:
					wins++
				case a == b:
					wins += 0.5
				}
			}
		}
		sum += wins / float64(len(x[t])*len(y[t]))
	}
	return sum / float64(len(x))
}

// ImprovementInterval returns ProbabilityOfImprovement(x, y) with a
// stratified bootstrap percentile interval: each resample draws the runs of
// x and of y independently, task by task, as Bootstrap does (x's tasks
// first, then y's). Errors are those of ProbabilityOfImprovement and of an
// invalid cfg.
func ImprovementInterval(x, y [][]float64, cfg BootstrapConfig, rng *rand.Rand) (Interval, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Interval{}, err
	}
	if err := checkPair(x, y); err != nil {
		return Interval{}, err
	}
	rx, ry := newResampler(x), newResampler(y)
	vals := make([]float64, cfg.Resamples)
	for i := range vals {
		vals[i] = improvement(rx.draw(rng), ry.draw(rng))
	}
	return percentileInterval(improvement(x, y), vals, cfg.Confidence), nil
}

// Range is the reference range of a task's returns: the return of a
// uniformly random policy, and the target return (a solved task).
type Range struct {
	Random float64 `json:"random"`
	Target float64 `json:"target"`
}

// Normalize returns (x − Random) / (Target − Random): 0 for the random
// policy's return and 1 at the target. A Range with Target = Random maps
// every return to ±Inf or NaN; Validate catches it.
func (r Range) Normalize(x float64) float64 { return (x - r.Random) / (r.Target - r.Random) }

// Validate returns an error unless Random and Target are finite and
// distinct.
func (r Range) Validate() error {
	if math.IsNaN(r.Random) || math.IsInf(r.Random, 0) || math.IsNaN(r.Target) || math.IsInf(r.Target, 0) || r.Random == r.Target {
		return fmt.Errorf("scores: invalid reference range: random %v, target %v (need two distinct finite returns)", r.Random, r.Target)
	}
	return nil
}
