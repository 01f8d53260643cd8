package collector

import (
	"math"
	"time"

	"github.com/gorl/gorl/batch"
)

// Stats describes one Collect, Tianshou's CollectStats.
//
// Returns and Lens are storage of the collector, reused by its next
// Collect: copy them to keep them.
type Stats struct {
	// Steps is the number of env steps taken and stored.
	Steps int
	// Episodes is the number of episodes that finished.
	Episodes int
	// Returns holds the return (sum of rewards) of each finished episode,
	// in the order they finished; an episode begun by an earlier Collect
	// counts its earlier steps too.
	Returns []float64
	// Lens holds the length in steps of each finished episode, in the
	// same order.
	Lens []int
	// Return and Len summarize Returns and Lens (all zero when no
	// episode finished).
	Return, Len Summary
	// Duration is the wall-clock time of the Collect.
	Duration time.Duration
	// EnvTime is the time spent in the vector env (stepping, resetting,
	// waiting for envs), PolicyTime the time spent choosing actions
	// (Policy.Act, action mapping, sampling random actions).
	EnvTime, PolicyTime time.Duration
	// StepsPerSecond is Steps / Duration.
	StepsPerSecond float64
}

// Summary holds the mean, standard deviation (population, numpy's default),
// minimum and maximum of a list of numbers.
type Summary struct {
	Mean, Std, Min, Max float64
}

// summarize returns the Summary of xs (zeros for none), in two passes for
// an accurate standard deviation.
func summarize[T int | float64](xs []T) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := Summary{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, x := range xs {
		v := float64(x)
		s.Mean += v
		s.Min = math.Min(s.Min, v)
		s.Max = math.Max(s.Max, v)
	}
	s.Mean /= float64(len(xs))
	for _, x := range xs {
		d := float64(x) - s.Mean
		s.Std += d * d
	}
	s.Std = math.Sqrt(s.Std / float64(len(xs)))
	return s
}

// StepEvent is what Config.OnStep receives for each env step stored.
type StepEvent struct {
	// Env is the env's id, which is also its sub-buffer's id.
	Env int
	// Row is the env's row in Batch.
	Row int
	// Index is the buffer index the transition was stored at (in a
	// *buffer.Cached, a cache index, or the main-ring index for a step
	// that ended an episode).
	Index int
	// Batch holds the transitions of the vector step as they were given
	// to the buffer, one row per stepped env: obs, act, rew, terminated,
	// truncated, obs_next, info, policy. It belongs to the collector and
	// is valid during the call only.
	Batch *batch.Batch
}

// EpisodeEvent is what Config.OnEpisode receives for each finished episode.
type EpisodeEvent struct {
	// Env is the env's id, which is also its sub-buffer's id.
	Env int
	// Return is the sum of the episode's rewards and Len its number of
	// steps.
	Return float64
	Len    int
	// Start and End are the buffer indices of the episode's first and last
	// transitions (as buffer.Step reports them); the episode's transitions
	// are Start, Next(Start), …, End while the buffer still holds them.
	Start, End int
}
