// Package scores summarizes the final returns of runs over seeds and envs
// the way rliable does (Agarwal et al., "Deep Reinforcement Learning at the
// Edge of the Statistical Precipice", NeurIPS 2021): point estimates that
// hold up with few runs (the interquartile mean), stratified bootstrap
// confidence intervals, the probability of improvement of one algorithm
// over another, and normalization of returns so several envs aggregate.
//
// # Overview
//
// Scores are held as a matrix scores[task][run]: one row per task (an env,
// a stratum of the bootstrap), one value per run (a seed) of that task.
// Rows may have different lengths. An Aggregate reduces such a matrix to
// one number: Mean, Median, IQM and OptimalityGap. Bootstrap puts a
// confidence interval around an Aggregate; ProbabilityOfImprovement and
// ImprovementInterval compare two matrices task by task. Range maps a raw
// return to a normalized score, 0 for a random policy and 1 at the task's
// target.
//
// # Invariants
//
//   - Functions never modify the scores they are given.
//   - The aggregates of an empty matrix are NaN; Bootstrap and the
//     comparisons return an error for an empty matrix, a task without
//     runs, or a score that is NaN or infinite.
//   - Bootstrap draws from the *rand.Rand it is given and from nothing
//     else: the same seed gives the same interval.
//
// # Decisions
//
// IQM is rliable's: scipy's trim_mean(x, 0.25) over all scores, which drops
// ⌊n/4⌋ scores at each end and averages the rest (no fractional weights for
// the scores at the cut). Mean and OptimalityGap pool all scores as rliable
// does. Median differs on purpose: rliable takes the median over tasks of
// the per-task mean scores, which for the single task of a per-env report
// is just the mean; Median here is the median of all scores, so a per-env
// table shows the middle run.
//
// Bootstrap intervals are rliable's default, percentile intervals: the
// (1−c)/2 and (1+c)/2 quantiles of the aggregate over the resamples, with
// the linear interpolation numpy's percentile uses by default (Hyndman and
// Fan's type 7). Resampling is stratified: each task's runs are resampled
// with replacement within the task, so every resample keeps the number of
// runs of every task. The default of 2000 resamples keeps an interval
// cheap to compute on a command line; rliable's published figures use
// 50000 (BootstrapConfig.Resamples sets it).
//
// The probability of improvement P(X > Y) of a task is the Mann–Whitney U
// statistic over n·m: the share of pairs (xᵢ, yⱼ) with xᵢ > yⱼ, ties
// counting one half; over several tasks it is the mean of the tasks'.
package scores
