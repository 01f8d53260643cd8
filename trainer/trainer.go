package trainer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/logger"
	"github.com/gorl/gorl/policy"
)

// Setup holds what a training run works with besides its numbers: the
// envs, the buffer, the seed, where statistics and checkpoints go, and
// hooks. A zero field is "none" unless its comment says otherwise.
type Setup struct {
	// TrainEnvs are the envs training data is collected from, one
	// sub-buffer of Buffer each. The trainer owns them from New on (Close
	// closes them). The offline trainer has none.
	TrainEnvs []env.Env
	// TestEnvs are the envs of the test episodes (owned likewise).
	// Required when Config.TestEpisodes > 0.
	TestEnvs []env.Env
	// Vector configures the vector envs the trainer makes of TrainEnvs and
	// TestEnvs: Async runs each env in a goroutine of its own instead of
	// one after the other (faster for cheap envs), StepTimeout fails a run
	// whose env does not return, AllowNonFinite accepts NaN and ±Inf from
	// the envs.
	Vector vector.Config
	// Buffer receives the training transitions (off-policy: the replay
	// buffer, with at least len(TrainEnvs) sub-buffers; on-policy: the
	// collection, reset after each update, by default a buffer.Vector that
	// holds one collection of StepPerCollect steps) or holds the data of
	// the offline trainer. After Restore the trainer works with the buffer
	// loaded from the checkpoint: see Trainer.Buffer.
	Buffer buffer.Buffer
	// Seed seeds the envs (train env i with Seed+i, test env i with
	// Seed+len(TrainEnvs)+i) and the trainer's random source (sampling,
	// random actions), so that a seed reproduces a run.
	Seed uint64
	// Logger receives training ("train"), update ("update") and test
	// ("test") statistics at the number of env steps (gradient steps for
	// the offline trainer). The trainer does not close it.
	Logger Logger
	// Progress, if set, draws a progress line per epoch.
	Progress *logger.Progress
	// Checkpoint is the path of the checkpoint file written at the end of
	// every epoch (replaced atomically); "" writes none. See Restore.
	Checkpoint string
	// SaveBest is called with the policy whenever a test reaches a mean
	// return above every earlier one (Tianshou's save_best_fn).
	SaveBest func(p policy.Policy, meanReturn float64) error
	// Stop, if set, replaces Config.RewardThreshold as the stop criterion:
	// it receives a mean test (or, for test-in-train, training) return.
	Stop func(meanReturn float64) bool
	// TrainHook and TestHook are called before every training collection
	// and before every test (Tianshou's train_fn and test_fn), with the
	// epoch and the number of training env steps so far.
	TrainHook, TestHook func(epoch int, envSteps int64)
	// OnEpoch is called at the end of every epoch, after its test.
	OnEpoch func(EpochStats)
	// Actor is the collecting algorithm of the overlapped mode
	// (Config.Overlap): a second algorithm made with the same
	// configuration as the trained one (the same type, a policy of the
	// same parameters). Its policy collects the training data and receives
	// the trained policy's parameters at every synchronisation; it is
	// told the env steps when a Scheduled algorithm would be. Nothing else
	// of it is used; its state is saved in checkpoints.
	Actor algo.Algorithm
}

// Logger is what a trainer needs of a logger: every logger.Logger is one.
type Logger interface {
	// Log records values under scope at step (logger.Logger.Log).
	Log(scope string, step int64, values map[string]float64) error
}

// EpochStats describes a finished epoch.
type EpochStats struct {
	Epoch         int
	EnvSteps      int64 // training env steps so far
	GradientSteps int64 // updates so far
	// TrainReturn is the mean return of the training episodes that ended
	// during the epoch (NaN if none did).
	TrainReturn float64
	// TestReturn and TestStd summarize the epoch's test episodes (NaN
	// without tests).
	TestReturn, TestStd float64
	// BestReturn is the best mean test return so far, reached at BestEpoch.
	BestReturn float64
	BestEpoch  int
	Duration   time.Duration
}

