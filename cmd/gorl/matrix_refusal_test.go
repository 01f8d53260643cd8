package main

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestMatrixRefusals checks, for pairs of the matrix's envs that do not
// apply, that gorl bench matrix leaves them out with the reason: the
// action or observation space the algorithm refuses (online and offline
// algorithms), or, for an offline algorithm, an env it has no dataset of.
// The messages are the algorithms' own (their New) and offlinePair's.
func TestMatrixRefusals(t *testing.T) {
	tests := []struct {
		algo, env, want string
	}{
		{"dqn", "Pendulum-v1", "DQN needs a Discrete action space, not Box(-2.0, 2.0, (1,), float32)"},
		{"sac", "CartPole-v1", "not Discrete(2)"},
		{"r2d2", "MountainCarContinuous-v0", "not Box(-1.0, 1.0, (1,), float32)"},
		{"psrl", "CartPole-v1", "Discrete"},
		{"crr", "Pendulum-v1", "CRR needs a Discrete action space, not Box(-2.0, 2.0, (1,), float32)"},
		{"discrete-cql", "Pendulum-v1", "not Box(-2.0, 2.0, (1,), float32)"},
		{"bcq", "Pendulum-v1", "not Box(-2.0, 2.0, (1,), float32)"},
		{"cql", "CartPole-v1", "not Discrete(2)"},
		{"td3-bc", "CartPole-v1", "not Discrete(2)"},
		{"bcq-continuous", "CartPole-v1", "not Discrete(2)"},
		{"bc", "Acrobot-v1", "offline, and the matrix gathers no dataset of Acrobot-v1 (it has datasets of CartPole-v1, Pendulum-v1)"},
		{"cql", "MountainCarContinuous-v0", "no dataset of MountainCarContinuous-v0"},
	}
	for _, tt := range tests {
		// An algorithm with no pair at all (psrl) gets an error besides.
		pairs, refused, err := matrixPairs(tt.algo, "")
		if err != nil && len(refused) == 0 {
			t.Fatalf("%s: %v", tt.algo, err)
		}
		for _, p := range pairs {
			if p.Env == tt.env {
				t.Errorf("%s on %s is in the matrix", tt.algo, tt.env)
			}
		}
		prefix := tt.algo + " on " + tt.env + ": "
		i := slices.IndexFunc(refused, func(r string) bool { return strings.HasPrefix(r, prefix) })
		if i < 0 || !strings.Contains(refused[i], tt.want) {
			t.Errorf("%s on %s: refused %q, want a line holding %q", tt.algo, tt.env, refused, tt.want)
		}
	}
}

// TestOfflinePairs checks the offline pairs of the matrix: each registered
// offline algorithm on the envs with a dataset whose spaces it accepts,
// with the offline bar of its env and the dataset's size as its steps.
func TestOfflinePairs(t *testing.T) {
	want := map[string][]string{
		"bc": {"CartPole-v1", "Pendulum-v1"}, "bcq": {"CartPole-v1"}, "crr": {"CartPole-v1"}, "discrete-cql": {"CartPole-v1"},
		"bcq-continuous": {"Pendulum-v1"}, "cql": {"Pendulum-v1"}, "td3-bc": {"Pendulum-v1"},
	}
	if names := offlineNames(); !slices.Equal(names, slices.Sorted(maps.Keys(want))) {
		t.Fatalf("offline algorithms %q, want rows for each (%q)", names, slices.Sorted(maps.Keys(want)))
	}
	bars := map[string]float64{"CartPole-v1": 195, "Pendulum-v1": -250} // gorl bench offline-cartpole, offline-pendulum
	for name, envs := range want {
		pairs, _, err := matrixPairs(name, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, p := range pairs {
			got = append(got, p.Env)
			if p.Data == nil || p.Data.Env != p.Env || p.Bar.Return != bars[p.Env] || p.Bar.Steps != p.Data.Steps || p.Bar.Source != offlineBarSource {
				t.Errorf("%s on %s: data %+v, bar %+v; want the env's dataset, bar %v within the dataset's steps", name, p.Env, p.Data, p.Bar, bars[p.Env])
			}
		}
		if !slices.Equal(got, envs) {
			t.Errorf("%s: pairs on %q, want %q", name, got, envs)
		}
	}
}

// TestDistributedRefusals checks that each distributed algorithm refuses
// an env whose spaces it cannot take, with a message naming the
// space; a new distributed algorithm must add its row.
func TestDistributedRefusals(t *testing.T) {
	refused := map[string]struct{ env, space string }{
		"apex-dqn":  {"Pendulum-v1", "not Box(-2.0, 2.0, (1,), float32)"}, // DQN's Discrete actions
		"impala":    {"Pendulum-v1", "not Box(-2.0, 2.0, (1,), float32)"}, // a Categorical policy here
		"a3c":       {"FrozenLake-v1", "not Discrete(16)"},                // the MLP's Box observations
		"apex-ddpg": {"CartPole-v1", "not Discrete(2)"},                   // DDPG's Box actions
	}
	for _, name := range slices.Sorted(maps.Keys(distAlgos)) {
		row, ok := refused[name]
		if !ok {
			t.Errorf("%s: no row (add an env it refuses)", name)
			continue
		}
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"train", "--algo", name, "--env", row.env, "--actors", "2", "--logdir", t.TempDir()}, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), row.space) {
			t.Errorf("gorl train --algo %s --env %s: %v, want an error naming the space (%s)", name, row.env, err, row.space)
		}
	}
}

// TestDatasetPath checks that the matrix's dataset cache keys its files by
// every setting that changes the data: a change of any one gives another
// file, so that no run reads data built with other settings.
func TestDatasetPath(t *testing.T) {
	base := DatasetSpec{Expert: "dqn", Env: "CartPole-v1", Threshold: 195, Steps: 20_000, Envs: 10, Epsilon: 0.1}
	tests := []struct {
		name string
		edit func(*DatasetSpec)
	}{
		{"expert", func(s *DatasetSpec) { s.Expert = "ppo" }},
		{"env", func(s *DatasetSpec) { s.Env = "Acrobot-v1" }},
		{"threshold", func(s *DatasetSpec) { s.Threshold = 150 }},
		{"steps", func(s *DatasetSpec) { s.Steps = 5000 }},
		{"envs", func(s *DatasetSpec) { s.Envs = 5 }},
		{"noise", func(s *DatasetSpec) { s.Noise = 0.1 }},
		{"epsilon", func(s *DatasetSpec) { s.Epsilon = 0.2 }},
	}
	root := t.TempDir()
	p0 := datasetPath(root, base, 0)
	if p0 == datasetPath(root, base, 1) {
		t.Errorf("seeds 0 and 1 share %s", p0)
	}
	if p0 != datasetPath(root, base, 0) {
		t.Errorf("the same settings give two paths")
	}
	for _, tt := range tests {
		s := base
		tt.edit(&s)
		if p := datasetPath(root, s, 0); p == p0 {
			t.Errorf("%s changed, same file %s", tt.name, p)
		}
	}
}
