package fqf_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/fqf"
)

func small(hidden int) fqf.Config {
	cfg := fqf.DefaultConfig()
	cfg.Hidden, cfg.HeadHidden, cfg.Cosines, cfg.TargetUpdateFreq = []int{hidden, hidden}, []int{hidden}, 8, 4
	cfg.NumFractions, cfg.FractionOptim.LR = 5, 1e-2 // a rate that moves the proposal within the checks
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(fqf.New, small, algotest.Discrete(t, 3, 0), (*fqf.FQF).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, fqf.DefaultConfig, fqf.New, fqf.ErrConfig, algotest.Discrete(t, 3, 0), []algotest.Reject[fqf.Config]{
		{Name: "hidden", Edit: func(c *fqf.Config) { c.Hidden = []int{64, -1} }, Want: "hidden"},
		{Name: "num_fractions", Edit: func(c *fqf.Config) { c.NumFractions = 0 }, Want: "num_fractions"},
		{Name: "ent_coef", Edit: func(c *fqf.Config) { c.EntCoef = -1 }, Want: "ent_coef"},
		{Name: "fraction lr", Edit: func(c *fqf.Config) { c.FractionOptim.LR = -1 }, Want: "fraction_optim"},
		{Name: "n_step", Edit: func(c *fqf.Config) { c.NStep = 0 }, Want: "n_step"},
	}, algotest.Box(t, -2, 2, 2))
}