// Result describes a training run.
type Result struct {
	// Epochs is the number of epochs run (with those of the checkpoint a
	// run resumed from).
	Epochs int
	// EnvSteps counts the training env steps (without the prefill),
	// GradientSteps the updates (Learner steps), Episodes the finished
	// training episodes.
	EnvSteps, GradientSteps, Episodes int64
	// PrefillSteps counts the env steps collected before training.
	PrefillSteps int64
	// BestReturn and BestStd are the best mean test return and its
	// standard deviation, reached at BestEpoch (0: the test before
	// training).
	BestReturn, BestStd float64
	BestEpoch           int
	// Solved reports that the stop criterion was met.
	Solved bool
	// Tests counts the test runs.
	Tests int
	// Duration is the wall-clock time of Run; CollectTime, UpdateTime and
	// TestTime the time spent collecting training data, updating, and
	// testing.
	Duration, CollectTime, UpdateTime, TestTime time.Duration
}

// kind is what differs between the training loops, Tianshou's
// OffPolicyTrainer (offpolicy.go), OnPolicyTrainer (onpolicy.go) and
// OfflineTrainer (offline.go); Trainer runs the loop they share.
type kind interface {
	// String names the trainer in errors ("off-policy").
	String() string
	// check validates the Config and Setup for this loop, after New's
	// shared checks, and may set the trainer's buffer.
	check(t *Trainer) error
	// prefill collects the data of a fresh run before its first test.
	prefill(ctx context.Context, t *Trainer) error
	// epoch runs epoch's collections and updates.
	epoch(ctx context.Context, t *Trainer, epoch int) error
	// step returns the step statistics are logged at: env steps, or
	// gradient steps for a trainer without envs.
	step(t *Trainer) int64
}

// online is the update of a trainer that collects: the learning part of
// an epoch of collectEpoch.
type online interface {
	// update learns after a collection of cs.Steps env steps.
	update(ctx context.Context, t *Trainer, cs collector.Stats) error
}

// Trainer runs the training loop of an algorithm: Tianshou's
// OffPolicyTrainer, OnPolicyTrainer and OfflineTrainer, chosen by New from
// the algorithm and the setup.
//
// A Trainer is driven by one goroutine.
type Trainer struct {
	cfg   Config
	setup Setup
	kind  kind
	alg   algo.Algorithm
	pol   policy.Policy
	buf   buffer.Buffer

	trainVec, testVec vector.Env
	train, test       *collector.Collector

	src     *rand.PCG
	rng     *rand.Rand
	learner algo.Learner
	st      state
	ov      *overlap // the overlapped mode's state, nil without it

	epochRet   float64 // sum of the epoch's training returns
	epochN     int
	lastUpdate map[string]float64
	logVals    map[string]float64
	res        Result
}

// state is the trainer's part of a checkpoint.
type state struct {
	Epoch     int     `json:"epoch"` // epochs completed
	EnvSteps  int64   `json:"env_steps"`
	GradSteps int64   `json:"gradient_steps"`
	Episodes  int64   `json:"episodes"`
	Prefill   int64   `json:"prefill_steps"`
	Best      float64 `json:"best_return"`
	BestStd   float64 `json:"best_std"`
	BestEpoch int     `json:"best_epoch"`
	HaveBest  bool    `json:"have_best"`
	Started   bool    `json:"started"` // prefill and first test done
	Solved    bool    `json:"solved"`
	Tests     int     `json:"tests"`
	NextLog   int64   `json:"next_log"`
}

