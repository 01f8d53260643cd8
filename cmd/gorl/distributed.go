package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/logger"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
)

// distRun is the configuration of a distributed run, its run directory's
// config.json.
type distRun struct {
	Algo  string `json:"algo"`
	Env   string `json:"env"`
	Seed  uint64 `json:"seed"`
	Group string `json:"group"`
	// MaxUpdates ends the run after that many updates.
	MaxUpdates int64 `json:"max_updates"`
	// RewardThreshold ends the run at a mean test return at least this
	// high; default the env's (env.Spec.StopThreshold).
	RewardThreshold *float64 `json:"reward_threshold"`
	// TestEvery is the number of updates between two tests of the
	// learner's policy, each followed by a checkpoint.
	TestEvery    int64           `json:"test_every"`
	TestEpisodes int             `json:"test_episodes"`
	Algorithm    json.RawMessage `json:"algorithm"`
}

// distMutable lists the settings a resumed distributed run may change:
// when it stops and how it is tested.
var distMutable = []string{"max_updates", "reward_threshold", "test_every", "test_episodes"}

// defaultGroup names the subjects of a run unless --group says otherwise.
const defaultGroup = "gorl"

// distDefaults returns the defaults of a distributed run of algoName on
// envID and its algorithm's configuration.
func distDefaults(algoName, envID string) (distRun, distConfig, error) {
	da, ok := distAlgos[algoName]
	if !ok {
		return distRun{}, nil, fmt.Errorf("unknown distributed algorithm %q (%s)", algoName, strings.Join(slices.Sorted(maps.Keys(distAlgos)), ", "))
	}
	r := distRun{Algo: algoName, Env: envID, Group: defaultGroup, MaxUpdates: 50_000, TestEvery: 200, TestEpisodes: 10}
	if spec, ok := env.Lookup(envID); ok && spec.StopThreshold() != nil {
		t := *spec.StopThreshold()
		r.RewardThreshold = &t
	}
	return r, da.config(), nil
}

// resolveDist builds a distributed run's configuration from the defaults,
// a configuration file (nil for none) and --set assignments, as resolve
// does for the other algorithms.
func resolveDist(algoName, envID string, file []byte, sets []string) (distRun, distConfig, error) {
	r, acfg, err := distDefaults(algoName, envID)
	if err != nil {
		return distRun{}, nil, err
	}
	if r.Algorithm, err = json.Marshal(acfg); err != nil {
		return distRun{}, nil, err
	}
	doc, err := toMap(r)
	if err != nil {
		return distRun{}, nil, err
	}
	known, err := json.Marshal(doc)
	if err != nil {
		return distRun{}, nil, err
	}
	for _, s := range sets {
		if path, _, _ := strings.Cut(s, "="); path == "algo" || path == "env" {
			return distRun{}, nil, fmt.Errorf("--set %s: use --%s", path, path)
		}
	}
	if err := override(doc, file, sets); err != nil {
		return distRun{}, nil, err
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return distRun{}, nil, err
	}
	r = distRun{}
	if err := strictDecode(b, &r); err != nil {
		return distRun{}, nil, settingError("", b, known, err)
	}
	if err := strictDecode(r.Algorithm, acfg); err != nil {
		return distRun{}, nil, settingError("algorithm", r.Algorithm, must(json.Marshal(acfg)), err)
	}
	if r.Algorithm, err = json.Marshal(acfg); err != nil {
		return distRun{}, nil, err
	}
	return r, acfg, r.validate(acfg)
}

func must(b []byte, _ error) []byte { return b }

// validate checks the run's own settings and the algorithm's.
func (r distRun) validate(acfg distConfig) error {
	switch {
	case r.Group == "" || strings.ContainsAny(r.Group, ".*> \t"):
		return fmt.Errorf("group %q: want a name without '.', '*', '>' or spaces", r.Group)
	case r.MaxUpdates < 1:
		return fmt.Errorf("max_updates = %d, want ≥ 1", r.MaxUpdates)
	case r.TestEvery < 1:
		return fmt.Errorf("test_every = %d, want ≥ 1", r.TestEvery)
	case r.TestEpisodes < 0:
		return fmt.Errorf("test_episodes = %d, want ≥ 0", r.TestEpisodes)
	}
	if _, ok := env.Lookup(r.Env); !ok {
		return fmt.Errorf("unknown env %q (gorl list shows them)", r.Env)
	}
	return acfg.Validate()
}

