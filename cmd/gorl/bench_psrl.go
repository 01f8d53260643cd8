package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/psrl"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/tabular"
	"github.com/gorl/gorl/figure"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
)

// The PSRL run's settings: NChain-v0 (episodes of 1,000 steps), one
// posterior update per episode as in Tianshou's PSRL test, for 100 episodes.
const (
	psrlEnv      = "NChain-v0"
	psrlEpisodes = 100
	psrlFigure   = "psrl-nchain-regret.png"
)

// psrlRuns runs PSRL (its DefaultConfig) on NChain-v0 for psrlEpisodes
// episodes per seed and measures its regret: the optimal expected return
// of an episode (finite-horizon value iteration on the env's own tables)
// minus the return earned, summed over episodes, next to that of uniformly
// random actions. It writes a table and the curve of PSRL's cumulative
// regret (mean over seeds, 95% bootstrap band) to psrlFigure.
func psrlRuns(ctx context.Context, o BenchOptions, w io.Writer) error {
	probe, err := env.Make(psrlEnv)
	if err != nil {
		return err
	}
	mdp := env.Unwrapped(probe).(*tabular.Env).MDP()
	probe.Close()
	const steps = 1000
	best := mdp.FiniteHorizon(steps)[0]
	fmt.Fprintf(w, "PSRL (Tianshou's test priors) on %s, %d episodes of %d steps, one posterior update per episode; regret against\n"+
		"the optimal expected return of an episode, %.1f (finite-horizon value iteration on the env's tables).\n\n",
		psrlEnv, psrlEpisodes, steps, best)
	tb := newTable(w, "seed", "regret after 10 episodes", "after 100", "mean return of the last 10", "random actions: regret after 100")
	var runs []figure.Curve
	var finals, lasts []float64
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		curve, last, err := psrlSeed(ctx, seed, best, false)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		rc, _, err := psrlSeed(ctx, seed, best, true)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		runs = append(runs, curve)
		finals, lasts = append(finals, curve.Y[psrlEpisodes-1]), append(lasts, last)
		tb.Row(fmt.Sprint(seed), fmt.Sprintf("%.0f", curve.Y[9]), fmt.Sprintf("%.0f", curve.Y[psrlEpisodes-1]),
			fmt.Sprintf("%.1f", last), fmt.Sprintf("%.0f", rc.Y[psrlEpisodes-1]))
		fmt.Fprintf(o.Log, "psrl seed %d: regret %.0f after %d episodes\n", seed, curve.Y[psrlEpisodes-1], psrlEpisodes)
	}
	tb.Flush()
	fmt.Fprintf(w, "\nmedian regret after %d episodes %.0f (%.1f per episode, %.2f%% of the optimum); median return of the last 10 episodes %.1f\n",
		psrlEpisodes, median(finals), median(finals)/psrlEpisodes, 100*median(finals)/(psrlEpisodes*best), median(lasts))
	rng := rand.New(rand.NewPCG(o.FirstSeed, 0x5a1))
	ps, err := figure.Group("PSRL", runs, figure.GroupConfig{}, rng)
	if err != nil {
		return err
	}
	fig := figure.Curves{Title: "PSRL on " + psrlEnv + fmt.Sprintf(" (%d seeds)", o.Seeds), XLabel: "episode",
		YLabel: "cumulative regret", Series: []figure.Series{ps}}
	if err := writeFigure(psrlFigure, fig); err != nil {
		return err
	}
	fmt.Fprintf(w, "regret curves: %s\n", psrlFigure)
	return nil
}

// psrlSeed runs one seed, PSRL or uniformly random actions (random), and
// returns the cumulative regret after each episode and the mean return of
// the last 10 episodes.
func psrlSeed(ctx context.Context, seed uint64, best float64, random bool) (figure.Curve, float64, error) {
	var c figure.Curve
	e, err := env.Make(psrlEnv)
	if err != nil {
		return c, 0, err
	}
	defer e.Close()
	p, err := psrl.New(psrl.DefaultConfig(), e.ObservationSpace(), e.ActionSpace(), rand.New(rand.NewPCG(seed, 0x95)))
	if err != nil {
		return c, 0, err
	}
	pol := p.Policy()
	pol.SetTrainingStep(true)
	rng := rand.New(rand.NewPCG(seed, 0x7a))
	var cols struct{ obs, next, act, rew, term *nd.Array }
	const steps = 1000
	cols.obs, cols.next, cols.act = nd.Zeros(nd.Int64, steps), nd.Zeros(nd.Int64, steps), nd.Zeros(nd.Int64, steps)
	cols.rew, cols.term = nd.Zeros(nd.Float64, steps), nd.Zeros(nd.Bool, steps)
	obsIn, actIn := nd.Zeros(nd.Int64, 1), nd.Zeros(nd.Int64)
	in := batch.MustNew(batch.KeyObs, obsIn)
	var out batch.Batch
	regret, lastSum := 0.0, 0.0
	for ep := range psrlEpisodes {
		if err := ctx.Err(); err != nil {
			return c, 0, err
		}
		o, _, err := e.Reset(env.SeedOf(seed*1_000_003 + uint64(ep)))
		if err != nil {
			return c, 0, err
		}
		s := nd.Data[int64](o.(*nd.Array))[0]
		ret, n := 0.0, 0
		for done := false; !done; n++ {
			a, err := psrlAct(pol, in, obsIn, &out, s, random, rng)
			if err != nil {
				return c, 0, err
			}
			nd.Data[int64](actIn)[0] = a
			o, r, term, trunc, _, err := e.Step(actIn)
			if err != nil {
				return c, 0, err
			}
			s2 := nd.Data[int64](o.(*nd.Array))[0]
			nd.Data[int64](cols.obs)[n], nd.Data[int64](cols.next)[n], nd.Data[int64](cols.act)[n] = s, s2, a
			nd.Data[float64](cols.rew)[n], nd.Data[bool](cols.term)[n] = r, term
			ret += r
			s, done = s2, term || trunc
		}
		if n != steps {
			return c, 0, fmt.Errorf("an episode of %d steps; want %d", n, steps)
		}
		if !random {
			b := batch.MustNew(batch.KeyObs, cols.obs, batch.KeyObsNext, cols.next, batch.KeyAct, cols.act,
				batch.KeyRew, cols.rew, batch.KeyTerminated, cols.term)
			if _, err := p.UpdateRepeat(b, 0, 1); err != nil {
				return c, 0, err
			}
		}
		regret += best - ret
		c.X, c.Y = append(c.X, float64(ep+1)), append(c.Y, regret)
		if ep >= psrlEpisodes-10 {
			lastSum += ret
		}
	}
	return c, lastSum / 10, nil
}

// psrlAct returns the policy's action in state s, or a uniformly random one.
func psrlAct(pol policy.Policy, in *batch.Batch, obsIn *nd.Array, out *batch.Batch, s int64, random bool, rng *rand.Rand) (int64, error) {
	if random {
		return rng.Int64N(2), nil
	}
	nd.Data[int64](obsIn)[0] = s
	if err := pol.Act(out, in, nil, false); err != nil {
		return 0, err
	}
	a, err := out.Array(batch.KeyAct)
	if err != nil {
		return 0, err
	}
	return nd.Data[int64](a)[0], nil
}

func init() {
	RegisterBench("psrl-nchain", BenchRun{
		Doc: "PSRL on NChain-v0: cumulative regret over 100 episodes against the optimum, and its curve (" + psrlFigure + ")",
		Run: psrlRuns,
	})
}
