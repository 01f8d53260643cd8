package iqn_test

import (
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/iqn"
)

func small(hidden int) iqn.Config {
	cfg := iqn.DefaultConfig()
	cfg.Hidden, cfg.Cosines, cfg.TargetUpdateFreq = []int{hidden, hidden}, 8, 4
	cfg.SampleSize, cfg.OnlineSampleSize, cfg.TargetSampleSize = 6, 4, 5
	return cfg
}

func TestCheckOffPolicy(t *testing.T) {
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(iqn.New, small, algotest.Discrete(t, 3, 0), (*iqn.IQN).Params))
}

func TestCheckOffPolicyNoTarget(t *testing.T) {
	none := func(h int) iqn.Config {
		c := small(h)
		c.TargetUpdateFreq, c.Double, c.HeadHidden = 0, false, []int{h}
		return c
	}
	algotest.CheckOffPolicy(t, algotest.SmallOffPolicy(iqn.New, none, algotest.Discrete(t, 2, 1), (*iqn.IQN).Params))
}

func TestNewRejects(t *testing.T) {
	algotest.CheckRejects(t, iqn.DefaultConfig, iqn.New, iqn.ErrConfig, algotest.Discrete(t, 3, 0), []algotest.Reject[iqn.Config]{
		{Name: "hidden", Edit: func(c *iqn.Config) { c.Hidden = nil }, Want: "hidden"},
		{Name: "head_hidden", Edit: func(c *iqn.Config) { c.HeadHidden = []int{0} }, Want: "head_hidden"},
		{Name: "num_cosines", Edit: func(c *iqn.Config) { c.Cosines = 0 }, Want: "num_cosines"},
		{Name: "sample sizes", Edit: func(c *iqn.Config) { c.TargetSampleSize = 0 }, Want: "sample sizes"},
		{Name: "gamma", Edit: func(c *iqn.Config) { c.Gamma = -1 }, Want: "gamma"},
		{Name: "kappa", Edit: func(c *iqn.Config) { c.Kappa = -0.5 }, Want: "kappa"},
	}, algotest.Box(t, -2, 2, 2))
}
