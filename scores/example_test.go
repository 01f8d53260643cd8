package scores_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/scores"
)

func ExampleBootstrap() {
	// Final test returns of five seeds on one env.
	returns := [][]float64{{500, 480, 210, 500, 455}}
	iv, err := scores.Bootstrap(returns, scores.IQM, scores.BootstrapConfig{}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		panic(err)
	}
	fmt.Printf("IQM %.3f, 95%% CI [%.3f, %.3f]\n", iv.Estimate, iv.Lo, iv.Hi)
	// Output:
	// IQM 478.333, 95% CI [291.667, 500.000]
}

func ExampleProbabilityOfImprovement() {
	ppo := [][]float64{{500, 480, 500}}
	dqn := [][]float64{{300, 480, 210}}
	p, err := scores.ProbabilityOfImprovement(ppo, dqn)
	if err != nil {
		panic(err)
	}
	fmt.Printf("P(PPO > DQN) = %.3f\n", p)
	// Output: P(PPO > DQN) = 0.944
}

func ExampleRange() {
	// CartPole-v1: a random policy's return and Gymnasium's threshold.
	r := scores.Range{Random: 22.6, Target: 475}
	fmt.Printf("%.3f\n", r.Normalize(400))
	// Output: 0.834
}