// New returns a trainer for alg: the on-policy trainer if alg is an
// algo.OnPolicy; otherwise, for an algo.OffPolicy, the off-policy trainer
// when s has training envs and the offline trainer (learning from
// s.Buffer alone) when it has none. The trainer owns s's envs from then on.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an algorithm
// of neither kind, and a setup the loop cannot run with: no buffer for the
// off-policy or offline trainer (or an empty one for the offline trainer),
// a buffer with fewer sub-buffers than training envs, no test envs for test
// episodes, or a collection size missing or given twice. It returns the
// errors of the vector envs and collectors it builds.
func New(alg algo.Algorithm, cfg Config, s Setup) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	t := &Trainer{cfg: cfg, setup: s, alg: alg, pol: alg.Policy(), buf: s.Buffer,
		lastUpdate: map[string]float64{}, logVals: map[string]float64{}}
	bad := func(format string, args ...any) (*Trainer, error) {
		return nil, configError(format, args...)
	}
	switch a := alg.(type) {
	case algo.OnPolicy:
		t.kind = &onPolicy{alg: a}
	case algo.OffPolicy:
		if len(s.TrainEnvs) == 0 {
			t.kind = &offline{alg: a}
		} else {
			t.kind = &offPolicy{alg: a}
		}
	default:
		return bad("%T is neither an algo.OnPolicy nor an algo.OffPolicy", alg)
	}
	if err := t.kind.check(t); err != nil {
		return nil, err
	}
	if cfg.Overlap {
		if _, ok := t.kind.(*offPolicy); !ok {
			return bad("overlap needs the off-policy trainer, not the %v one", t.kind)
		}
		var err error
		if t.ov, err = newOverlap(alg, s, cfg.OverlapSync); err != nil {
			return nil, err
		}
	}
	if cfg.TestEpisodes > 0 && len(s.TestEnvs) == 0 {
		return bad("%d test episodes need test envs", cfg.TestEpisodes)
	}
	t.src = rand.NewPCG(s.Seed, 0x5eed)
	t.rng = rand.New(t.src)
	var err error
	if len(s.TrainEnvs) > 0 {
		if t.trainVec, err = t.vector(s.TrainEnvs); err != nil {
			return nil, err
		}
		if err := t.newTrainCollector(); err != nil {
			t.Close()
			return nil, err
		}
	}
	if cfg.TestEpisodes == 0 {
		// No tests: the test envs, owned from here on, are not needed.
		for _, e := range s.TestEnvs {
			e.Close()
		}
	} else {
		if t.testVec, err = t.vector(s.TestEnvs); err != nil {
			t.Close()
			return nil, err
		}
		t.test, err = collector.New(collector.Config{Env: t.testVec, Policy: t.pol, Explore: cfg.TestExploration, Rand: t.rng})
		if err != nil {
			t.Close()
			return nil, err
		}
	}
	return t, nil
}

// configError returns an error wrapping ErrConfig.
func configError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

// checkCollect checks what the trainers that collect need: training envs
// and one collection size.
func (t *Trainer) checkCollect() error {
	if len(t.setup.TrainEnvs) == 0 {
		return configError("the %v trainer needs training envs", t.kind)
	}
	if (t.cfg.StepPerCollect > 0) == (t.cfg.EpisodePerCollect > 0) {
		return configError("set exactly one of step_per_collect (%d) and episode_per_collect (%d)", t.cfg.StepPerCollect, t.cfg.EpisodePerCollect)
	}
	return nil
}

func (t *Trainer) vector(envs []env.Env) (vector.Env, error) {
	return vector.New(envs, t.setup.Vector)
}

func (t *Trainer) newTrainCollector() error {
	cfg := collector.Config{Env: t.trainVec, Policy: t.pol, Buffer: t.buf, Explore: true, Rand: t.rng}
	if t.ov != nil {
		t.ov.stage.buf = t.buf
		cfg.Policy, cfg.Buffer, cfg.Rand = t.ov.actor.Policy(), &t.ov.stage, t.ov.rng
	}
	c, err := collector.New(cfg)
	if err != nil {
		return err
	}
	t.train = c
	return nil
}

