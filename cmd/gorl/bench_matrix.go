package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/figure"
	"github.com/gorl/gorl/internal/par"
	"github.com/gorl/gorl/scores"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/trainer"
)

// The learning matrix: every registered algorithm on every registered env
// whose spaces it accepts, with the pair's preset, over seeds, against a
// published bar.

// matrixBar is the score a pair must reach and where it comes from.
type matrixBar struct {
	// Return is the mean deterministic test return to reach, within
	// Steps env steps (prefill included).
	Return float64
	Steps  int
	Source string
}

// zooBars are rl-baselines3-zoo's benchmark scores (benchmark.md: SB3 with
// tuned hyperparameters, one run, deterministic evaluation) minus one of
// their standard deviations, within their training steps. REDQ and discrete
// SAC have no row there: barFor gives them Gymnasium's threshold, or
// Tianshou's −250 on Pendulum, within 1M steps.
var zooBars = map[string]matrixBar{
	"a2c/Acrobot-v1":                {-83.353 - 17.213, 500_000, "rl-zoo −83.4 − 17.2"},
	"a2c/CartPole-v1":               {500, 500_000, "rl-zoo 500 − 0"},
	"a2c/MountainCar-v0":            {-111.263 - 24.087, 1_000_000, "rl-zoo −111.3 − 24.1"},
	"a2c/MountainCarContinuous-v0":  {91.166 - 0.255, 100_000, "rl-zoo 91.2 − 0.3"},
	"a2c/Pendulum-v1":               {-162.965 - 103.210, 1_000_000, "rl-zoo −163.0 − 103.2"},
	"ddpg/MountainCarContinuous-v0": {93.512 - 0.048, 300_000, "rl-zoo 93.5 − 0.0"},
	"ddpg/Pendulum-v1":              {-152.099 - 94.282, 20_000, "rl-zoo −152.1 − 94.3"},
	"dqn/Acrobot-v1":                {-76.639 - 11.752, 100_000, "rl-zoo −76.6 − 11.8"},
	"dqn/CartPole-v1":               {500, 50_000, "rl-zoo 500 − 0"},
	"dqn/MountainCar-v0":            {-100.849 - 9.925, 120_000, "rl-zoo −100.8 − 9.9"},
	"ppo/Acrobot-v1":                {-73.506 - 18.201, 1_000_000, "rl-zoo −73.5 − 18.2"},
	"qrdqn/Acrobot-v1":              {-69.135 - 9.967, 100_000, "rl-zoo −69.1 − 10.0"},
	"qrdqn/CartPole-v1":             {500, 50_000, "rl-zoo 500 − 0"},
	"qrdqn/MountainCar-v0":          {-106.042 - 15.536, 120_000, "rl-zoo −106.0 − 15.5"},
	"ppo/CartPole-v1":               {500, 100_000, "rl-zoo 500 − 0"},
	"ppo/MountainCar-v0":            {-110.423 - 19.473, 1_000_000, "rl-zoo −110.4 − 19.5"},
	"ppo/MountainCarContinuous-v0":  {88.343 - 2.572, 20_000, "rl-zoo 88.3 − 2.6"},
	"ppo/Pendulum-v1":               {-172.225 - 104.159, 100_000, "rl-zoo −172.2 − 104.2"},
	"sac/MountainCarContinuous-v0":  {94.679 - 1.134, 50_000, "rl-zoo 94.7 − 1.1"},
	"sac/Pendulum-v1":               {-156.995 - 88.714, 20_000, "rl-zoo −157.0 − 88.7"},
	"td3/MountainCarContinuous-v0":  {93.483 - 0.075, 300_000, "rl-zoo 93.5 − 0.1"},
	"td3/Pendulum-v1":               {-151.855 - 90.227, 20_000, "rl-zoo −151.9 − 90.2"},
}

// matrixNotes explain pairs whose preset is still to come.
var matrixNotes = map[string]string{}

