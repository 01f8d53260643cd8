package sac_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/sac"
)

func small(hidden int) sac.Config {
	cfg := sac.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.Tau = []int{hidden}, []int{hidden}, 0.1
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(sac.New, small, algotest.Box(t, -2, 2, 2), (*sac.SAC).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, sac.DefaultConfig, sac.New, sac.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[sac.Config]{
		{Name: "tau 0", Edit: func(c *sac.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "tau above 1", Edit: func(c *sac.Config) { c.Tau = 1.01 }, Want: "tau"},
		{Name: "alpha", Edit: func(c *sac.Config) { c.Alpha = 0 }, Want: "alpha"},
		{Name: "gamma", Edit: func(c *sac.Config) { c.Gamma = -1 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *sac.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "actor_hidden", Edit: func(c *sac.Config) { c.ActorHidden = []int{0} }, Want: "actor_hidden"},
		{Name: "bound", Edit: func(c *sac.Config) { c.Map.Bound = "wrap" }, Want: "map"},
	}, algotest.Discrete(t, 3, 0))
}