// distributedArgs reports whether a train command line runs a distributed
// algorithm: --algo names one, or --resume continues a run whose
// config.json does.
func distributedArgs(args []string) bool {
	var algoName, logdir string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || (name != "algo" && name != "logdir") {
			continue
		}
		if !hasVal && i+1 < len(args) {
			i++
			val = args[i]
		}
		if name == "algo" {
			algoName = val
		} else {
			logdir = val
		}
	}
	if algoName == "" && logdir != "" {
		var head struct {
			Algo string `json:"algo"`
		}
		if b, err := os.ReadFile(filepath.Join(logdir, configFile)); err == nil && json.Unmarshal(b, &head) == nil {
			algoName = head.Algo
		}
	}
	_, ok := distAlgos[algoName]
	return ok
}

// natsFlags are the flags of a connection to NATS.
type natsFlags struct {
	user, password, creds, nkey, ca *string
}

func addNATSFlags(fs *flag.FlagSet) natsFlags {
	return natsFlags{
		user:     fs.String("user", "", "NATS user name (with --password)"),
		password: fs.String("password", "", "NATS password"),
		creds:    fs.String("creds", "", "NATS credentials file (JWT and NKey seed)"),
		nkey:     fs.String("nkey", "", "NATS NKey seed file"),
		ca:       fs.String("tls-ca", "", "PEM file of the CA that the NATS servers' TLS certificates chain to"),
	}
}

func (f natsFlags) options(urls, name string) (cluster.Options, error) {
	o := cluster.Options{User: *f.user, Password: *f.password, CredsFile: *f.creds, NKeyFile: *f.nkey, CAFile: *f.ca, Name: name}
	if urls != "" {
		for _, u := range strings.Split(urls, ",") {
			u = strings.TrimSpace(u)
			if u == "" {
				return o, fmt.Errorf("empty URL in %q", urls)
			}
			if !strings.Contains(u, "://") {
				return o, fmt.Errorf("URL %q: want nats://HOST:PORT", u)
			}
			o.URLs = append(o.URLs, u)
		}
	}
	if (o.User == "") != (o.Password == "") {
		return o, errors.New("--user and --password go together")
	}
	return o, nil
}

