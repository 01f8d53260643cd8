package ddpg_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ddpg"
)

func small(hidden int) ddpg.Config {
	cfg := ddpg.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.Tau = []int{hidden}, []int{hidden}, 0.1
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(ddpg.New, small, algotest.Box(t, -2, 2, 2), (*ddpg.DDPG).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, ddpg.DefaultConfig, ddpg.New, ddpg.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[ddpg.Config]{
		{Name: "tau 0", Edit: func(c *ddpg.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "tau above 1", Edit: func(c *ddpg.Config) { c.Tau = 1.5 }, Want: "tau"},
		{Name: "negative noise", Edit: func(c *ddpg.Config) { c.Noise.Sigma = -0.1 }, Want: "sigma"},
		{Name: "unknown noise", Edit: func(c *ddpg.Config) { c.Noise.Kind = "pink" }, Want: "noise kind"},
		{Name: "gamma", Edit: func(c *ddpg.Config) { c.Gamma = 2 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *ddpg.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "max_action", Edit: func(c *ddpg.Config) { c.MaxAction = 0 }, Want: "max_action"},
	}, algotest.Discrete(t, 3, 0))
}
