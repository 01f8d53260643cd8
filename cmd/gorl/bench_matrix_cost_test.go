package main

import (
	"slices"
	"strings"
	"testing"
)

// TestLongBars checks the bars of the MuJoCo and MinAtar rows, which only
// --env runs: Tianshou's MuJoCo benchmark (SAC at 1M: HalfCheetah 12,139 ±
// 1,567, Hopper 3,542 ± 52; PPO 5,784 ± 1,244 and 2,609 ± 701) minus one
// standard deviation, and the MinAtar paper's DQN at 1M frames (Breakout
// about 9, Space Invaders about 33) for DQN and Rainbow; and that the
// default env list holds none of these envs.
func TestLongBars(t *testing.T) {
	tests := []struct {
		algo, env string
		want      float64
		steps     int
	}{
		{"sac", "HalfCheetah-v4", 12139 - 1567, 1_000_000},
		{"sac", "Hopper-v4", 3542.2 - 51.5, 1_000_000},
		{"ppo", "HalfCheetah-v4", 5783.9 - 1244.0, 1_000_000},
		{"ppo", "Hopper-v4", 2609.3 - 700.8, 1_000_000},
		{"pg", "Hopper-v4", 395.8 - 64.5, 3_000_000},
		{"dqn", "Breakout-MinAtar-v0", 9, 1_000_000},
		{"dqn", "SpaceInvaders-MinAtar-v0", 33, 1_000_000},
		{"rainbow", "Breakout-MinAtar-v0", 9, 1_000_000},
		{"rainbow", "SpaceInvaders-MinAtar-v0", 33, 1_000_000},
	}
	for _, tt := range tests {
		pairs, _, err := matrixPairs(tt.algo, tt.env)
		if err != nil {
			t.Errorf("%s on %s: %v", tt.algo, tt.env, err)
			continue
		}
		if len(pairs) != 1 {
			t.Errorf("%s on %s: %d pairs, want 1", tt.algo, tt.env, len(pairs))
			continue
		}
		if b := pairs[0].Bar; b.Return != tt.want || b.Steps != tt.steps {
			t.Errorf("%s on %s: bar %v within %d, want %v within %d", tt.algo, tt.env, b.Return, b.Steps, tt.want, tt.steps)
		}
	}
	// MinAtar has bars for DQN and Rainbow only: C51 is refused for want
	// of one.
	if _, refused, err := matrixPairs("c51", "Breakout-MinAtar-v0"); err == nil || len(refused) != 1 {
		t.Errorf("c51 on Breakout-MinAtar-v0: error %v, refused %q; want no pair and one refusal", err, refused)
	}
	for key := range longBars {
		for _, id := range matrixEnvs {
			if strings.HasSuffix(key, "/"+id) {
				t.Errorf("%s: a long row's env is in the default list", key)
			}
		}
	}
}

// TestMatrixSchedule checks that --jobs takes the pairs costliest first:
// by their measured CPU, else by their step budget, ties in their order.
func TestMatrixSchedule(t *testing.T) {
	old := matrixCPU
	t.Cleanup(func() { matrixCPU = old })
	matrixCPU = map[string]float64{"dqn/Acrobot-v1": 30, "ppo/CartPole-v1": 1, "c51/Acrobot-v1": 30}
	pairs := []matrixPair{
		{Algo: "ppo", Env: "CartPole-v1", Bar: matrixBar{Steps: 100_000}},
		{Algo: "dqn", Env: "Acrobot-v1", Bar: matrixBar{Steps: 100_000}},
		{Algo: "pg", Env: "Acrobot-v1", Bar: matrixBar{Steps: 1_000_000}},  // unmeasured: 100
		{Algo: "c51", Env: "Acrobot-v1", Bar: matrixBar{Steps: 1_000_000}}, // measured: 30
		{Algo: "trpo", Env: "Acrobot-v1", Bar: matrixBar{Steps: 20_000}},   // unmeasured: 2
	}
	if got, want := matrixSchedule(pairs), []int{2, 1, 3, 4, 0}; !slices.Equal(got, want) {
		t.Errorf("schedule %v, want %v", got, want)
	}
}
