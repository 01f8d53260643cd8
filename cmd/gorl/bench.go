package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/trainer"
)

// BenchRun is one run of gorl bench: a learning or speed comparison, or a
// pointer to benchmarks that live in go test. Runs register themselves with
// RegisterBench from init functions in files of their own
// (bench_<name>.go).
type BenchRun struct {
	// Doc is a one-line description for gorl bench -h.
	Doc string
	// Run runs the comparison and writes its table to w.
	Run func(ctx context.Context, o BenchOptions, w io.Writer) error
	// Long marks a run of hours, which runs only when named.
	Long bool
}

// BenchOptions are gorl bench's flags.
type BenchOptions struct {
	// Seeds is the number of seeds of learning runs, FirstSeed the first.
	Seeds     int
	FirstSeed uint64
	// Log receives progress messages (stderr).
	Log io.Writer
}

var benchRuns = map[string]BenchRun{}

// RegisterBench makes a run available to gorl bench under name. It panics
// if name is empty or taken.
func RegisterBench(name string, r BenchRun) {
	if name == "" || r.Run == nil {
		panic("gorl: RegisterBench: empty name or missing Run")
	}
	if _, dup := benchRuns[name]; dup {
		panic("gorl: bench run " + name + " registered twice")
	}
	benchRuns[name] = r
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "matrix" {
		return cmdBenchMatrix(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o BenchOptions
	fs.IntVar(&o.Seeds, "seeds", 5, "number of seeds of each learning run")
	fs.Uint64Var(&o.FirstSeed, "first-seed", 0, "first seed of the learning runs")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gorl bench [--seeds N] [--first-seed N] [RUN]...\n       gorl bench matrix -h  (the learning matrix)\nruns (all but the long ones, marked *, when none is named):")
		for _, name := range slices.Sorted(maps.Keys(benchRuns)) {
			mark := " "
			if benchRuns[name].Long {
				mark = "*"
			}
			fmt.Fprintf(stderr, " %s%-16s %s\n", mark, name, benchRuns[name].Doc)
		}
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.Seeds < 1 {
		return fmt.Errorf("bench: --seeds %d < 1", o.Seeds)
	}
	o.Log = stderr
	names := fs.Args()
	if len(names) == 0 {
		for _, name := range slices.Sorted(maps.Keys(benchRuns)) {
			if !benchRuns[name].Long {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		if _, ok := benchRuns[name]; !ok {
			return fmt.Errorf("bench: unknown run %q (gorl bench -h lists them)", name)
		}
	}
	fmt.Fprintf(stdout, "BLAS: %s\n\n", tensor.BLASName())
	var unmet []error
	for _, name := range names {
		fmt.Fprintf(stdout, "## %s\n\n", name)
		err := benchRuns[name].Run(ctx, o, stdout)
		fmt.Fprintln(stdout)
		switch {
		case errors.Is(err, errNotLearned):
			unmet = append(unmet, fmt.Errorf("bench %s: %w", name, err))
		case err != nil:
			return fmt.Errorf("bench %s: %w", name, err)
		}
	}
	return errors.Join(unmet...)
}

// errNotLearned is returned by a learning run that solved its env on fewer
// seeds than it needs, after its table is written; gorl bench goes on with
// the other runs and exits with an error. Speed verdicts depend on the
// machine and only print.
var errNotLearned = errors.New("learning target not met")

// SolveSpec describes a learning run repeated over seeds: train Algo on Env
// from its registered defaults with Sets applied, until the mean test return
// reaches Threshold. The pair's preset is not applied: these runs keep the
// settings of Tianshou's tests, whose times they compare with, while a
// preset is tuned for the learning matrix's bar.
type SolveSpec struct {
	Algo, Env string
	// Sets are --set assignments applied to the defaults.
	Sets []string
	// Threshold is the mean test return that counts as solved; it
	// replaces the trainer's stop threshold.
	Threshold float64
	// Need is the number of seeds that must solve the env.
	Need int
	// Reference names the Python reference's figures (its version, median
	// wall time and env steps), RefSeconds its median wall time (0: no
	// speed target), Speedup the factor the median must beat.
	Reference  string
	RefSeconds float64
	Speedup    float64
}

// solveRuns runs spec over o's seeds and writes a Markdown table of
// per-seed results, the medians, and whether the learning and speed
// targets were met.
func solveRuns(ctx context.Context, spec SolveSpec, o BenchOptions, w io.Writer) error {
	sets := append(slices.Clone(spec.Sets), fmt.Sprintf("trainer.reward_threshold=%v", spec.Threshold))
	rc, _, err := resolveDefaults(spec.Algo, spec.Env, sets)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s on %s, stop at a mean test return ≥ %v over %d test episodes; %d training envs.\n\n",
		spec.Algo, spec.Env, spec.Threshold, rc.Trainer.TestEpisodes, rc.TrainEnvs)
	tb := newTable(w, "seed", "solved", "best test return", "epochs", "env steps", "updates", "wall s", "cpu s", "collect s", "update s", "test s")
	var walls, cpus, steps, bests []float64
	solved := 0
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		rc, acfg, err := resolveDefaults(spec.Algo, spec.Env, sets)
		if err != nil {
			return err
		}
		rc.Seed = seed
		s, err := newSession(rc, acfg, nil, trainer.Setup{})
		if err != nil {
			return err
		}
		cpu0, _ := cputime.Process()
		res, err := s.tr.Run(ctx)
		cpu1, measured := cputime.Process()
		s.tr.Close()
		if err != nil {
			return err
		}
		if res.Solved {
			solved++
		}
		cpu := "-"
		if measured {
			cpus = append(cpus, (cpu1 - cpu0).Seconds())
			cpu = fmt.Sprintf("%.2f", (cpu1 - cpu0).Seconds())
		}
		walls, bests = append(walls, res.Duration.Seconds()), append(bests, res.BestReturn)
		steps = append(steps, float64(res.EnvSteps+res.PrefillSteps))
		tb.Row(fmt.Sprint(seed), fmt.Sprint(res.Solved), fmt.Sprintf("%.1f ± %.1f", res.BestReturn, res.BestStd),
			fmt.Sprint(res.Epochs), fmt.Sprint(res.EnvSteps+res.PrefillSteps), fmt.Sprint(res.GradientSteps),
			fmt.Sprintf("%.2f", res.Duration.Seconds()), cpu, fmt.Sprintf("%.2f", res.CollectTime.Seconds()),
			fmt.Sprintf("%.2f", res.UpdateTime.Seconds()), fmt.Sprintf("%.2f", res.TestTime.Seconds()))
		fmt.Fprintf(o.Log, "%s %s seed %d: solved %v in %v\n", spec.Algo, spec.Env, seed, res.Solved, res.Duration.Round(time.Millisecond))
	}
	tb.Flush()
	mw, ms := median(walls), median(steps)
	fmt.Fprintf(w, "\nmedian: %.2f s, %.0f env steps (prefill included); solved on %d of %d seeds (need %d): %s\n",
		mw, ms, solved, o.Seeds, spec.Need, verdict(solved >= spec.Need))
	fmt.Fprintf(w, "best test return over seeds (95%% bootstrap intervals): %s\n", seedSummary(bests, o.FirstSeed))
	if len(cpus) > 0 {
		fmt.Fprintf(w, "median CPU time %.2f s (the process's user + system time: on a loaded machine wall time exceeds it)\n", median(cpus))
	}
	if spec.RefSeconds > 0 {
		fmt.Fprintf(w, "%s; speedup %.1f× (target ≥ %.0f×): %s\n", spec.Reference, spec.RefSeconds/mw, spec.Speedup,
			verdict(spec.RefSeconds/mw >= spec.Speedup))
	}
	if solved < spec.Need {
		return fmt.Errorf("%w: %s on %s solved on %d of %d seeds, need %d", errNotLearned, spec.Algo, spec.Env, solved, o.Seeds, spec.Need)
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func init() {
	RegisterBench("dqn-cartpole", BenchRun{
		Doc: "DQN on CartPole-v1 with Tianshou's test settings: learning (≥ 195 on 4 of 5 seeds) and speed (Tianshou 9.2 s)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			return solveRuns(ctx, SolveSpec{
				Algo: "dqn", Env: "CartPole-v1", Threshold: 195, Need: (4*o.Seeds + 4) / 5,
				Reference: "Tianshou 2.0.1: median 9.2 s, ~9.2k env steps", RefSeconds: 9.2, Speedup: 5,
			}, o, w)
		},
	})
	RegisterBench("go-benchmarks", BenchRun{
		Doc: "the commands of the data-structure, collector and kernel benchmarks (go test)",
		Run: func(ctx context.Context, o BenchOptions, w io.Writer) error {
			fmt.Fprintln(w, "These comparisons are Go benchmarks; run them from the module root:")
			fmt.Fprintln(w)
			for _, c := range []string{
				"go test -run '^$' -bench . -benchmem ./batch ./buffer          # Batch and replay buffers",
				"go test -run '^$' -bench . -benchmem ./collector ./env/vector  # collection and vector envs",
				"go test -run '^$' -bench . -benchmem ./tensor ./nn ./optim     # autodiff, networks, optimizers",
				"go test -run '^$' -bench . -benchmem ./algo/...                # GAE, n-step returns, every algorithm's update",
			} {
				fmt.Fprintln(w, "    "+c)
			}
			fmt.Fprintln(w, strings.TrimSpace(`
Benchmarks report cpu-ns/op besides ns/op: on a shared machine the CPU time
is the figure to compare.`))
			return nil
		},
	})
}