// barFor returns the bar of the pair: rl-zoo's where it has a row, else
// the MuJoCo or MinAtar reference (longBars), else Gymnasium's reward
// threshold of the env, else its stop threshold (Tianshou's test
// threshold), within 1M steps.
func barFor(algoName, envID string) (matrixBar, error) {
	if b, ok := zooBars[algoName+"/"+envID]; ok {
		return b, nil
	}
	if b, ok := longBars[algoName+"/"+envID]; ok {
		return b, nil
	}
	spec, ok := env.Lookup(envID)
	if !ok {
		return matrixBar{}, fmt.Errorf("unknown env %q", envID)
	}
	switch {
	case spec.RewardThreshold != nil:
		return matrixBar{*spec.RewardThreshold, 1_000_000, "Gymnasium threshold"}, nil
	case spec.StopThreshold() != nil:
		return matrixBar{*spec.StopThreshold(), 1_000_000, "Tianshou test threshold"}, nil
	}
	return matrixBar{}, fmt.Errorf("%s on %s: no bar (no rl-zoo score, reward or stop threshold)", algoName, envID)
}

// matrixJob is one run of the matrix: a pair on one seed, with its bar.
type matrixJob struct {
	Algo string    `json:"algo"`
	Env  string    `json:"env"`
	Seed uint64    `json:"seed"`
	Bar  matrixBar `json:"bar"`
	// Data is the dataset of an offline pair, built or read under WorkDir.
	Data    *DatasetSpec `json:"data,omitempty"`
	WorkDir string       `json:"work_dir,omitempty"`
}

// matrixResult is what a run reports.
type matrixResult struct {
	// Return and Std are the best mean deterministic test return and its
	// standard deviation (the test that stopped the run when it reached
	// the bar).
	Return, Std float64
	Reached     bool
	// EnvSteps counts the env steps of training and prefill.
	EnvSteps int64
	Wall     float64
	// CPU is the user and system time of the run's process in seconds
	// (the child's with --jobs above 1, else this process's over the
	// run): unlike Wall, the machine's other load does not inflate it.
	CPU float64 `json:",omitempty"`
	Err string
}

// matrixRunConfig is the run configuration of job: the pair's resolved
// settings (preset included) with the matrix's evaluation and budget: stop
// at the bar, deterministic tests of at least 10 episodes, and as many
// epochs as fit in the bar's steps.
func matrixRunConfig(job matrixJob) (RunConfig, algoConfig, error) {
	rc, acfg, err := resolve(job.Algo, job.Env, nil, nil)
	if err != nil {
		return RunConfig{}, nil, err
	}
	rc.Seed = job.Seed
	t := &rc.Trainer
	bar := job.Bar.Return
	t.RewardThreshold = &bar
	t.TestExploration = false
	t.TestEpisodes = max(t.TestEpisodes, 10)
	if budget := job.Bar.Steps - t.PrefillSteps; t.StepPerEpoch > budget {
		t.StepPerEpoch, t.Epochs = max(1, budget), 1
	} else if t.StepPerEpoch > 0 {
		t.Epochs = budget / t.StepPerEpoch
	}
	return rc, acfg, nil
}

// runMatrixJob trains job in this process.
func runMatrixJob(ctx context.Context, job matrixJob) matrixResult {
	if job.Data != nil {
		return runOfflineMatrixJob(ctx, job)
	}
	rc, acfg, err := matrixRunConfig(job)
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	s, err := newSession(rc, acfg, nil, trainer.Setup{})
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	defer s.tr.Close()
	res, err := s.tr.Run(ctx)
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	return matrixResult{Return: res.BestReturn, Std: res.BestStd, Reached: res.Solved,
		EnvSteps: res.EnvSteps + res.PrefillSteps, Wall: res.Duration.Seconds()}
}

