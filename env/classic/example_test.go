package classic_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/env/classic"
)

// An episode of CartPole under a hand-written policy that pushes the cart towards the side the
// pole is falling to, cut at the time limit as Gymnasium's TimeLimit wrapper would.
func ExampleCartPole() {
	env := classic.NewCartPole()
	env.Reset(rand.New(rand.NewPCG(1, 2)))
	obs := make([]float32, 4)
	env.Observe(obs)
	fmt.Printf("start: x %.3f θ %.3f\n", obs[0], obs[2])

	ret, steps := 0.0, 0
	for steps < classic.CartPoleMaxEpisodeSteps {
		action := 0
		if obs[2]+0.5*obs[3] > 0 { // the pole falls right: push right
			action = 1
		}
		r, terminated, err := env.Step(action)
		if err != nil {
			fmt.Println(err)
			return
		}
		ret += r
		steps++
		env.Observe(obs)
		if terminated {
			break
		}
	}
	fmt.Printf("return %.0f after %d steps (solved at %.0f)\n", ret, steps, classic.CartPoleRewardThreshold)
	// Output:
	// start: x 0.018 θ 0.001
	// return 500 after 500 steps (solved at 475)
}

// MountainCar solved by pushing in the direction the car already moves, which pumps energy into
// the swing.
func ExampleMountainCar() {
	env := classic.NewMountainCar()
	env.Reset(rand.New(rand.NewPCG(1, 2)))
	obs := make([]float32, 2)
	env.Observe(obs)
	fmt.Printf("start at %.3f\n", obs[0])
	ret := 0.0
	for steps := 1; steps <= classic.MountainCarMaxEpisodeSteps; steps++ {
		action := 0
		if obs[1] >= 0 {
			action = 2
		}
		r, terminated, _ := env.Step(action)
		ret += r
		env.Observe(obs)
		if terminated {
			fmt.Printf("flag reached at %.3f after %d steps, return %.0f\n", obs[0], steps, ret)
			return
		}
	}
	fmt.Println("time limit reached")
	// Output:
	// start at -0.465
	// flag reached at 0.508 after 122 steps, return -122
}

// MountainCarContinuous with the same energy-pumping policy at full force: each step costs
// 0.1·a² and reaching the flag earns 100.
func ExampleMountainCarContinuous() {
	env := classic.NewMountainCarContinuous()
	env.Reset(rand.New(rand.NewPCG(1, 2)))
	obs := make([]float32, 2)
	ret := 0.0
	for steps := 1; steps <= classic.MountainCarContinuousMaxEpisodeSteps; steps++ {
		env.Observe(obs)
		action := float32(-1)
		if obs[1] >= 0 {
			action = 1
		}
		r, terminated, _ := env.Step(action)
		ret += r
		if terminated {
			fmt.Printf("flag reached after %d steps, return %.3f\n", steps, ret)
			return
		}
	}
	// Output:
	// flag reached after 105 steps, return 89.500
}

// Pendulum from a set state: the observation is [cos θ, sin θ, θ̇] and the reward penalizes the
// angle from upright, the speed and the torque.
func ExamplePendulum() {
	env := classic.NewPendulum()
	if err := env.SetState([]float64{0.5, 0}); err != nil {
		fmt.Println(err)
		return
	}
	obs := make([]float32, 3)
	for range 3 {
		// Full torque clockwise, towards upright, is weaker than gravity at 0.5 rad:
		// θ̇ += (15·sin θ − 6)·0.05 per step.
		r, _, _ := env.Step(-2)
		env.Observe(obs)
		fmt.Printf("obs [%.3f %.3f %.3f] reward %.3f\n", obs[0], obs[1], obs[2], r)
	}
	low, high := env.ActionBounds()
	fmt.Printf("torque in [%.1f, %.1f]\n", low, high)
	// Output:
	// obs [0.876 0.482 0.060] reward -0.254
	// obs [0.873 0.487 0.121] reward -0.257
	// obs [0.869 0.495 0.187] reward -0.265
	// torque in [-2.0, 2.0]
}

// Acrobot under random actions: the episode would be cut at AcrobotMaxEpisodeSteps.
func ExampleAcrobot() {
	env := classic.NewAcrobot()
	rng := rand.New(rand.NewPCG(1, 2))
	env.Reset(rng)
	obs := make([]float32, 6)
	ret := 0.0
	for range 100 {
		r, terminated, _ := env.Step(rng.IntN(env.NumActions()))
		ret += r
		if terminated {
			break
		}
	}
	env.Observe(obs)
	fmt.Printf("return %.0f, cos θ₁ %.3f, θ̇₁ %.3f\n", ret, obs[0], obs[4])
	// Output:
	// return -100, cos θ₁ 0.883, θ̇₁ 2.575
}