// lockedWriter serializes the writes of the learner and of the goroutine
// that watches its actors.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// cmdTrainDistributed is gorl train for a distributed algorithm (remote
// false: the actors are goroutines of this process) and gorl learner
// (remote: the actors are gorl actor processes).
func cmdTrainDistributed(ctx context.Context, command string, args []string, stdout, stderr io.Writer) error {
	remote := command == "learner"
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	algoName := fs.String("algo", "apex-dqn", "distributed algorithm: apex-dqn, apex-ddpg, impala or a3c")
	envID := fs.String("env", "CartPole-v1", "env id (gorl list shows them)")
	seed := fs.Uint64("seed", 0, "random seed of the run")
	cfgPath := fs.String("config", "", "JSON configuration file (a config.json of an earlier run, or part of one)")
	logdir := fs.String("logdir", "", "run directory for config.json, logs and checkpoint (default runs/ALGO-ENV-TIME)")
	var sets multiFlag
	fs.Var(&sets, "set", "override one setting, path=value, e.g. algorithm.batch_size=32 or max_updates=5000 (repeatable)")
	actors := fs.Int("actors", 0, "number of actors (algorithm.actors, a3c's algorithm.workers; default 4)")
	group := fs.String("group", "", "name of the run's NATS subjects; runs sharing servers need distinct ones (default "+defaultGroup+")")
	resume := fs.Bool("resume", false, "continue the run in --logdir from its checkpoint")
	overwrite := fs.Bool("overwrite", false, "replace the run already in --logdir with a new one")
	var urls *string
	if remote {
		urls = fs.String("connect", "", "NATS server URL[,URL...] (gorl serve prints one); required")
	} else {
		urls = fs.String("nats", "", "NATS server URL[,URL...] to use instead of a server embedded in this process")
	}
	nf := addNATSFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%s: unexpected arguments %q", command, fs.Args())
	}
	if remote && *urls == "" {
		return errors.New("learner: --connect URL is required (start a server with gorl serve)")
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	opts, err := nf.options(*urls, "gorl "+command)
	if err != nil {
		return fmt.Errorf("%s: %w", command, err)
	}

	file, release, err := openConfig(command, *logdir, *cfgPath, *resume, *overwrite, algoName, envID, given)
	if err != nil {
		return err
	}
	defer release()
	if *resume {
		if given["actors"] || given["group"] || given["seed"] {
			return fmt.Errorf("%s: --resume continues the run as it was configured: --actors, --group and --seed do not apply", command)
		}
		for _, s := range sets {
			if path, _, _ := strings.Cut(s, "="); !slices.Contains(distMutable, path) {
				return fmt.Errorf("%s: --resume --set %s: a resumed run may change only %s", command, path, strings.Join(distMutable, ", "))
			}
		}
	}
	if given["actors"] {
		field := "actors"
		if da, ok := distAlgos[*algoName]; ok && da.actorsField != "" {
			field = da.actorsField
		}
		sets = append(sets, fmt.Sprintf("algorithm.%s=%d", field, *actors))
	}
	if given["group"] {
		sets = append(sets, "group="+*group)
	}
	if given["seed"] {
		sets = append(sets, fmt.Sprintf("seed=%d", *seed))
	}
	r, acfg, err := resolveDist(*algoName, *envID, file, sets)
	if err != nil {
		return fmt.Errorf("%s: %w", command, err)
	}
	if *resume && len(sets) > 0 {
		cj, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*logdir, configFile), append(cj, '\n'), 0o644); err != nil {
			return err
		}
	}
	if !*resume {
		if *logdir == "" {
			*logdir = filepath.Join("runs", fmt.Sprintf("%s-%s-%s", r.Algo, r.Env, time.Now().Format("20060102-150405")))
		}
		release, err := openRun(*logdir, false, *overwrite)
		if err != nil {
			return err
		}
		defer release()
		cj, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*logdir, configFile), append(cj, '\n'), 0o644); err != nil {
			return err
		}
	}

	node, err := cluster.Start(opts)
	if err != nil {
		return fmt.Errorf("%s: %w", command, err)
	}
	defer node.Close()
	out := &lockedWriter{w: stdout}
	l, err := newDistLearner(r, *logdir, out)
	if err != nil {
		return err
	}
	defer l.close()
	if *resume {
		if err := l.resume(); err != nil {
			return err
		}
	}
	where := "on a NATS server embedded in this process"
	if len(opts.URLs) > 0 {
		where = "on NATS at " + node.URL()
	}
	actorsWhere := "as goroutines of this process"
	if remote {
		actorsWhere = fmt.Sprintf("in gorl actor processes (gorl actor --connect %s --group %s --id 0…%d)", node.URL(), r.Group, acfg.actors()-1)
	}
	stopAt := fmt.Sprintf("%d updates", r.MaxUpdates)
	if r.RewardThreshold != nil && r.TestEpisodes > 0 {
		stopAt = fmt.Sprintf("a mean test return ≥ %v or %s", *r.RewardThreshold, stopAt)
	}
	fmt.Fprintf(out, "training %s on %s (seed %d, %d actors %s, group %s, stop at %s) %s in %s\n",
		r.Algo, r.Env, r.Seed, acfg.actors(), actorsWhere, r.Group, stopAt, where, *logdir)

	t := node.Transport()
	config, err := cluster.ServeParams(t, r.Group, "config", node.MaxPayload()-1024)
	if err != nil {
		return err
	}
	defer config.Close()
	if err := config.Publish(1, must(json.Marshal(r))); err != nil {
		return err
	}
	wctx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		l.watch(wctx, t, r.Group)
	}()
	defer func() {
		stopWatch()
		<-watched
	}()

	err = acfg.learn(ctx, r.setup(t, remote), l)
	if err != nil {
		if ctx.Err() != nil && context.Cause(ctx) == errInterrupted {
			l.reportInterrupt(stderr, command, remote, node.URL())
			return errInterrupted
		}
		return fmt.Errorf("%s: %w", command, err)
	}
	if remote {
		// The actors stop; a lost message leaves them waiting for a
		// learner, as after a learner's crash.
		cluster.PublishStatus(t, r.Group, cluster.Status{Updates: l.ck.Updates, Steps: l.ck.EnvSteps, Done: true})
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		t.Flush(fctx)
		cancel()
	}
	return l.finish()
}