// runMatrixChild trains job in a child process (gorl bench matrix --job),
// so that runs in parallel share no Go runtime. The child's worker pool
// gets its share of the cores (childWorkers) unless the caller capped it.
func runMatrixChild(ctx context.Context, exe string, job matrixJob, jobs int) matrixResult {
	spec, err := json.Marshal(job)
	if err != nil {
		return matrixResult{Err: err.Error()}
	}
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, exe, "bench", "matrix", "--job", string(spec))
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if _, set := os.LookupEnv(par.EnvVar); !set {
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", par.EnvVar, childWorkers(runtime.NumCPU(), jobs)))
	}
	if err := cmd.Run(); err != nil {
		return matrixResult{Err: fmt.Sprintf("%v: %s", err, strings.TrimSpace(errOut.String()))}
	}
	var r matrixResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return matrixResult{Err: fmt.Sprintf("child output: %v", err)}
	}
	r.CPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return r
}

// childWorkers is the worker count of each of jobs child processes on cpus
// cores: an equal share, at least one. With as many runs as cores, a run
// that handed tasks to a second worker would take that core from another
// run, and its helper's waiting would count in its CPU time.
func childWorkers(cpus, jobs int) int {
	return max(1, cpus/max(jobs, 1))
}

// matrixPair is one (algorithm, env) pair of the matrix.
type matrixPair struct {
	Algo, Env string
	Bar       matrixBar
	Preset    string       // "preset" or "defaults"
	Data      *DatasetSpec // the dataset of an offline pair (offlinePair)
}

// matrixEnvs are the envs of the matrix when no --env names one: the
// classic-control tasks, whose runs take seconds to minutes. The MuJoCo
// tasks' runs take hours at a million steps each; --env runs one of them
// (or any registered env with a bar).
var matrixEnvs = []string{"Acrobot-v1", "CartPole-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"}

// matrixPairs returns the pairs that apply among the registered
// algorithms (online ones; offline ones need datasets) and the envs of the
// matrix (matrixEnvs, or envID alone when it is set), narrowed to algorithm
// only when it is set, and the pairs that do not apply with the reason
// each was refused.
func matrixPairs(only, envID string) (pairs []matrixPair, refused []string, err error) {
	ids := matrixEnvs
	if envID != "" {
		ids = []string{envID}
	}
	for _, id := range ids {
		obs, act, err := spaces(id)
		if err != nil {
			return nil, nil, err
		}
		for _, name := range algorithmNames() {
			if only != "" && name != only {
				continue
			}
			acfg, _ := algorithms[name].defaults(id)
			if acfg.offline() {
				p, err := offlinePair(name, id)
				if err != nil {
					refused = append(refused, fmt.Sprintf("%s on %s: %v", name, id, err))
					continue
				}
				pairs = append(pairs, p)
				continue
			}
			rc, acfg, err := resolve(name, id, nil, nil)
			if err != nil {
				return nil, nil, err
			}
			if _, err := acfg.build(obs, act, rand.New(rand.NewPCG(rc.Seed, 0))); err != nil {
				refused = append(refused, fmt.Sprintf("%s on %s: %v", name, id, err))
				continue
			}
			bar, err := barFor(name, id)
			if err != nil {
				// An env with no published score or threshold (a user's or
				// a test's) has nothing to be measured against.
				refused = append(refused, fmt.Sprintf("%s on %s: %v", name, id, err))
				continue
			}
			src := "defaults"
			if pre, ok, _ := lookupPreset(name, id); ok {
				src = "preset"
				if pre.MatrixSteps > 0 && pre.MatrixSteps < bar.Steps {
					bar.Steps = pre.MatrixSteps
				}
			}
			pairs = append(pairs, matrixPair{Algo: name, Env: id, Bar: bar, Preset: src})
		}
	}
	if len(pairs) == 0 {
		return nil, refused, fmt.Errorf("no pair applies (algorithm %q, env %q)", only, envID)
	}
	return pairs, refused, nil
}

