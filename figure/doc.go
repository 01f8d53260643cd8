// Package figure draws the figures of training runs, as PNG or SVG files:
// learning curves (one line per group of runs, with a shaded confidence
// band over the group's seeds), interval estimates (one row per
// algorithm, one panel per aggregate, as rliable draws them) and scores
// per seed (one row per algorithm, one panel per env, a dot per seed and
// a tick at the score to reach).
//
// # Overview
//
// Group turns the curves of several runs of one group (an algorithm on an
// env, over seeds) into one Series: the runs are put on a common grid of x
// values, and at each point the line is an aggregate of the runs there
// (the mean, or the IQM) and the band its stratified bootstrap interval
// (package scores). Curves is a figure of such series; Intervals is a
// figure of interval estimates; Points a figure of scores per seed. Write
// renders any of them to an io.Writer in a format named by FormatOf(path):
// "png" or "svg".
//
// # Invariants
//
//   - Write draws exactly one line per Series of a Curves, one band per
//     Series that has one, and one legend entry per Series.
//   - Group reads its input and never modifies it; a seed of its
//     *rand.Rand reproduces the band.
//
// # Decisions
//
// Plots use gonum.org/v1/plot, the Go plotting library kept by the gonum
// project: PNG and SVG output from the same drawing code, with fonts
// embedded, and no cgo or system library.
//
// Group puts runs on the union of their x values (thinned to at most
// MaxPoints evenly spaced ones), and reads each run there by linear
// interpolation between its logged points, as its own line is drawn (at a
// logged x, its last value there). A run contributes only
// between its first and its last x, so runs that stopped early (solved)
// do not pull the line after their end; where a single run is left the
// band narrows to its line.
package figure