// distProgress is the learner's progress, either algorithm's.
type distProgress struct {
	Updates, EnvSteps, Episodes, Unrolls int64
	LastReturn, Loss                     float64
}

// distCheckpoint is what a distributed run's checkpoint holds besides the
// learner's state.
type distCheckpoint struct {
	Updates    int64   `json:"updates"`
	EnvSteps   int64   `json:"env_steps"`
	Episodes   int64   `json:"episodes"`
	Unrolls    int64   `json:"unrolls"`
	LastReturn float64 `json:"last_return"`
	BestReturn float64 `json:"best_return"`
	BestUpdate int64   `json:"best_update"`
}

// saver is a learner's state (dqn.DQN, impala.Learner).
type saver interface {
	Save(w io.Writer) error
	Load(r io.Reader) error
}

// distLearner does what the learner of a distributed run does besides
// learning: tests, logs, checkpoints, and news of its actors.
type distLearner struct {
	r      distRun
	dir    string
	out    io.Writer
	tb     *logger.TensorBoard
	jf     *os.File
	lg     logger.Logger
	ck     distCheckpoint
	saved  distCheckpoint // the last checkpoint written
	loaded bool           // the checkpoint the run resumed from exists
	start  time.Time
	solved bool
	test   *distTester
	vals   map[string]float64
}