// matrixOptions are gorl bench matrix's flags.
type matrixOptions struct {
	Only, Env string
	Seeds     int
	FirstSeed uint64
	// Jobs is the number of runs at a time; above 1 each run is a child
	// process.
	Jobs int
	Out  string
	// WorkDir holds the datasets of the offline pairs (matrixDataset).
	WorkDir string
}

// pairOutcome is a pair's results over its seeds.
type pairOutcome struct {
	matrixPair
	Results []matrixResult
}

// runMatrix runs the pairs over o's seeds and returns their outcomes in
// the order of pairs.
func runMatrix(ctx context.Context, pairs []matrixPair, o matrixOptions, log io.Writer) ([]pairOutcome, error) {
	exe := ""
	if o.Jobs > 1 {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, err
		}
	}
	if err := prepareMatrixData(ctx, pairs, o, log); err != nil {
		return nil, err
	}
	outs := make([]pairOutcome, len(pairs))
	type task struct{ p, s int }
	tasks := make(chan task)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(1, o.Jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range tasks {
				p := pairs[t.p]
				job := matrixJob{Algo: p.Algo, Env: p.Env, Seed: o.FirstSeed + uint64(t.s), Bar: p.Bar, Data: p.Data, WorkDir: o.WorkDir}
				var r matrixResult
				if exe == "" {
					cpu0 := processCPU()
					r = runMatrixJob(ctx, job)
					r.CPU = (processCPU() - cpu0).Seconds()
				} else {
					r = runMatrixChild(ctx, exe, job, o.Jobs)
				}
				mu.Lock()
				outs[t.p].Results[t.s] = r
				if r.Err != "" {
					fmt.Fprintf(log, "%s %s seed %d: %s\n", p.Algo, p.Env, job.Seed, r.Err)
				} else {
					fmt.Fprintf(log, "%s %s seed %d: %.1f (bar %.1f, reached %v) in %d env steps, %.1f s, %.1f s CPU\n",
						p.Algo, p.Env, job.Seed, r.Return, p.Bar.Return, r.Reached, r.EnvSteps, r.Wall, r.CPU)
				}
				mu.Unlock()
			}
		}()
	}
	for i, p := range pairs {
		outs[i] = pairOutcome{matrixPair: p, Results: make([]matrixResult, o.Seeds)}
	}
	// The costliest runs first, so that the last ones to finish are
	// short (matrixSchedule).
	for _, i := range matrixSchedule(pairs) {
		for s := range o.Seeds {
			tasks <- task{i, s}
		}
	}
	close(tasks)
	wg.Wait()
	return outs, ctx.Err()
}

// met reports whether the pair reached its bar on at least 4 of 5 seeds
// (the same share of another number of seeds, rounded up).
func (po pairOutcome) met() (reached int, ok bool) {
	for _, r := range po.Results {
		if r.Err == "" && r.Reached {
			reached++
		}
	}
	return reached, reached >= (4*len(po.Results)+4)/5
}

// iqm is the interquartile mean of xs (scores.IQM).
func iqm(xs []float64) float64 { return scores.IQM([][]float64{xs}) }

