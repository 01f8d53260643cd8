package gail_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/gail"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
)

// expertOf returns a buffer holding the one transition obs → next with
// action act.
func expertOf[T any](t testing.TB, obs []float32, act T) buffer.Buffer {
	buf, err := buffer.New(buffer.Config{Size: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := batch.MustNew("obs", obs, "act", act, "rew", 0.0, "terminated", false, "truncated", false, "obs_next", obs)
	if _, err := buf.Add(b, nil, nil); err != nil {
		t.Fatal(err)
	}
	return buf
}

func softplus(x float64) float64 { return math.Log1p(math.Exp(x)) }

// TestDiscriminatorLoss checks the discriminator's loss, accuracies and
// rewards on the five transitions of algotest.Five with Discrete(3)
// actions 0, 2, 1, 1, 0 against one expert transition ((0.3, −0.6),
// action 2), for a linear discriminator (no hidden layer) whose logits the
// test computes from its weights: d = w·[obs, onehot(a)] + b,
// L_D = mean softplus(d_π) + mean softplus(−d_E), r = softplus(d_π).
func TestDiscriminatorLoss(t *testing.T) {
	cfg := gail.DiscreteConfig()
	cfg.DiscHidden, cfg.DiscUpdateNum = nil, 1
	eObs := []float32{0.3, -0.6}
	g, err := gail.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, 3, 0), expertOf(t, eObs, int64(2)), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ps := g.Discriminator().Clone()
	w, b := ps.Lookup("0.weight").Data(), float64(ps.Lookup("0.bias").Data()[0])
	logit := func(obs []float32, a int) float64 {
		d := b + float64(w[2+a])
		for j, x := range obs {
			d += float64(w[j]) * float64(x)
		}
		return d
	}
	tr := algotest.Five()
	acts := []int64{0, 2, 1, 1, 0}
	var lossPi, rew, accPi float64
	for i, o := range tr.Obs {
		d := logit(o, int(acts[i]))
		lossPi += softplus(d) / 5
		rew += softplus(d) / 5
		if d < 0 {
			accPi += 0.2
		}
	}
	de := logit(eObs, 2)
	wantLoss := lossPi + softplus(-de)
	wantAccExp := 0.0
	if de > 0 {
		wantAccExp = 1
	}
	bt := algotest.Preprocessed(t, g, tr, acts)
	st, err := g.UpdateRepeat(bt, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		want float64
	}{{"disc/loss", wantLoss}, {"disc/reward", rew}, {"disc/acc_pi", accPi}, {"disc/acc_exp", wantAccExp}} {
		if got := st[c.key]; math.Abs(got-c.want) > 1e-5 {
			t.Errorf("%s = %v; want %v", c.key, got, c.want)
		}
	}
	if _, ok := st["clip_loss"]; !ok {
		t.Error("PPO's statistics are missing")
	}
	if algotest.EqualParams(ps, g.Discriminator()) {
		t.Error("the discriminator did not change")
	}
}

// TestRewardsReachGAE checks that PPO's returns are computed from the
// discriminator's rewards: with γ = λ = 0 the advantage of a transition is
// r − V(s), so its return (advantage plus value) is r = softplus(d).
func TestRewardsReachGAE(t *testing.T) {
	cfg := gail.DiscreteConfig()
	cfg.Gamma, cfg.GAELambda, cfg.DiscHidden = 0, 0, nil
	eObs := []float32{0.3, -0.6}
	g, err := gail.New(cfg, algotest.Box(t, -10, 10, 2), algotest.Discrete(t, 3, 0), expertOf(t, eObs, int64(2)), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ps := g.Discriminator()
	w, b := ps.Lookup("0.weight").Data(), float64(ps.Lookup("0.bias").Data()[0])
	tr := algotest.Five()
	acts := []int64{0, 2, 1, 1, 0}
	bt := algotest.Preprocessed(t, g, tr, acts)
	ret, err := batch.Values[float32](bt, batch.KeyReturns)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range tr.Obs {
		d := b + float64(w[2+acts[i]]) + float64(w[0])*float64(o[0]) + float64(w[1])*float64(o[1])
		if math.Abs(float64(ret[i])-softplus(d)) > 1e-5 {
			t.Errorf("transition %d: return %v; want the reward softplus(d) = %v", i, ret[i], softplus(d))
		}
	}
}

func TestCheckOnPolicy(t *testing.T) {
	newGAIL := func(hidden int) func(t testing.TB, act env.Space, rng *rand.Rand) *gail.GAIL {
		return func(t testing.TB, act env.Space, rng *rand.Rand) *gail.GAIL {
			cfg := gail.DiscreteConfig()
			if _, ok := act.(*env.Box); ok {
				cfg = gail.DefaultConfig()
			}
			cfg.Net.Hidden, cfg.DiscHidden = []int{hidden}, []int{hidden}
			expert := algotest.Collection(t, 2, 20, act, rand.New(rand.NewPCG(9, 9)))
			g, err := gail.New(cfg, algotest.Box(t, -10, 10, 4), act, expert, rng)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
	}
	algotest.CheckOnPolicy(t, algotest.OnPolicy[*gail.GAIL]{
		New: newGAIL(16),
		Params: func(g *gail.GAIL) nn.Params {
			return append(g.Discriminator().Clone(), g.Net.Params()...)
		},
		Other: func(t testing.TB, act env.Space) *gail.GAIL { return newGAIL(8)(t, act, rand.New(rand.NewPCG(1, 1))) },
	})
}

func TestRejects(t *testing.T) {
	box, two := algotest.Box(t, -1, 1, 2), algotest.Discrete(t, 2, 0)
	good := expertOf(t, []float32{0, 0}, int64(1))
	for _, c := range []struct {
		name   string
		edit   func(*gail.Config)
		obs    env.Space
		expert buffer.Buffer
		want   string
	}{
		{"disc updates 0", func(c *gail.Config) { c.DiscUpdateNum = 0 }, box, good, "disc_update_num"},
		{"hidden 0", func(c *gail.Config) { c.DiscHidden = []int{0} }, box, good, "disc_hidden"},
		{"eps_clip 2", func(c *gail.Config) { c.EpsClip = 2 }, box, good, "eps_clip"},
		{"Discrete observations", func(*gail.Config) {}, two, good, "Discrete(2)"},
		{"no expert", func(*gail.Config) {}, box, nil, "no expert"},
		{"expert of other observations", func(*gail.Config) {}, box, expertOf(t, []float32{0, 0, 0}, int64(1)), "[N, 2]"},
		{"expert action outside", func(*gail.Config) {}, box, expertOf(t, []float32{0, 0}, int64(5)), "outside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := gail.DiscreteConfig()
			c.edit(&cfg)
			_, err := gail.New(cfg, c.obs, two, c.expert, rand.New(rand.NewPCG(1, 1)))
			if !errors.Is(err, gail.ErrConfig) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v; want ErrConfig naming %q", err, c.want)
			}
		})
	}
}