func newDistLearner(r distRun, dir string, out io.Writer) (*distLearner, error) {
	tb, err := logger.NewTensorBoard(logger.TensorBoardConfig{Dir: dir})
	if err != nil {
		return nil, err
	}
	jf, err := os.OpenFile(filepath.Join(dir, logFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		tb.Close()
		return nil, err
	}
	l := &distLearner{r: r, dir: dir, out: out, tb: tb, jf: jf, lg: logger.Multi{tb, logger.NewJSONL(jf)},
		ck: distCheckpoint{BestReturn: math.Inf(-1)}, start: time.Now(), vals: map[string]float64{}}
	l.saved = l.ck
	if r.TestEpisodes > 0 {
		if l.test, err = newDistTester(r.Env, r.TestEpisodes, r.Seed); err != nil {
			l.close()
			return nil, err
		}
	}
	return l, nil
}

func (l *distLearner) close() {
	l.lg.Close()
	l.jf.Close()
	if l.test != nil {
		l.test.close()
	}
}

// resume reads the run's checkpoint counts and cuts the logs after it;
// restore loads the learner's state when the algorithm builds it.
func (l *distLearner) resume() error {
	path := filepath.Join(l.dir, checkpointFile)
	step := int64(-1)
	if _, err := os.Stat(path); err == nil {
		l.loaded = true
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if l.loaded {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		skip := func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }
		err = algo.LoadParts(f, algo.JSONPart("progress", &l.ck), algo.Part{Name: "learner", Load: skip})
		f.Close()
		if err != nil {
			return fmt.Errorf("resume: %s: %w", path, err)
		}
		step = l.ck.EnvSteps
		if l.ck.Updates >= l.r.MaxUpdates {
			return fmt.Errorf("resume: the run in %s already took max_updates = %d updates; continue it with --set max_updates=N, N above %d",
				l.dir, l.r.MaxUpdates, l.ck.Updates)
		}
	}
	dropped, err := cutLogs(l.dir, step, l.tb.Path())
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if err := appendResume(l.dir, resumeRecord{EnvSteps: l.ck.EnvSteps, GradientSteps: l.ck.Updates, StartedOver: !l.loaded, Dropped: dropped}); err != nil {
		return err
	}
	l.saved = l.ck
	if l.loaded {
		fmt.Fprintf(l.out, "resuming from the checkpoint of update %d (%d env steps, best test return %.1f at update %d)\n",
			l.ck.Updates, l.ck.EnvSteps, l.ck.BestReturn, l.ck.BestUpdate)
	} else {
		fmt.Fprintf(l.out, "%s holds no checkpoint (the run stopped before its first test): the run starts over\n", l.dir)
	}
	return nil
}

// restore loads the checkpoint's learner state into s, when the run
// resumes from one.
func (l *distLearner) restore(s saver) error {
	if !l.loaded {
		return nil
	}
	path := filepath.Join(l.dir, checkpointFile)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var ck distCheckpoint
	if err := algo.LoadParts(f, algo.JSONPart("progress", &ck), algo.Part{Name: "learner", Load: s.Load}); err != nil {
		return fmt.Errorf("resume: %s: %w", path, err)
	}
	return nil
}

// checkpoint writes the learner's state and the counts.
func (l *distLearner) checkpoint(s saver) error {
	err := writeAtomic(filepath.Join(l.dir, checkpointFile), func(w io.Writer) error {
		return algo.SaveParts(w, algo.JSONPart("progress", &l.ck), algo.Part{Name: "learner", Save: s.Save})
	})
	if err == nil {
		l.saved = l.ck
	}
	return err
}

// after is called after every update: it logs, tests and checkpoints every
// TestEvery updates, and says whether the run is over.
func (l *distLearner) after(ctx context.Context, s saver, pol policy.Policy, p distProgress) (bool, error) {
	l.ck.Updates, l.ck.EnvSteps, l.ck.Episodes, l.ck.Unrolls, l.ck.LastReturn = p.Updates, p.EnvSteps, p.Episodes, p.Unrolls, p.LastReturn
	if p.Updates%l.r.TestEvery != 0 && p.Updates < l.r.MaxUpdates {
		return false, nil
	}
	clear(l.vals)
	l.vals["updates"] = float64(p.Updates)
	if !math.IsNaN(p.Loss) {
		l.vals["loss"] = p.Loss
	}
	if p.Unrolls > 0 {
		l.vals["unrolls"] = float64(p.Unrolls)
	} else if p.Episodes > 0 {
		l.vals["return"], l.vals["episodes"] = p.LastReturn, float64(p.Episodes)
	}
	if err := l.lg.Log("train", p.EnvSteps, l.vals); err != nil {
		return true, err
	}
	test := "no test"
	if l.test != nil {
		mean, std, err := l.test.run(ctx, pol)
		if err != nil {
			return true, err
		}
		if err := l.lg.Log("test", p.EnvSteps, map[string]float64{"return": mean, "return_std": std}); err != nil {
			return true, err
		}
		if mean > l.ck.BestReturn {
			l.ck.BestReturn, l.ck.BestUpdate = mean, p.Updates
			if err := l.savePolicy(bestFile, pol); err != nil {
				return true, err
			}
		}
		l.solved = l.r.RewardThreshold != nil && mean >= *l.r.RewardThreshold
		test = fmt.Sprintf("test return %.1f ± %.1f, best %.1f (update %d)", mean, std, l.ck.BestReturn, l.ck.BestUpdate)
	}
	if l.test == nil {
		// No tests: the best policy is the last, as in a local run.
		if err := l.savePolicy(bestFile, pol); err != nil {
			return true, err
		}
	}
	if err := l.savePolicy(lastFile, pol); err != nil {
		return true, err
	}
	if err := l.checkpoint(s); err != nil {
		return true, fmt.Errorf("checkpoint: %w", err)
	}
	loss := ""
	if !math.IsNaN(p.Loss) {
		loss = fmt.Sprintf(", loss %.4g", p.Loss)
	}
	fmt.Fprintf(l.out, "update %d: %s; %d env steps%s, %v\n", p.Updates, test, p.EnvSteps, loss, time.Since(l.start).Round(time.Millisecond))
	return l.solved || p.Updates >= l.r.MaxUpdates, nil
}

// savePolicy writes pol to the run directory's file name as a local run
// writes its policies (policyfile.Write), the header the run's
// config.json, so that gorl eval and gorl collect read it.
func (l *distLearner) savePolicy(name string, pol policy.Policy) error {
	path := filepath.Join(l.dir, name)
	if err := writeAtomic(path, func(w io.Writer) error { return policyfile.Write(w, &l.r, pol, nil) }); err != nil {
		return fmt.Errorf("saving the policy: %w", err)
	}
	return nil
}

// finish reports the end of the run.
func (l *distLearner) finish() error {
	status := "not solved"
	if l.solved {
		status = "solved"
	}
	fmt.Fprintf(l.out, "%s: best test return %.1f at update %d; %d env steps, %d updates in %v\ncheckpoint: %s\nbest policy: %s\n",
		status, l.ck.BestReturn, l.ck.BestUpdate, l.ck.EnvSteps, l.ck.Updates, time.Since(l.start).Round(time.Millisecond),
		filepath.Join(l.dir, checkpointFile), filepath.Join(l.dir, bestFile))
	return nil
}

// reportInterrupt tells where an interrupted run stopped and how to go on.
func (l *distLearner) reportInterrupt(w io.Writer, command string, remote bool, url string) {
	fmt.Fprintf(w, "gorl: the run stopped after %d updates and %d env steps.\n", l.ck.Updates, l.ck.EnvSteps)
	cmd := "gorl " + command
	if remote {
		cmd += " --connect " + shellQuote(url)
	}
	cmd += " --resume --logdir " + shellQuote(l.dir)
	if l.saved.Updates == 0 && !l.loaded {
		fmt.Fprintf(w, "gorl: it wrote no checkpoint yet (one is written after every test); this command starts it over:\n  %s\n", cmd)
		return
	}
	fmt.Fprintf(w, "gorl: its checkpoint %s holds update %d (%d env steps); continue the run with:\n  %s\n",
		filepath.Join(l.dir, checkpointFile), l.saved.Updates, l.saved.EnvSteps, cmd)
}

// watchEvery is how often the learner looks at its actors.
const watchEvery = 250 * time.Millisecond

// watch writes a line when an actor joins or leaves the run's buffer (one
// is gone once it misses its heartbeats) until ctx ends.
func (l *distLearner) watch(ctx context.Context, t cluster.Transport, group string) {
	b, err := distributed.New(t, distributed.Config{Group: group, Member: "watch"}, nil)
	if err != nil {
		fmt.Fprintf(l.out, "gorl: cannot watch the actors: %v\n", err)
		return
	}
	defer b.Close()
	var known []string
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := b.Members()
		var joined []string
		for _, m := range now {
			if !slices.Contains(known, m) {
				joined = append(joined, m)
			}
		}
		if len(joined) > 0 {
			fmt.Fprintf(l.out, "%s joined (%d live)\n", strings.Join(joined, ", "), len(now))
		}
		for _, m := range known {
			if !slices.Contains(now, m) {
				fmt.Fprintf(l.out, "%s left: no heartbeat for %v; the learner goes on with %d\n", m, distributed.DefaultHeartbeat*10, len(now))
			}
		}
		known = now
	}
}