// writeMatrix writes the Markdown table of the outcomes and their notes.
func writeMatrix(w io.Writer, outs []pairOutcome) {
	tb := newTable(w, "algorithm", "env", "settings", "bar (source)", "within", "test return per seed", "median", "IQM",
		"env steps (median)", "wall s (median)", "CPU s (median)", "reached", "verdict")
	for _, po := range outs {
		var rets, steps, walls, cpus []float64
		cells := make([]string, len(po.Results))
		for i, r := range po.Results {
			if r.Err != "" {
				cells[i] = "error"
				continue
			}
			rets, steps, walls, cpus = append(rets, r.Return), append(steps, float64(r.EnvSteps)), append(walls, r.Wall), append(cpus, r.CPU)
			cells[i] = fmt.Sprintf("%.1f", r.Return)
			if !r.Reached {
				cells[i] += "✗"
			}
		}
		reached, ok := po.met()
		tb.Row(po.Algo, po.Env, po.Preset, fmt.Sprintf("%.1f (%s)", po.Bar.Return, po.Bar.Source), fmtSteps(po.Bar.Steps),
			strings.Join(cells, ", "), fmt.Sprintf("%.1f", median(rets)), fmt.Sprintf("%.1f", iqm(rets)),
			fmt.Sprintf("%.0f", median(steps)), fmt.Sprintf("%.1f", median(walls)), fmt.Sprintf("%.1f", median(cpus)),
			fmt.Sprintf("%d/%d", reached, len(po.Results)), verdict(ok))
	}
	tb.Flush()
	var notes []string
	for _, po := range outs {
		if n, ok := matrixNotes[po.Algo+"/"+po.Env]; ok {
			notes = append(notes, fmt.Sprintf("- %s on %s: %s.", po.Algo, po.Env, n))
		}
		for i, r := range po.Results {
			if r.Err != "" {
				notes = append(notes, fmt.Sprintf("- %s on %s, run %d: %s", po.Algo, po.Env, i, r.Err))
			}
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, strings.Join(notes, "\n"))
	}
}

// fmtSteps formats a step budget: 500k, 1M.
func fmtSteps(n int) string {
	switch {
	case n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

// machine describes the machine a matrix ran on: CPU model, cores, load
// average, BLAS and Go version.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores, %s/%s, %s, BLAS %s", model, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH,
		runtime.Version(), tensor.BLASName())
}

// loadAverage returns the 1-, 5- and 15-minute load averages, or "-"
// where the system does not report them.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "-"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "-"
	}
	return strings.Join(f[:3], " ")
}

