package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/logger"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
	"github.com/gorl/gorl/tensor"
	"github.com/gorl/gorl/trainer"
)

// The files of a run directory.
const (
	configFile     = "config.json"
	logFile        = "log.jsonl"
	bestFile       = "best.gorl"
	lastFile       = "last.gorl"
	checkpointFile = "checkpoint.gorl"
)

func cmdTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if distributedArgs(args) {
		return cmdTrainDistributed(ctx, "train", args, stdout, stderr)
	}
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	algoName := fs.String("algo", "dqn", "algorithm (gorl list shows them)")
	envID := fs.String("env", "CartPole-v1", "env id (gorl list shows them)")
	seed := fs.Uint64("seed", 0, "random seed of the run (envs, weights, sampling)")
	cfgPath := fs.String("config", "", "JSON configuration file (a config.json of an earlier run, or part of one)")
	logdir := fs.String("logdir", "", "run directory for config.json, logs, checkpoint and policies (default runs/ALGO-ENV-TIME)")
	var sets multiFlag
	fs.Var(&sets, "set", "override one setting, path=value with a dotted JSON path, e.g. trainer.epochs=5 or algorithm.gamma=0.99 (repeatable)")
	dataset := fs.String("dataset", "", "dataset an offline algorithm learns from: a buffer file (buffer's Save, gorl collect) or a D4RL-layout HDF5 file")
	resume := fs.Bool("resume", false, "continue the run in --logdir from its checkpoint")
	overwrite := fs.Bool("overwrite", false, "replace the run already in --logdir (its config, logs, checkpoint and policies) with a new one")
	quiet := fs.Bool("quiet", false, "no progress line")
	dash := fs.Bool("dashboard", false, "serve the dashboard of the run and those beside it on "+dashboardAddr+" (or a free port) while it trains")
	noPlot := fs.Bool("no-plot", false, "do not draw the learning curve into the run directory's "+curveFile+" when the run ends")
	selfplay := fs.Bool("selfplay", false, "train dqn by self-play on a two-player multi-agent env (TicTacToe-v0) against the random player and past copies of itself; --set paths are those of its config.json")
	verbose := fs.Bool("verbose", false, "print the stack of an env's panic to the standard error too (it is always written to the run's "+errorLogFile+")")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("train: unexpected arguments %q", fs.Args())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *selfplay {
		return trainSelfPlay(ctx, *algoName, *envID, *seed, *logdir, sets, *quiet, stdout, stderr)
	}

	file, release, err := openConfig("train", *logdir, *cfgPath, *resume, *overwrite, algoName, envID, given)
	if err != nil {
		return err
	}
	defer release()
	rc, acfg, err := resolve(*algoName, *envID, file, sets)
	if err != nil {
		return err
	}
	if given["seed"] {
		rc.Seed = *seed
	}
	if given["dataset"] {
		rc.Dataset = *dataset
	}
	data, err := loadDataset(rc, acfg)
	if err != nil {
		return err
	}
	if err := validateRun(rc, acfg, data); err != nil {
		return err
	}
	var changes map[string]change
	if *resume {
		old, _, err := resolve(rc.Algo, rc.Env, file, nil)
		if err != nil {
			return err
		}
		if changes, err = resumeChanges(old, rc); err != nil {
			return err
		}
	} else {
		if *logdir == "" {
			*logdir = filepath.Join("runs", fmt.Sprintf("%s-%s-%s", rc.Algo, rc.Env, time.Now().Format("20060102-150405")))
		}
		release, err := openRun(*logdir, false, *overwrite)
		if err != nil {
			return err
		}
		defer release()
	}
	// config.json describes the run: written when it starts, and again
	// when a resume changes a setting (resumes.jsonl records the change).
	writeConfig := func() error {
		cj, err := json.MarshalIndent(rc, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(*logdir, configFile), append(cj, '\n'), 0o644)
	}
	if !*resume {
		if err := writeConfig(); err != nil {
			return err
		}
	}
	if *dash {
		stop, err := startTrainDashboard(*logdir, stdout)
		if err != nil {
			return err
		}
		defer stop()
	}

	tb, err := logger.NewTensorBoard(logger.TensorBoardConfig{Dir: *logdir})
	if err != nil {
		return err
	}
	jf, err := os.OpenFile(filepath.Join(*logdir, logFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer jf.Close()
	lg := logger.Multi{tb, logger.NewJSONL(jf)}
	defer lg.Close()

	var s *session
	setup := trainer.Setup{
		Logger:     lg,
		Checkpoint: filepath.Join(*logdir, checkpointFile),
		SaveBest: func(p policy.Policy, mean float64) error {
			return savePolicy(filepath.Join(*logdir, bestFile), rc, p, s.norm)
		},
	}
	if !*quiet {
		setup.Progress = logger.NewProgress(stderr, logger.ProgressConfig{Epochs: rc.Trainer.Epochs, Plain: !isTerminal(stderr)})
	}
	var ckpt checkpointState
	setup.OnEpoch = func(e trainer.EpochStats) {
		ckpt = checkpointState{ok: true, epoch: e.Epoch, envSteps: e.EnvSteps, gradSteps: e.GradientSteps}
		test := meanStd(e.TestReturn, e.TestStd)
		if math.IsNaN(e.TestReturn) && e.BestEpoch == e.Epoch {
			test = "not run (the test during training reached the stop)"
		}
		summary := fmt.Sprintf("test return %s, best %.1f (epoch %d)", test, e.BestReturn, e.BestEpoch)
		if rc.Trainer.TestEpisodes == 0 {
			summary = "no tests (trainer.test_episodes=0)"
		}
		fmt.Fprintf(stdout, "epoch %d: %s; %d env steps, %d updates, %v\n",
			e.Epoch, summary, e.EnvSteps, e.GradientSteps, e.Duration.Round(time.Millisecond))
		saved := []string{lastFile}
		if rc.Trainer.TestEpisodes == 0 {
			saved = append(saved, bestFile) // no tests: the best policy is the last
		}
		for _, f := range saved {
			if err := savePolicy(filepath.Join(*logdir, f), rc, s.alg.Policy(), s.norm); err != nil {
				fmt.Fprintln(stderr, "gorl: saving the policy:", err)
			}
		}
	}
	if s, err = newSession(rc, acfg, data, setup); err != nil {
		return err
	}
	defer s.tr.Close()
	if *resume {
		if ckpt, err = resumeRun(ctx, s, *logdir, tb.Path(), changes, stdout); err != nil {
			return err
		}
		if len(changes) > 0 {
			if err := writeConfig(); err != nil {
				return err
			}
		}
	}
	stopAt := "none"
	if t := rc.Trainer.RewardThreshold; t != nil {
		stopAt = fmt.Sprintf("mean test return ≥ %v", *t)
	}
	fmt.Fprintf(stdout, "training %s on %s (seed %d, %d+%d envs, stop at %s, BLAS %s) in %s\n",
		rc.Algo, rc.Env, rc.Seed, rc.TrainEnvs, rc.TestEnvs, stopAt, tensor.BLASName(), *logdir)
	res, err := s.tr.Run(ctx)
	if !*noPlot {
		// The curve of a run that failed is drawn too, if it logged
		// enough; only a finished run's failure to draw is reported.
		if perr := writeRunCurve(*logdir); perr != nil && err == nil {
			fmt.Fprintln(stderr, "gorl: drawing the learning curve:", perr)
		}
	}
	if err != nil {
		if context.Cause(ctx) == errInterrupted {
			reportInterrupt(stderr, *logdir, res.Epochs+1, res.EnvSteps, res.GradientSteps, ckpt)
			return errInterrupted
		}
		return withEnvStack(*logdir, err, *verbose, stderr)
	}
	status := "not solved"
	if res.Solved {
		status = "solved"
	}
	best := fmt.Sprintf("best test return %s at epoch %d", meanStd(res.BestReturn, res.BestStd), res.BestEpoch)
	if rc.Trainer.TestEpisodes == 0 {
		status, best = "done", "no tests (trainer.test_episodes=0), the best policy is the last"
	}
	fmt.Fprintf(stdout, "%s: %s; %d env steps (+%d prefill), %d updates, %d epochs in %v\n",
		status, best, res.EnvSteps, res.PrefillSteps, res.GradientSteps, res.Epochs, res.Duration.Round(time.Millisecond))
	fmt.Fprintf(stdout, "best policy: %s\n", filepath.Join(*logdir, bestFile))
	if !*noPlot {
		fmt.Fprintf(stdout, "learning curve: %s\n", filepath.Join(*logdir, curveFile))
	}
	return nil
}

func meanStd(mean, std float64) string {
	if math.IsNaN(mean) {
		return "-"
	}
	return fmt.Sprintf("%.1f ± %.1f", mean, std)
}

// savePolicy writes a policy file (policyfile.Write): the run's
// configuration, the policy's parameters and the normalization statistics
// of norm (nil for none), replacing path atomically.
func savePolicy(path string, rc RunConfig, p policy.Policy, norm *env.Normalizer) error {
	return writeAtomic(path, func(w io.Writer) error { return policyfile.Write(w, &rc, p, norm) })
}

// loadPolicy reads a policy file (policyfile.LoadFile): it builds the
// algorithm its configuration describes, loads the policy's parameters into
// it, and returns the normalization statistics (nil without normalization).
func loadPolicy(path string) (RunConfig, policy.Policy, *env.Normalizer, error) {
	var rc RunConfig
	f, err := policyfile.LoadFile(path, func(h policyfile.Header) (policy.Policy, error) {
		if _, ok := distAlgos[h.Algo]; ok {
			var p policy.Policy
			var err error
			rc, p, err = distPolicy(h.Run)
			return p, err
		}
		if err := strictDecode(h.Run, &rc); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		acfg, err := configOf(rc)
		if err != nil {
			return nil, err
		}
		alg, err := newAlgorithm(rc, acfg)
		if err != nil {
			return nil, err
		}
		return alg.Policy(), nil
	})
	if err != nil {
		return RunConfig{}, nil, nil, err
	}
	if rc.Normalize == nil || !rc.Normalize.Enabled() {
		return rc, f.Policy, nil, nil
	}
	size, err := obsSize(rc.Env)
	if err != nil {
		return RunConfig{}, nil, nil, err
	}
	norm, err := f.Normalizer(size)
	if err != nil {
		return RunConfig{}, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rc, f.Policy, norm, nil
}

// openConfig reads the configuration of a train, learner or actor command:
// with resume, it locks the run in logdir (release unlocks it) and reads
// its config.json, checking that the command line agrees with it;
// otherwise it reads cfgPath, if given. The file's algo and env fill those
// the command line did not give. file is nil without a configuration.
func openConfig(command, logdir, cfgPath string, resume, overwrite bool, algoName, envID *string, given map[string]bool) (file []byte, release func(), err error) {
	release = func() {}
	if resume {
		if logdir == "" {
			return nil, release, fmt.Errorf("%s: --resume needs --logdir", command)
		}
		if overwrite {
			return nil, release, fmt.Errorf("%s: --resume continues the run in --logdir, --overwrite replaces it: give one", command)
		}
		if release, err = openRun(logdir, true, false); err != nil {
			return nil, func() {}, err
		}
		cfgPath = filepath.Join(logdir, configFile)
	}
	if cfgPath == "" {
		return nil, release, nil
	}
	fail := func(err error) ([]byte, func(), error) {
		release()
		return nil, func() {}, err
	}
	if file, err = os.ReadFile(cfgPath); err != nil {
		return fail(err)
	}
	var head struct {
		Algo string `json:"algo"`
		Env  string `json:"env"`
	}
	if err := json.Unmarshal(file, &head); err != nil {
		return fail(fmt.Errorf("%s: %w", cfgPath, err))
	}
	if resume {
		if err := checkResumeHead(logdir, head.Algo, head.Env, *algoName, *envID, given); err != nil {
			return fail(err)
		}
	}
	if head.Algo != "" && !given["algo"] {
		*algoName = head.Algo
	}
	if head.Env != "" && !given["env"] {
		*envID = head.Env
	}
	return file, release, nil
}