// distTester runs the learner's test episodes.
type distTester struct {
	vec  vector.Env
	coll *collector.Collector
	n    int
	seed uint64
}

func newDistTester(envID string, n int, seed uint64) (*distTester, error) {
	envs := make([]env.Env, n)
	for i := range envs {
		var err error
		if envs[i], err = env.Make(envID); err != nil {
			closeEnvs(envs[:i])
			return nil, err
		}
	}
	vec, err := vector.New(envs, vector.Config{})
	if err != nil {
		closeEnvs(envs)
		return nil, err
	}
	return &distTester{vec: vec, n: n, seed: seed}, nil
}

func (t *distTester) close() { t.vec.Close() }

// run returns the mean and standard deviation of the returns of n test
// episodes of pol, its training-step flag off.
func (t *distTester) run(ctx context.Context, pol policy.Policy) (float64, float64, error) {
	if t.coll == nil {
		var err error
		if t.coll, err = collector.New(collector.Config{Env: t.vec, Policy: pol, Explore: true}); err != nil {
			return 0, 0, err
		}
	}
	was := pol.TrainingStep()
	pol.SetTrainingStep(false)
	cs, err := t.coll.Collect(ctx, collector.Request{NEpisode: t.n, ResetBeforeCollect: true})
	pol.SetTrainingStep(was)
	return cs.Return.Mean, cs.Return.Std, err
}

