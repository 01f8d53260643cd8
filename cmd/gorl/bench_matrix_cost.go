package main

import (
	"cmp"
	"slices"
	"syscall"
	"time"
)

// The matrix's rows beyond the classic-control envs (MuJoCo and MinAtar,
// run with --env), and the order in which --jobs runs the pairs.

// longBars are the bars of the MuJoCo and MinAtar pairs, which are not in
// the default env list (a run takes hours). MuJoCo: Tianshou's MuJoCo
// benchmark (examples/mujoco: the best mean return over 10 seeds within 1M
// steps, 3M for REINFORCE) minus one of its standard deviations. MinAtar:
// the MinAtar paper's DQN at 1M frames (Young & Tian 2019, read off its
// training curves), for DQN and for Rainbow, which the paper does not run.
var longBars = map[string]matrixBar{
	"sac/HalfCheetah-v4":  {12139 - 1567, 1_000_000, "Tianshou 12,139 − 1,567"},
	"sac/Hopper-v4":       {3542.2 - 51.5, 1_000_000, "Tianshou 3,542 − 52"},
	"td3/HalfCheetah-v4":  {10201.2 - 772.8, 1_000_000, "Tianshou 10,201 − 773"},
	"td3/Hopper-v4":       {3472.2 - 116.8, 1_000_000, "Tianshou 3,472 − 117"},
	"ddpg/HalfCheetah-v4": {11718.7 - 465.6, 1_000_000, "Tianshou 11,719 − 466"},
	"ddpg/Hopper-v4":      {2197.0 - 971.6, 1_000_000, "Tianshou 2,197 − 972"},
	"ppo/HalfCheetah-v4":  {5783.9 - 1244.0, 1_000_000, "Tianshou 5,784 − 1,244"},
	"ppo/Hopper-v4":       {2609.3 - 700.8, 1_000_000, "Tianshou 2,609 − 701"},
	"a2c/HalfCheetah-v4":  {1829.9 - 1068.3, 1_000_000, "Tianshou 1,830 − 1,068"},
	"a2c/Hopper-v4":       {1253.2 - 458.0, 1_000_000, "Tianshou 1,253 − 458"},
	"trpo/HalfCheetah-v4": {4471.2 - 804.9, 1_000_000, "Tianshou 4,471 − 805"},
	"trpo/Hopper-v4":      {2046.0 - 1037.9, 1_000_000, "Tianshou 2,046 − 1,038"},
	"npg/HalfCheetah-v4":  {3485.2 - 716.6, 1_000_000, "Tianshou 3,485 − 717"},
	"npg/Hopper-v4":       {1915.2 - 550.5, 1_000_000, "Tianshou 1,915 − 551"},
	"pg/HalfCheetah-v4":   {884.0 - 41.0, 3_000_000, "Tianshou 884 − 41"},
	"pg/Hopper-v4":        {395.8 - 64.5, 3_000_000, "Tianshou 396 − 65"},

	"dqn/Breakout-MinAtar-v0":          {9, 1_000_000, "MinAtar paper's DQN, about 9"},
	"dqn/SpaceInvaders-MinAtar-v0":     {33, 1_000_000, "MinAtar paper's DQN, about 33"},
	"rainbow/Breakout-MinAtar-v0":      {9, 1_000_000, "MinAtar paper's DQN, about 9"},
	"rainbow/SpaceInvaders-MinAtar-v0": {33, 1_000_000, "MinAtar paper's DQN, about 33"},
}

