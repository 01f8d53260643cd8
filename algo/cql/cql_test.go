package cql_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/cql"
)

func small(hidden int) cql.Config {
	cfg := cql.DefaultConfig()
	cfg.ActorHidden, cfg.Critic.Hidden, cfg.Tau, cfg.NumRepeatActions = []int{hidden}, []int{hidden}, 0.1, 4
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(cql.New, small, algotest.Box(t, -2, 2, 2), (*cql.CQL).Params))
}

// TestNewRejects checks the configuration errors and that continuous CQL
// refuses a Discrete action space, naming it.
func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, cql.DefaultConfig, cql.New, cql.ErrConfig, algotest.Box(t, -1, 1, 2), []algotest.Reject[cql.Config]{
		{Name: "tau", Edit: func(c *cql.Config) { c.Tau = 0 }, Want: "tau"},
		{Name: "alpha", Edit: func(c *cql.Config) { c.Alpha = -1 }, Want: "alpha"},
		{Name: "cql_weight", Edit: func(c *cql.Config) { c.CQLWeight = 0 }, Want: "cql_weight"},
		{Name: "cql_temperature", Edit: func(c *cql.Config) { c.CQLTemperature = -1 }, Want: "cql_temperature"},
		{Name: "num_repeat_actions", Edit: func(c *cql.Config) { c.NumRepeatActions = 0 }, Want: "num_repeat_actions"},
		{Name: "alpha bounds", Edit: func(c *cql.Config) { c.CQLAlphaMin = 2; c.CQLAlphaMax = 1 }, Want: "cql_alpha_min"},
		{Name: "cql lr", Edit: func(c *cql.Config) { c.CQLAlphaOptim.LR = -1 }, Want: "cql_alpha_optim"},
	}, algotest.Discrete(t, 3, 0))
}