// Buffer returns the buffer the trainer works with: Setup.Buffer, the one
// it made, or the one loaded by Restore.
func (t *Trainer) Buffer() buffer.Buffer { return t.buf }

// Close closes the trainer's vector envs and, with them, the envs. It may be
// called more than once.
func (t *Trainer) Close() error {
	var errs []error
	for _, v := range []vector.Env{t.trainVec, t.testVec} {
		if v != nil {
			errs = append(errs, v.Close())
		}
	}
	return errors.Join(errs...)
}

// stop applies the stop criterion to a mean return.
func (t *Trainer) stop(mean float64) bool {
	if t.setup.Stop != nil {
		return t.setup.Stop(mean)
	}
	return t.cfg.RewardThreshold != nil && mean >= *t.cfg.RewardThreshold
}

func seeds(base uint64, n int) []env.Seed {
	s := make([]env.Seed, n)
	for i := range s {
		s[i] = env.SeedOf(base + uint64(i))
	}
	return s
}

// Run trains until the stop criterion is met or Config.Epochs epochs are
// done, and returns the run's statistics. Before the first epoch of a fresh
// run it seeds and resets the envs, collects the prefill and runs a test;
// a run restored from a checkpoint continues with the epoch after it.
//
// Run returns the first error of the envs, collectors, algorithm, logger,
// hooks or checkpoint, or ctx's error, with the statistics so far.
func (t *Trainer) Run(ctx context.Context) (res Result, err error) {
	start := time.Now()
	t.res = Result{}
	defer func() {
		t.res.Duration = time.Since(start)
		t.res.Epochs, t.res.EnvSteps, t.res.GradientSteps = t.st.Epoch, t.st.EnvSteps, t.st.GradSteps
		t.res.Episodes, t.res.PrefillSteps, t.res.Solved, t.res.Tests = t.st.Episodes, t.st.Prefill, t.st.Solved, t.st.Tests
		t.res.BestReturn, t.res.BestStd, t.res.BestEpoch = t.st.Best, t.st.BestStd, t.st.BestEpoch
		res = t.res
	}()
	if !t.st.Started {
		if err := t.begin(ctx); err != nil {
			return t.res, err
		}
	}
	for !t.st.Solved && t.st.Epoch < t.cfg.Epochs {
		epoch := t.st.Epoch + 1
		eStart := time.Now()
		t.epochRet, t.epochN = 0, 0
		if t.setup.Progress != nil {
			if err := t.setup.Progress.Start(epoch, int64(t.cfg.StepPerEpoch)); err != nil {
				return t.res, err
			}
		}
		err := t.kind.epoch(ctx, t, epoch)
		if t.setup.Progress != nil {
			if perr := t.setup.Progress.End(); err == nil {
				err = perr
			}
		}
		if err != nil {
			return t.res, err
		}
		es := EpochStats{Epoch: epoch, EnvSteps: t.st.EnvSteps, GradientSteps: t.st.GradSteps,
			TrainReturn: math.NaN(), TestReturn: math.NaN(), TestStd: math.NaN()}
		if t.epochN > 0 {
			es.TrainReturn = t.epochRet / float64(t.epochN)
		}
		if !t.st.Solved && t.test != nil {
			mean, std, err := t.runTest(ctx, epoch)
			if err != nil {
				return t.res, err
			}
			es.TestReturn, es.TestStd = mean, std
			if t.stop(mean) {
				t.st.Solved = true
			}
		}
		t.st.Epoch = epoch
		es.BestReturn, es.BestEpoch, es.Duration = t.st.Best, t.st.BestEpoch, time.Since(eStart)
		if t.setup.Checkpoint != "" {
			if err := t.save(t.setup.Checkpoint); err != nil {
				return t.res, err
			}
		}
		if t.setup.OnEpoch != nil {
			t.setup.OnEpoch(es)
		}
	}
	return t.res, nil
}

