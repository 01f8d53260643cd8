package cql_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/cql"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/policy"
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

// TestPreprocessUnmapsActions checks that Preprocess turns the batch's env
// actions into the policy's raw actions, the inverse of Config.Map: with
// clipping and scaling to a Box [−1, 3] (Tianshou's map_action_inverse),
// raw = 2·(e − low)/(high − low) − 1 = (e − 1)/2; without a map they stay
// as they are. It also stores the returns, and leaves the buffer's actions
// alone (the batch holds copies).
func TestPreprocessUnmapsActions(t *testing.T) {
	for _, c := range []struct {
		name string
		m    policy.BoxMapConfig
		raw  func(e float32) float32
	}{
		{"clip and scale", policy.BoxMapConfig{Bound: policy.Clip, Scale: true}, func(e float32) float32 { return (e - 1) / 2 }},
		{"no map", policy.BoxMapConfig{}, func(e float32) float32 { return e }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			act := algotest.Box(t, -1, 3, 2)
			buf := algotest.Collection(t, 2, 20, act, rng)
			cfg := small(8)
			cfg.Map = c.m
			a, err := cql.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
			if err != nil {
				t.Fatal(err)
			}
			b, idx := algotest.Take(t, buf)
			ea, err := b.Array(batch.KeyAct)
			if err != nil {
				t.Fatal(err)
			}
			envAct := slices.Clone(nd.Data[float32](ea))
			if err := a.Preprocess(b, buf, idx); err != nil {
				t.Fatal(err)
			}
			ra, err := b.Array(batch.KeyAct)
			if err != nil {
				t.Fatal(err)
			}
			got := nd.Data[float32](ra)
			for i, e := range envAct {
				if want := c.raw(e); math.Abs(float64(got[i]-want)) > 1e-6 {
					t.Fatalf("action %d: env %v became %v, want %v", i, e, got[i], want)
				}
			}
			if !b.Has("returns") {
				t.Error("no returns stored")
			}
			again, _ := algotest.Take(t, buf)
			if ba, err := again.Array(batch.KeyAct); err != nil || !slices.Equal(nd.Data[float32](ba), envAct) {
				t.Errorf("the buffer's actions changed: %v", err)
			}
		})
	}
}
