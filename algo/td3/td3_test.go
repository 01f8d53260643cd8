package td3_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/td3"
)

func small(hidden int) td3.Config {
	cfg := td3.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.Tau = []int{hidden}, []int{hidden}, 0.1
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(td3.New, small, algotest.Box(t, -2, 2, 2), (*td3.TD3).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, td3.DefaultConfig, td3.New, td3.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[td3.Config]{
		{Name: "tau 0", Edit: func(c *td3.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "tau above 1", Edit: func(c *td3.Config) { c.Tau = 1.5 }, Want: "tau"},
		{Name: "negative noise", Edit: func(c *td3.Config) { c.Noise.Sigma = -0.1 }, Want: "sigma"},
		{Name: "unknown noise", Edit: func(c *td3.Config) { c.Noise.Kind = "pink" }, Want: "noise kind"},
		{Name: "gamma", Edit: func(c *td3.Config) { c.Gamma = 2 }, Want: "gamma"},
		{Name: "n_step", Edit: func(c *td3.Config) { c.NStep = 0 }, Want: "n_step"},
		{Name: "max_action", Edit: func(c *td3.Config) { c.MaxAction = 0 }, Want: "max_action"},
	}, algotest.Discrete(t, 3, 0))
}