// begin seeds and resets the envs, collects the prefill and runs the first
// test, which never stops the run.
func (t *Trainer) begin(ctx context.Context) error {
	nTrain := len(t.setup.TrainEnvs)
	if t.train != nil {
		if err := t.train.Reset(ctx, seeds(t.setup.Seed, nTrain)); err != nil {
			return err
		}
	}
	if t.test != nil {
		if err := t.test.Reset(ctx, seeds(t.setup.Seed+uint64(nTrain), len(t.setup.TestEnvs))); err != nil {
			return err
		}
	}
	if err := t.kind.prefill(ctx, t); err != nil {
		return err
	}
	if t.test != nil {
		// The first test only sets the best policy so far: as in Tianshou,
		// training runs even when the untrained policy already meets the
		// stop criterion (an untrained greedy policy sometimes balances
		// CartPole), so a solved run always learned something.
		if _, _, err := t.runTest(ctx, 0); err != nil {
			return err
		}
	}
	t.st.Started = true
	t.st.NextLog = int64(t.cfg.LogInterval)
	return nil
}

// schedule tells a Scheduled algorithm the number of env steps so far.
func (t *Trainer) schedule() {
	if s, ok := t.alg.(algo.Scheduled); ok {
		s.Schedule(t.st.EnvSteps)
	}
}

// collectEpoch runs one epoch of a trainer that collects (off-policy,
// on-policy): collections of training data, each followed by u's update,
// until the epoch has StepPerEpoch env steps.
func (t *Trainer) collectEpoch(ctx context.Context, epoch int, u online) error {
	var done int64
	grad0 := t.st.GradSteps
	for done < int64(t.cfg.StepPerEpoch) {
		if t.setup.TrainHook != nil {
			t.setup.TrainHook(epoch, t.st.EnvSteps)
		}
		t.schedule()
		t.pol.SetTrainingStep(true)
		cs, err := t.train.Collect(ctx, collector.Request{NStep: t.cfg.StepPerCollect, NEpisode: t.cfg.EpisodePerCollect})
		t.res.CollectTime += cs.Duration
		t.st.EnvSteps += int64(cs.Steps)
		done += int64(cs.Steps)
		if err != nil {
			return err
		}
		if solved, err := t.collected(ctx, epoch, cs, done); solved || err != nil {
			return err
		}
		uStart := time.Now()
		if err := u.update(ctx, t, cs); err != nil {
			return err
		}
		t.res.UpdateTime += time.Since(uStart)
		if t.setup.Progress != nil {
			t.setup.Progress.SetUpdates(t.st.GradSteps - grad0)
		}
		if err := t.maybeLog(cs); err != nil {
			return err
		}
	}
	return nil
}

// collected shows a collection's training episodes in the progress display
// (done env steps into the epoch) and, with TestInTrain, runs a test once
// their mean reaches the stop; it reports whether that test solved the run.
func (t *Trainer) collected(ctx context.Context, epoch int, cs collector.Stats, done int64) (bool, error) {
	mean, n := t.episodes(cs)
	if t.setup.Progress != nil {
		if err := t.setup.Progress.Update(done, t.lastTrainMean(mean, n)); err != nil {
			return false, err
		}
	}
	if t.cfg.TestInTrain && t.test != nil && n > 0 && t.stop(mean) {
		tm, _, err := t.runTest(ctx, epoch)
		if err != nil {
			return false, err
		}
		if t.stop(tm) {
			t.st.Solved = true
			return true, nil
		}
	}
	return false, nil
}

// episodes counts the training episodes a collection finished and returns
// their mean return and number.
func (t *Trainer) episodes(cs collector.Stats) (float64, int) {
	sum := 0.0
	for _, r := range cs.Returns {
		sum += r
	}
	n := len(cs.Returns)
	t.st.Episodes += int64(n)
	t.epochRet += sum
	t.epochN += n
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}

func (t *Trainer) lastTrainMean(mean float64, n int) float64 {
	if n > 0 || t.epochN == 0 {
		return mean
	}
	return t.epochRet / float64(t.epochN)
}

