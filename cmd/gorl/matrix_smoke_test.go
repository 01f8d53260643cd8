package main

import (
	"slices"
	"testing"
)

// Smoke datasets: smaller than the matrix's (matrixDatasets), from experts
// stopped earlier, so that the offline smoke cases cost seconds.
var (
	smokeCartPoleData = DatasetSpec{Expert: "dqn", Env: "CartPole-v1", Threshold: 150, Steps: 5000, Envs: 5, Epsilon: 0.1}
	smokePendulumData = DatasetSpec{Expert: "sac", Env: "Pendulum-v1", Threshold: -300, Steps: 5000, Envs: 5, Noise: 0.1}
)

// smokePairs are the smoke cases (TestLearningSmoke) of the algorithms
// beyond its first ones, one per algorithm with a matrix pair. The bars
// are loose: far above a random policy (CartPole about 22, Acrobot −500,
// Pendulum about −1,200) and below the matrix's, within a fraction of its
// steps.
var smokePairs = []matrixPair{
	{Algo: "qrdqn", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "iqn", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "fqf", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "icm-dqn", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "r2d2", Env: "CartPole-v1", Bar: matrixBar{150, 30_000, "smoke"}},
	{Algo: "npg", Env: "CartPole-v1", Bar: matrixBar{150, 50_000, "smoke"}},
	{Algo: "trpo", Env: "CartPole-v1", Bar: matrixBar{150, 50_000, "smoke"}},
	{Algo: "rppo", Env: "CartPole-v1", Bar: matrixBar{150, 50_000, "smoke"}},
	{Algo: "ddpg", Env: "Pendulum-v1", Bar: matrixBar{-700, 10_000, "smoke"}},
	{Algo: "td3", Env: "Pendulum-v1", Bar: matrixBar{-700, 20_000, "smoke"}},
	{Algo: "redq", Env: "Pendulum-v1", Bar: matrixBar{-700, 10_000, "smoke"}},
	{Algo: "bdqn", Env: "Pendulum-v1", Bar: matrixBar{-700, 30_000, "smoke"}},
	{Algo: "bc", Env: "CartPole-v1", Bar: matrixBar{150, 5000, "smoke"}, Data: &smokeCartPoleData},
	{Algo: "bcq", Env: "CartPole-v1", Bar: matrixBar{150, 5000, "smoke"}, Data: &smokeCartPoleData},
	{Algo: "crr", Env: "CartPole-v1", Bar: matrixBar{150, 5000, "smoke"}, Data: &smokeCartPoleData},
	{Algo: "discrete-cql", Env: "CartPole-v1", Bar: matrixBar{150, 5000, "smoke"}, Data: &smokeCartPoleData},
	{Algo: "bcq-continuous", Env: "Pendulum-v1", Bar: matrixBar{-800, 5000, "smoke"}, Data: &smokePendulumData},
	{Algo: "td3-bc", Env: "Pendulum-v1", Bar: matrixBar{-800, 5000, "smoke"}, Data: &smokePendulumData},
	{Algo: "cql", Env: "Pendulum-v1", Bar: matrixBar{-800, 5000, "smoke"}, Data: &smokePendulumData},
}

// TestSmokeCoversMatrix checks that every algorithm with a pair in the
// matrix has a smoke case, so that a change that stops it learning fails
// go test.
func TestSmokeCoversMatrix(t *testing.T) {
	pairs, _, err := matrixPairs("", "")
	if err != nil {
		t.Fatal(err)
	}
	smoked := map[string]bool{}
	for _, p := range append(slices.Clone(learningSmokePairs), smokePairs...) {
		smoked[p.Algo] = true
	}
	for _, p := range pairs {
		if !smoked[p.Algo] {
			t.Errorf("%s has a matrix pair (%s) but no smoke case", p.Algo, p.Env)
			smoked[p.Algo] = true
		}
	}
}