// cmdActor is gorl actor: one actor of a run whose learner (gorl learner)
// serves its configuration on the same NATS servers.
func cmdActor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("actor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	urls := fs.String("connect", "", "NATS server URL[,URL...] of the run (gorl serve prints one); required")
	group := fs.String("group", defaultGroup, "the run's group (the learner's --group)")
	id := fs.Int("id", -1, "this actor's index, 0 to actors−1 (it sets the actor's ε); required")
	nf := addNATSFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("actor: unexpected arguments %q", fs.Args())
	}
	switch {
	case *urls == "":
		return errors.New("actor: --connect URL is required (the server the learner uses)")
	case *id < 0:
		return errors.New("actor: --id N is required (0 to the run's actors − 1)")
	}
	opts, err := nf.options(*urls, fmt.Sprintf("gorl actor %d", *id))
	if err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	node, err := cluster.Start(opts)
	if err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	defer node.Close()
	t := node.Transport()
	fmt.Fprintf(stdout, "actor %d: waiting for the learner of group %s at %s\n", *id, *group, node.URL())
	_, blob, err := cluster.FetchParams(ctx, t, *group, "config", 0)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("actor: the run's configuration: %w", err)
	}
	var r distRun
	if err := strictDecode(blob, &r); err != nil {
		return fmt.Errorf("actor: the learner's configuration: %w", err)
	}
	_, acfg, err := distDefaults(r.Algo, r.Env)
	if err != nil {
		return fmt.Errorf("actor: %w", err)
	}
	if err := strictDecode(r.Algorithm, acfg); err != nil {
		return fmt.Errorf("actor: the learner's %s configuration: %w", r.Algo, err)
	}
	if n := acfg.actors(); *id >= n {
		return fmt.Errorf("actor: --id %d, but the run has %d actors (ids 0 to %d)", *id, n, n-1)
	}
	fmt.Fprintf(stdout, "actor %d of %d: %s on %s, group %s\n", *id, acfg.actors(), r.Algo, r.Env, r.Group)
	err = acfg.act(ctx, r.setup(t, true), *id)
	if err != nil {
		return fmt.Errorf("actor %d: %w", *id, err)
	}
	if ctx.Err() == nil {
		fmt.Fprintf(stdout, "actor %d: the learner ended the run\n", *id)
	}
	return nil
}

// cmdServe is gorl serve: a NATS server for learners and actors in other
// processes, until interrupted.
func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := fs.String("host", "127.0.0.1", "address to listen on (0.0.0.0 for every interface: other machines can then connect)")
	port := fs.Int("port", 4222, "client port (0 picks a free one)")
	user := fs.String("user", "", "the server's only user (with --password); clients must give both")
	password := fs.String("password", "", "the user's password")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("serve: unexpected arguments %q", fs.Args())
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("serve: --port %d: want 0 to 65535", *port)
	}
	if (*user == "") != (*password == "") {
		return errors.New("serve: --user and --password go together")
	}
	node, err := cluster.Start(cluster.Options{Listen: true, Host: *host, Port: *port, User: *user, Password: *password, Name: "gorl serve"})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintf(stdout, "serving NATS on %s (interrupt to stop)\n", node.URL())
	<-ctx.Done()
	if err := node.Close(); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(stdout, "server stopped")
	return nil
}