// matrixCPU is the measured cost of one seed of each classic-control pair
// in seconds: seed 0's run time with one core to itself, or the median CPU
// time over the seeds run for a preset changed since (LEARNING.md, "Cost
// of the matrix"). It orders the runs of --jobs: the costliest first, so
// that the runs still going when the others are done are short ones.
var matrixCPU = map[string]float64{
	"a2c/Acrobot-v1":                0.5,
	"a2c/CartPole-v1":               0.2,
	"a2c/MountainCar-v0":            1.9,
	"a2c/MountainCarContinuous-v0":  0.2,
	"a2c/Pendulum-v1":               6.0,
	"bc/CartPole-v1":                0.1,
	"bc/Pendulum-v1":                0.1,
	"bcq/CartPole-v1":               0.4,
	"bcq-continuous/Pendulum-v1":    1.7,
	"bdqn/MountainCarContinuous-v0": 0.8,
	"bdqn/Pendulum-v1":              2.5,
	"c51/Acrobot-v1":                7.6,
	"c51/CartPole-v1":               10.5,
	"c51/MountainCar-v0":            15.6,
	"cql/Pendulum-v1":               8.2,
	"crr/CartPole-v1":               0.1,
	"ddpg/MountainCarContinuous-v0": 14.3,
	"ddpg/Pendulum-v1":              8.6,
	"discrete-cql/CartPole-v1":      2.9,
	"discrete-sac/Acrobot-v1":       1.1,
	"discrete-sac/CartPole-v1":      7.9,
	"discrete-sac/MountainCar-v0":   6.0,
	"dqn/Acrobot-v1":                32.3,
	"dqn/CartPole-v1":               11.7,
	"dqn/MountainCar-v0":            36.3,
	"fqf/Acrobot-v1":                15.6,
	"fqf/CartPole-v1":               16.9,
	"fqf/MountainCar-v0":            31.7,
	"icm-dqn/Acrobot-v1":            3.7,
	"icm-dqn/CartPole-v1":           9.8,
	"icm-dqn/MountainCar-v0":        7.5,
	"iqn/Acrobot-v1":                12.2,
	"iqn/CartPole-v1":               12.8,
	"iqn/MountainCar-v0":            37.4,
	"npg/Acrobot-v1":                4.1,
	"npg/CartPole-v1":               8.7,
	"npg/MountainCar-v0":            13,
	"npg/MountainCarContinuous-v0":  6.1,
	"npg/Pendulum-v1":               5.4,
	"pg/Acrobot-v1":                 0.6,
	"pg/CartPole-v1":                0.3,
	"pg/MountainCar-v0":             3.5,
	"pg/MountainCarContinuous-v0":   0.9,
	"pg/Pendulum-v1":                2.3,
	"ppo/Acrobot-v1":                0.9,
	"ppo/CartPole-v1":               0.5,
	"ppo/MountainCar-v0":            0.7,
	"ppo/MountainCarContinuous-v0":  0.3,
	"ppo/Pendulum-v1":               0.4,
	"qrdqn/Acrobot-v1":              9.4,
	"qrdqn/CartPole-v1":             11.4,
	"qrdqn/MountainCar-v0":          12.3,
	"r2d2/Acrobot-v1":               9.1,
	"r2d2/CartPole-v1":              30.4,
	"r2d2/MountainCar-v0":           15.5,
	"rainbow/Acrobot-v1":            17.4,
	"rainbow/CartPole-v1":           7.2,
	"rainbow/MountainCar-v0":        13.0,
	"redq/MountainCarContinuous-v0": 15.9,
	"redq/Pendulum-v1":              3.3,
	"rppo/Acrobot-v1":               2.0,
	"rppo/CartPole-v1":              5.2,
	"rppo/MountainCar-v0":           20.1,
	"rppo/MountainCarContinuous-v0": 0.9,
	"rppo/Pendulum-v1":              6.9,
	"sac/MountainCarContinuous-v0":  16.2,
	"sac/Pendulum-v1":               5.9,
	"td3/MountainCarContinuous-v0":  9.7,
	"td3/Pendulum-v1":               9.3,
	"td3-bc/Pendulum-v1":            3.6,
	"trpo/Acrobot-v1":               3.9,
	"trpo/CartPole-v1":              7.4,
	"trpo/MountainCar-v0":           4.5,
	"trpo/MountainCarContinuous-v0": 18.0,
	"trpo/Pendulum-v1":              8.2,
}

// matrixCost estimates the CPU seconds of one seed of p: its measured
// figure, else one second per 10,000 steps of its budget.
func matrixCost(p matrixPair) float64 {
	if c, ok := matrixCPU[p.Algo+"/"+p.Env]; ok {
		return c
	}
	return float64(p.Bar.Steps) / 10_000
}

// matrixSchedule returns the indices of pairs, costliest first (longest
// processing time first), ties in the order of pairs.
func matrixSchedule(pairs []matrixPair) []int {
	idx := make([]int, len(pairs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(matrixCost(pairs[b]), matrixCost(pairs[a])) })
	return idx
}

// processCPU returns the user and system time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// totalCPU sums the CPU time of the runs of outs.
func totalCPU(outs []pairOutcome) time.Duration {
	var s float64
	for _, po := range outs {
		for _, r := range po.Results {
			s += r.CPU
		}
	}
	return time.Duration(s * float64(time.Second))
}