func (t *Trainer) keepUpdate(stats map[string]float64) error {
	for k, v := range stats {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return t.nonFinite(stats)
		}
		t.lastUpdate[k] = v
	}
	return nil
}

// nonFinite returns the error that stops a run whose update gave non-finite
// statistics: it names the update, the statistics and the last checkpoint.
func (t *Trainer) nonFinite(stats map[string]float64) error {
	var bad []string
	for _, k := range slices.Sorted(maps.Keys(stats)) {
		if v := stats[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, fmt.Sprintf("%s %v", k, v))
		}
	}
	last := "no checkpoint has been written yet"
	if t.setup.Checkpoint != "" && t.st.Epoch > 0 {
		last = fmt.Sprintf("the last checkpoint, %s, holds epoch %d", t.setup.Checkpoint, t.st.Epoch)
	}
	return fmt.Errorf("%w: update %d in epoch %d (%d env steps) gave %s; the learning diverged (a learning rate too high?); %s",
		ErrNonFinite, t.st.GradSteps, t.st.Epoch+1, t.st.EnvSteps, strings.Join(bad, ", "), last)
}

// maybeLog logs training and update statistics every LogInterval env steps.
func (t *Trainer) maybeLog(cs collector.Stats) error {
	if t.setup.Logger == nil || t.st.EnvSteps < t.st.NextLog {
		return nil
	}
	for t.st.NextLog <= t.st.EnvSteps {
		t.st.NextLog += int64(t.cfg.LogInterval)
	}
	clear(t.logVals)
	t.logVals["episodes"] = float64(t.st.Episodes)
	t.logVals["steps_per_second"] = cs.StepsPerSecond
	if t.epochN > 0 {
		t.logVals["return_mean"] = t.epochRet / float64(t.epochN)
	}
	if err := t.log("train", t.st.EnvSteps, t.logVals); err != nil {
		return err
	}
	return t.log("update", t.st.EnvSteps, t.lastUpdate)
}

func (t *Trainer) log(scope string, step int64, vals map[string]float64) error {
	if t.setup.Logger == nil || len(vals) == 0 {
		return nil
	}
	return t.setup.Logger.Log(scope, step, vals)
}

// runTest runs the test episodes with the training-step flag off, logs
// them, and keeps the best mean return (calling SaveBest).
func (t *Trainer) runTest(ctx context.Context, epoch int) (mean, std float64, err error) {
	if t.setup.TestHook != nil {
		t.setup.TestHook(epoch, t.st.EnvSteps)
	}
	was := t.pol.TrainingStep()
	t.pol.SetTrainingStep(false)
	cs, err := t.test.Collect(ctx, collector.Request{NEpisode: t.cfg.TestEpisodes, ResetBeforeCollect: true})
	t.pol.SetTrainingStep(was)
	t.res.TestTime += cs.Duration
	if err != nil {
		return 0, 0, err
	}
	t.st.Tests++
	mean, std = cs.Return.Mean, cs.Return.Std
	if !t.st.HaveBest || mean > t.st.Best {
		t.st.Best, t.st.BestStd, t.st.BestEpoch, t.st.HaveBest = mean, std, epoch, true
		if t.setup.SaveBest != nil {
			if err := t.setup.SaveBest(t.pol, mean); err != nil {
				return 0, 0, fmt.Errorf("trainer: saving the best policy: %w", err)
			}
		}
	}
	if t.setup.Progress != nil {
		t.setup.Progress.SetTest(mean, t.st.Best)
	}
	clear(t.logVals)
	t.logVals["return_mean"], t.logVals["return_std"] = mean, std
	t.logVals["length_mean"] = cs.Len.Mean
	t.logVals["best_return"] = t.st.Best
	t.logVals["epoch"] = float64(epoch)
	return mean, std, t.log("test", t.kind.step(t), t.logVals)
}
