package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// TestRefusedSpaces checks that every registered algorithm refuses an
// action space it cannot act in, with a message naming the space; a new
// algorithm must add its row.
func TestRefusedSpaces(t *testing.T) {
	obs, err := env.NewBox(-1.0, 1.0, []int{2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	box, err := env.NewBox(-1.0, 1.0, []int{1}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	multi, err := env.NewMultiDiscrete([]int64{2, 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	discrete, err := env.NewDiscrete(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The action space each algorithm cannot act in: Box for the
	// Q-learning family, MultiDiscrete for the actors, whose heads are
	// Categorical or Normal, Discrete for the continuous actor-critics.
	refused := map[string]env.Space{
		"a2c": multi, "bc": multi, "bcq": box, "dqn": box, "pg": multi, "ppo": multi, "c51": box, "rainbow": box,
		"ddpg": discrete, "sac": discrete, "td3": discrete, "redq": discrete, "discrete-sac": box,
		"cql": discrete, "discrete-cql": box, "crr": box,
		"bcq-continuous": discrete, "td3-bc": discrete,
		"npg": multi, "trpo": multi, "bdqn": discrete,
		"icm-dqn": box, "psrl": box, "gail": multi,
		"rppo":  multi,
		"r2d2":  box,
		"qrdqn": box, "iqn": box, "fqf": box,
	}
	for _, name := range algorithmNames() {
		act, ok := refused[name]
		if !ok {
			t.Errorf("%s: no row (add the action space it refuses)", name)
			continue
		}
		acfg, _ := algorithms[name].defaults("")
		_, err := acfg.build(obs, act, rand.New(rand.NewPCG(1, 2)))
		if err == nil || !strings.Contains(err.Error(), act.String()) {
			t.Errorf("%s on %v: error %v, want one naming the space", name, act, err)
		}
	}
}

// TestMatrixRefusesPairs checks that the matrix leaves out the pairs whose
// spaces do not fit, saying why, and that gorl train refuses them too.
func TestMatrixRefusesPairs(t *testing.T) {
	pairs, refused, err := matrixPairs("dqn", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if p.Env == "Pendulum-v1" || p.Env == "MountainCarContinuous-v0" {
			t.Errorf("dqn on %s is in the matrix", p.Env)
		}
	}
	want := "dqn on Pendulum-v1: dqn: invalid configuration: DQN needs a Discrete action space, not Box(-2.0, 2.0, (1,), float32)"
	found := false
	for _, r := range refused {
		found = found || r == want
	}
	if !found {
		t.Errorf("refused %q, want it to hold %q", refused, want)
	}
	var stdout, stderr bytes.Buffer
	err = run(context.Background(), []string{"train", "--algo", "dqn", "--env", "Pendulum-v1", "--logdir", t.TempDir()}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "not Box(-2.0, 2.0, (1,), float32)") {
		t.Errorf("gorl train dqn on Pendulum-v1: %v, want an error naming the Box space", err)
	}
}

// TestPresets checks that every preset names a registered algorithm and
// env, states its source, and resolves with no unknown field; that gorl
// bench's runs (resolveDefaults) keep the registered defaults where a
// preset changes them, and gorl train the env's stop threshold; and that a
// configuration file and --set override a preset.
func TestPresets(t *testing.T) {
	ps, err := presets()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatal("no presets")
	}
	for _, p := range ps {
		if _, err := lookupAlgorithm(p.Algo); err != nil {
			t.Errorf("preset %s-%s: %v", p.Algo, p.Env, err)
		}
		if _, ok := env.Lookup(p.Env); !ok {
			t.Errorf("preset %s-%s: unknown env", p.Algo, p.Env)
		}
		if _, _, err := resolve(p.Algo, p.Env, nil, nil); err != nil {
			t.Errorf("preset %s-%s: %v", p.Algo, p.Env, err)
		}
		var fragment map[string]any
		if err := json.Unmarshal(p.Config, &fragment); err != nil {
			t.Errorf("preset %s-%s: %v", p.Algo, p.Env, err)
		}
		if len(fragment) == 0 {
			continue
		}
		// A preset that changes the defaults leaves gorl bench's runs
		// (resolveDefaults) on the registered ones, and gorl train still
		// stops at the env's stop threshold.
		a, _ := lookupAlgorithm(p.Algo)
		acfg, rd := a.defaults(p.Env)
		rc, got, err := resolveDefaults(p.Algo, p.Env, nil)
		if err != nil {
			t.Fatalf("preset %s-%s: %v", p.Algo, p.Env, err)
		}
		want, _ := json.Marshal(acfg)
		have, _ := json.Marshal(got)
		rc.Trainer.RewardThreshold = rd.Trainer.RewardThreshold
		if rc.TrainEnvs != rd.TrainEnvs || rc.TestEnvs != rd.TestEnvs || rc.BufferSize != rd.BufferSize ||
			rc.Trainer != rd.Trainer || rc.Normalize != nil || !bytes.Equal(have, want) {
			t.Errorf("preset %s-%s: resolveDefaults gives %+v %s, want the registered %+v %s", p.Algo, p.Env, rc, have, rd, want)
		}
		if spec, _ := env.Lookup(p.Env); spec.StopThreshold() != nil {
			rc, _, _ := resolve(p.Algo, p.Env, nil, nil)
			if th := rc.Trainer.RewardThreshold; th == nil || *th != *spec.StopThreshold() {
				t.Errorf("preset %s-%s: stop threshold %v, want the env's %v", p.Algo, p.Env, th, *spec.StopThreshold())
			}
		}
	}

	// dqn-MountainCar-v0.json: step_per_collect 16, γ 0.98; the registered
	// defaults have 10 and 0.99.
	tests := []struct {
		name          string
		file          []byte
		sets          []string
		collect       int
		gamma, thresh float64
	}{
		{"preset", nil, nil, 16, 0.98, -110},
		{"file over preset", []byte(`{"trainer": {"step_per_collect": 8}}`), nil, 8, 0.98, -110},
		{"set over file", []byte(`{"trainer": {"step_per_collect": 8}}`), []string{"trainer.step_per_collect=4", "algorithm.gamma=0.9"}, 4, 0.9, -110},
	}
	for _, tt := range tests {
		rc, _, err := resolve("dqn", "MountainCar-v0", tt.file, tt.sets)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var a struct {
			Gamma float64 `json:"gamma"`
		}
		if err := json.Unmarshal(rc.Algorithm, &a); err != nil {
			t.Fatal(err)
		}
		if rc.Trainer.StepPerCollect != tt.collect || a.Gamma != tt.gamma || rc.Trainer.RewardThreshold == nil || *rc.Trainer.RewardThreshold != tt.thresh {
			t.Errorf("%s: step_per_collect %d, γ %v, threshold %v; want %d, %v, %v", tt.name,
				rc.Trainer.StepPerCollect, a.Gamma, rc.Trainer.RewardThreshold, tt.collect, tt.gamma, tt.thresh)
		}
	}
}

// TestListPresets checks gorl list --presets: a header and a line per
// preset with its source.
func TestListPresets(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"list", "--presets"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	ps, _ := presets()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != len(ps)+1 || !strings.HasPrefix(lines[0], "ALGORITHM") {
		t.Fatalf("gorl list --presets:\n%s\nwant a header and %d lines", stdout.String(), len(ps))
	}
	if !strings.Contains(stdout.String(), "rl-baselines3-zoo hyperparams/dqn.yml (MountainCar-v0)") {
		t.Errorf("gorl list --presets does not show dqn-MountainCar-v0's source:\n%s", stdout.String())
	}
}

// TestIQM checks the interquartile mean by hand: with n values the lowest
// and highest ⌊n/4⌋ are dropped.
func TestIQM(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{[]float64{7}, 7},
		{[]float64{100, 1, 3, 2, 4}, 3},                   // drops 1 and 100: (2+3+4)/3
		{[]float64{8, 7, 6, 5, 4, 3, 2, 1}, 4.5},          // drops 1, 2, 7, 8: (3+4+5+6)/4
		{[]float64{-500, -90, -88, -85, -80}, -263.0 / 3}, // drops −500 and −80: (−90−88−85)/3
	}
	for _, tt := range tests {
		if got := iqm(tt.xs); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("iqm(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

// learningSmokePairs are the first smoke cases of TestLearningSmoke.
var learningSmokePairs = []matrixPair{
	{Algo: "pg", Env: "Acrobot-v1", Bar: matrixBar{-150, 100_000, "smoke"}},
	{Algo: "a2c", Env: "Acrobot-v1", Bar: matrixBar{-150, 100_000, "smoke"}},
	{Algo: "ppo", Env: "Acrobot-v1", Bar: matrixBar{-150, 100_000, "smoke"}},
	{Algo: "ppo", Env: "CartPole-v1", Bar: matrixBar{195, 50_000, "smoke"}},
	{Algo: "dqn", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "discrete-sac", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "c51", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "rainbow", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "sac", Env: "Pendulum-v1", Bar: matrixBar{-700, 10_000, "smoke"}},
}

// TestLearningSmoke is the learning matrix's smoke subset: one seed of a
// pair of every algorithm in the matrix (learningSmokePairs, smokePairs)
// with their presets, at a reduced budget and a
// looser bar than gorl bench matrix's, so that a change that stops an
// algorithm learning fails go test. Each bar is about half-way from the initial return to the
// matrix's, and each budget about twice the steps seed 0 needs.
func TestLearningSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("learning runs (seconds each)")
	}
	pairs := append(slices.Clone(learningSmokePairs), smokePairs...)
	var log bytes.Buffer
	outs, err := runMatrix(context.Background(), pairs, matrixOptions{Seeds: 1, Jobs: 1, WorkDir: t.TempDir()}, &log)
	if err != nil {
		t.Fatal(err)
	}
	for _, po := range outs {
		if r := po.Results[0]; r.Err != "" || !r.Reached {
			t.Errorf("%s on %s did not reach %v within %d env steps: %+v", po.Algo, po.Env, po.Bar.Return, po.Bar.Steps, r)
		}
	}
	t.Log("\n" + log.String())
}

// TestMatrixBudget checks that a matrix run stops at its bar and within
// the bar's steps: whole epochs of the pair's length where they fit, one
// shorter epoch where the budget is below one.
func TestMatrixBudget(t *testing.T) {
	tests := []struct {
		algo, env             string
		steps                 int
		epochs, stepsPerEpoch int
	}{
		// dqn-MountainCar-v0.json: epochs of 10,000 steps after 1,000
		// prefill steps.
		{"dqn", "MountainCar-v0", 120_000, 11, 10_000},
		// PPO's Pendulum settings have epochs of 150,000 steps, longer
		// than rl-zoo's 100k.
		{"ppo", "Pendulum-v1", 100_000, 1, 100_000},
		// ppo-MountainCarContinuous-v0.json: epochs of 2,000 steps.
		{"ppo", "MountainCarContinuous-v0", 20_000, 10, 2_000},
	}
	for _, tt := range tests {
		rc, _, err := matrixRunConfig(matrixJob{Algo: tt.algo, Env: tt.env, Seed: 3, Bar: matrixBar{Return: 1, Steps: tt.steps}})
		if err != nil {
			t.Fatal(err)
		}
		tc := rc.Trainer
		if tc.Epochs != tt.epochs || tc.StepPerEpoch != tt.stepsPerEpoch || rc.Seed != 3 ||
			*tc.RewardThreshold != 1 || tc.TestExploration || tc.TestEpisodes < 10 {
			t.Errorf("%s on %s: %+v, want %d epochs of %d steps, seed 3, stop at 1, deterministic tests of ≥ 10 episodes",
				tt.algo, tt.env, tc, tt.epochs, tt.stepsPerEpoch)
		}
	}
}

// TestPresetName checks how a preset's file name splits into algorithm
// and env: at the first hyphen before a capital letter, so that an
// algorithm's name may hold hyphens.
func TestPresetName(t *testing.T) {
	for _, tc := range []struct{ base, algo, env string }{
		{"dqn-MountainCar-v0", "dqn", "MountainCar-v0"},
		{"discrete-sac-CartPole-v1", "discrete-sac", "CartPole-v1"},
		{"sac-MountainCarContinuous-v0", "sac", "MountainCarContinuous-v0"},
		{"dqn-cartpole", "", ""},
		{"Pendulum-v1", "", ""},
	} {
		a, e, ok := cutEnv(tc.base)
		if a != tc.algo || e != tc.env || ok != (tc.algo != "") {
			t.Errorf("cutEnv(%q) = %q, %q, %v; want %q, %q", tc.base, a, e, ok, tc.algo, tc.env)
		}
	}
}

func TestImageLink(t *testing.T) {
	for _, c := range []struct{ img, doc, want string }{
		{"docs/images/m.png", "", "docs/images/m.png"},
		{"docs/images/m.png", "LEARNING.md", "docs/images/m.png"},
		{"docs/images/m.png", "docs/LEARNING.md", "images/m.png"},
		{"m.svg", "out/report.md", "../m.svg"},
	} {
		if got := imageLink(c.img, c.doc); got != c.want {
			t.Errorf("imageLink(%q, %q) = %q, want %q", c.img, c.doc, got, c.want)
		}
	}
}

// TestMatrixScoresPlot checks that the matrix report draws its figure (a
// panel per env, a row per pair) and shows it as an image linked from the
// report's directory, and that a figure that cannot be drawn leaves the
// report in place.
func TestMatrixScoresPlot(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "images", "matrix.svg")
	if err := os.Mkdir(filepath.Dir(plot), 0o755); err != nil {
		t.Fatal(err)
	}
	bar := matrixBar{Return: 475}
	outs := []pairOutcome{
		{matrixPair: matrixPair{Algo: "dqn", Env: "CartPole-v1", Bar: bar}, Results: []matrixResult{{Return: 500}, {Return: 480}, {Return: 20}}},
		{matrixPair: matrixPair{Algo: "sac", Env: "Pendulum-v1", Bar: matrixBar{Return: -250}}, Results: []matrixResult{{Return: -150}}},
		{matrixPair: matrixPair{Algo: "ppo", Env: "CartPole-v1", Bar: bar}, Results: []matrixResult{{Return: 500}, {Return: 499}, {Err: "diverged"}}},
	}
	fig := matrixFigure(outs)
	if len(fig.Panels) != 2 || !slices.Equal(fig.Panels[0].Rows, []string{"dqn", "ppo"}) ||
		!slices.Equal(fig.Panels[0].Values[1], []float64{500, 499}) || !slices.Equal(fig.Panels[1].Marks, []float64{-250}) {
		t.Errorf("matrixFigure = %+v, want CartPole's panel (dqn, ppo without the failed run) then Pendulum's", fig)
	}
	var b bytes.Buffer
	writeMatrixScores(&b, outs, 0, plot, filepath.Join(dir, "LEARNING.md"))
	if !strings.Contains(b.String(), "](images/matrix.svg)") {
		t.Errorf("report has no image link to images/matrix.svg:\n%s", b.String())
	}
	if svg, err := os.ReadFile(plot); err != nil || strings.Count(string(svg), "stroke:#D00000") != 3 {
		t.Errorf("figure not drawn with a bar per pair: %v", err)
	}
	b.Reset()
	writeMatrixScores(&b, outs, 0, filepath.Join(dir, "missing", "m.png"), "")
	if !strings.Contains(b.String(), "### Over seeds") || !strings.Contains(b.String(), "No figure:") {
		t.Errorf("report without its figure:\n%s", b.String())
	}
}

func TestMatrixPlotFlag(t *testing.T) {
	for _, plot := range []string{"m.gif", filepath.Join(t.TempDir(), "missing", "m.png")} {
		var out, errb bytes.Buffer
		err := cmdBenchMatrix(context.Background(), []string{"--only", "dqn", "--env", "CartPole-v1", "--plot", plot}, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), "--plot") {
			t.Errorf("--plot %s: error %v, want one naming --plot before any run", plot, err)
		}
	}
}