func cmdBenchMatrix(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench matrix", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o matrixOptions
	fs.StringVar(&o.Only, "only", "", "run only this algorithm's pairs")
	fs.StringVar(&o.Env, "env", "", "run only this env's pairs")
	fs.IntVar(&o.Seeds, "seeds", 5, "number of seeds of each pair")
	fs.Uint64Var(&o.FirstSeed, "first-seed", 0, "first seed")
	fs.IntVar(&o.Jobs, "jobs", runtime.NumCPU(), "number of runs at a time (child processes when above 1)")
	fs.StringVar(&o.Out, "out", "", "also write the report (command, machine, table) to this file, e.g. LEARNING.md")
	fs.StringVar(&o.WorkDir, "workdir", defaultMatrixWorkDir(), "directory of the offline pairs' datasets, built once per setting and seed")
	plotFile := fs.String("plot", "", "also draw the interval estimates of the normalized returns into this .png or .svg file")
	job := fs.String("job", "", "run one job given as JSON and print its result (used by the parent process)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("bench matrix: unexpected arguments %q", fs.Args())
	}
	if *job != "" {
		var j matrixJob
		if err := strictDecode([]byte(*job), &j); err != nil {
			return fmt.Errorf("bench matrix --job: %w", err)
		}
		return json.NewEncoder(stdout).Encode(runMatrixJob(ctx, j))
	}
	if o.Seeds < 1 || o.Jobs < 1 {
		return fmt.Errorf("bench matrix: --seeds %d and --jobs %d must be at least 1", o.Seeds, o.Jobs)
	}
	if o.Only != "" {
		if _, err := lookupAlgorithm(o.Only); err != nil {
			return fmt.Errorf("bench matrix: %w", err)
		}
	}
	if o.Env != "" {
		if _, ok := env.Lookup(o.Env); !ok {
			return fmt.Errorf("bench matrix: unknown env %q (gorl list shows them)", o.Env)
		}
	}
	if *plotFile != "" {
		// Found out before the runs, not after them.
		if _, err := figure.FormatOf(*plotFile); err != nil {
			return fmt.Errorf("bench matrix --plot: %w", err)
		}
		if fi, err := os.Stat(filepath.Dir(*plotFile)); err != nil || !fi.IsDir() {
			return fmt.Errorf("bench matrix --plot: %s: no such directory", filepath.Dir(*plotFile))
		}
	}
	pairs, refused, err := matrixPairs(o.Only, o.Env)
	if err != nil {
		return fmt.Errorf("bench matrix: %w", err)
	}
	load0, start := loadAverage(), time.Now()
	outs, err := runMatrix(ctx, pairs, o, stderr)
	if err != nil {
		return err
	}
	total := time.Since(start)

	var rep bytes.Buffer
	fmt.Fprintf(&rep, "Command: `gorl bench matrix %s`\n\n", strings.Join(args, " "))
	fmt.Fprintf(&rep, "Machine: %s; load average (1, 5, 15 min) %s at the start, %s at the end; %d runs at a time.\n\n",
		machine(), load0, loadAverage(), o.Jobs)
	fmt.Fprintf(&rep, "Total wall time: %v for %d pairs × %d seeds; CPU time of the runs: %.0f s.\n\n",
		total.Round(time.Second), len(pairs), o.Seeds, totalCPU(outs).Seconds())
	writeMatrix(&rep, outs)
	writeMatrixScores(&rep, outs, o.FirstSeed, *plotFile, o.Out)
	writeMatrixData(&rep, matrixDataInfos(pairs, o))
	if len(refused) > 0 {
		fmt.Fprintln(&rep, "\nPairs that do not apply:")
		fmt.Fprintln(&rep)
		for _, r := range refused {
			fmt.Fprintln(&rep, "- "+r)
		}
	}
	if _, err := stdout.Write(rep.Bytes()); err != nil {
		return err
	}
	if o.Out != "" {
		doc := append([]byte(learningHeader), rep.Bytes()...)
		// The findings, written by hand below the table, stay.
		if old, err := os.ReadFile(o.Out); err == nil {
			if i := bytes.Index(old, []byte("\n"+findingsHeading)); i >= 0 {
				doc = append(append(doc, '\n'), old[i+1:]...)
			}
		}
		if err := os.WriteFile(o.Out, doc, 0o644); err != nil {
			return err
		}
	}
	var unmet []string
	for _, po := range outs {
		if _, ok := po.met(); !ok {
			unmet = append(unmet, po.Algo+" on "+po.Env)
		}
	}
	if len(unmet) > 0 {
		return fmt.Errorf("%w: %s", errNotLearned, strings.Join(unmet, ", "))
	}
	return nil
}

// findingsHeading starts the part of the report file written by hand,
// which a new run keeps.
const findingsHeading = "## Findings"

// learningHeader opens LEARNING.md, ahead of the report.
const learningHeader = `# Learning matrix

Every registered algorithm on every env whose spaces it accepts, with the
pair's preset (` + "`gorl list --presets`" + `; "defaults" where it has none), on 5
seeds, written by ` + "`gorl bench matrix --out LEARNING.md`" + `.

- The bar is rl-baselines3-zoo's benchmark score (SB3 with tuned
  hyperparameters, one run, deterministic evaluation) minus one of its
  standard deviations, within its training steps; where rl-zoo has no row,
  Gymnasium's reward threshold, or Tianshou's test threshold (Pendulum
  −250), within 1M steps.
- Each run stops at its first test whose mean return reaches the bar
  (deterministic policy: the mode of an actor's distribution, DQN without
  ε; at least 10 episodes, the preset's number when larger), or when the
  bar's steps are spent. The return per seed is that test's mean, or the
  best test's when the bar was not reached (marked ✗).
- A pair meets its bar when it reaches it on at least 4 of 5 seeds. IQM is
  the mean of the middle values (the lowest and highest ⌊n/4⌋ dropped).
- Env steps count training and prefill steps, not test episodes.
- What was found about the pairs is written by hand under "Findings",
  which a new run keeps.

`
