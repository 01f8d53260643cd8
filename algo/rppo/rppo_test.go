package rppo_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic"
	"github.com/gorl/gorl/env/vector"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		cell     string
		separate bool
	}{{rppo.CellGRU, false}, {rppo.CellLSTM, false}, {rppo.CellLSTM, true}} {
		t.Run(fmt.Sprintf("%s/separate=%v", c.cell, c.separate), func(t *testing.T) {
			mk := func(hidden int) func(t testing.TB, act env.Space, rng *rand.Rand) *rppo.RPPO {
				return func(t testing.TB, act env.Space, rng *rand.Rand) *rppo.RPPO {
					cfg := rppo.DefaultConfig()
					cfg.Hidden, cfg.SeqLen, cfg.Cell, cfg.SeparateTrunks = hidden, 8, c.cell, c.separate
					r, err := rppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rng)
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
			}
			algotest.CheckOnPolicy(t, algotest.OnPolicy[*rppo.RPPO]{
				New:    mk(16),
				Params: func(r *rppo.RPPO) nn.Params { return r.Net().Params() },
				Other: func(t testing.TB, act env.Space) *rppo.RPPO {
					return mk(8)(t, act, rand.New(rand.NewPCG(1, 1)))
				},
				Acts: []env.Space{algotest.Discrete(t, 2, 0), algotest.Discrete(t, 3, 1), algotest.Box(t, -2, 2, 2)},
			})
		})
	}
}

// TestNewRefuses checks that New names what it cannot take: each invalid
// field of the config, and spaces other than a Box of one axis and a
// Discrete or a Box of one axis.
func TestNewRefuses(t *testing.T) {
	obs, act := algotest.Box(t, -1, 1, 4), algotest.Discrete(t, 2, 0)
	img, err := env.NewBox(0.0, 1.0, []int{2, 2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	unbounded, err := env.NewBox(math.Inf(-1), math.Inf(1), []int{2}, nd.Float32)
	if err != nil {
		t.Fatal(err)
	}
	set := func(f func(*rppo.Config)) rppo.Config { c := rppo.DefaultConfig(); f(&c); return c }
	cases := []struct {
		name     string
		cfg      rppo.Config
		obs, act env.Space
	}{
		{"hidden", set(func(c *rppo.Config) { c.Hidden = 0 }), obs, act},
		{"seq_len", set(func(c *rppo.Config) { c.SeqLen = 0 }), obs, act},
		{"gamma", set(func(c *rppo.Config) { c.Gamma = 1.5 }), obs, act},
		{"gae_lambda", set(func(c *rppo.Config) { c.GAELambda = -1 }), obs, act},
		{"eps_clip", set(func(c *rppo.Config) { c.EpsClip = 1 }), obs, act},
		{"vf_coef", set(func(c *rppo.Config) { c.VFCoef = math.NaN() }), obs, act},
		{"ent_coef", set(func(c *rppo.Config) { c.EntCoef = -1 }), obs, act},
		{"head_hidden", set(func(c *rppo.Config) { c.HeadHidden = []int{0} }), obs, act},
		{"lr", set(func(c *rppo.Config) { c.Training.Optim.LR = -1 }), obs, act},
		{"cell", set(func(c *rppo.Config) { c.Cell = "rnn" }), obs, act},
		{"reward_scale", set(func(c *rppo.Config) { c.RewardScale = 0 }), obs, act},
		{"action_map", set(func(c *rppo.Config) { c.ActionMap.Bound = "sigmoid" }), obs, algotest.Box(t, -1, 1, 2)},
		{"use_sde with Discrete actions", set(func(c *rppo.Config) { c.SDE = true }), obs, act},
		{"sde_sample_freq", set(func(c *rppo.Config) { c.SDE, c.SDESampleFreq = true, -1 }), obs, algotest.Box(t, -1, 1, 2)},
		{"sde_sample_freq without use_sde", set(func(c *rppo.Config) { c.SDESampleFreq = 4 }), obs, algotest.Box(t, -1, 1, 2)},
		{"log_std_init NaN", set(func(c *rppo.Config) { c.LogStdInit = math.NaN() }), obs, algotest.Box(t, -1, 1, 2)},
		{"log_std_init infinite", set(func(c *rppo.Config) { c.SDE, c.LogStdInit = true, math.Inf(1) }), obs, algotest.Box(t, -1, 1, 2)},
		{"unbounded Box actions scaled", rppo.DefaultConfig(), obs, unbounded},
		{"image actions", rppo.DefaultConfig(), obs, img},
		{"image observations", rppo.DefaultConfig(), img, act},
		{"Discrete observations", rppo.DefaultConfig(), act, act},
	}
	for _, c := range cases {
		if _, err := rppo.New(c.cfg, c.obs, c.act, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, rppo.ErrConfig) {
			t.Errorf("%s: error %v; want ErrConfig", c.name, err)
		}
	}
}

// TestStoredStatesAgree collects with the recurrent policy on
// CartPoleNoVel-v1 and PendulumNoVel-v1 and recomputes the hidden states
// from the stored ones, for each cell, shared and separate trunks: stepping
// the trunks from the state stored at a chunk's first row through the
// chunk gives, after each step, the state the collector stored for that row
// (policy.hidden_state) and the one the policy acted from at the next row
// (policy.state_in), within float32 rounding of a batch of one row versus
// a batch of several. Every chunk starts from zero at an episode's first
// step.
func TestStoredStatesAgree(t *testing.T) {
	for _, c := range []struct {
		env, cell string
		separate  bool
		width     int // the state values of a row, from the cells' definitions
	}{
		{"CartPoleNoVel-v1", rppo.CellGRU, false, 64},
		{"CartPoleNoVel-v1", rppo.CellLSTM, false, 128},
		{"CartPoleNoVel-v1", rppo.CellLSTM, true, 256},
		{"PendulumNoVel-v1", rppo.CellGRU, true, 128},
		{"PendulumNoVel-v1", rppo.CellLSTM, false, 128},
	} {
		name := fmt.Sprintf("%s/%s/separate=%v", c.env, c.cell, c.separate)
		t.Run(name, func(t *testing.T) {
			cfg := rppo.DefaultConfig()
			cfg.SeqLen, cfg.Cell, cfg.SeparateTrunks = 7, c.cell, c.separate
			storedStatesAgree(t, c.env, cfg, c.width)
		})
	}
}

func storedStatesAgree(t *testing.T, id string, cfg rppo.Config, width int) {
	const envs, steps = 3, 60
	var es []env.Env
	for range envs {
		e, err := env.Make(id)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	v, err := vector.NewSync(es)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	r, err := rppo.New(cfg, es[0].ObservationSpace(), es[0].ActionSpace(), rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	buf, err := buffer.NewVector(buffer.Config{Size: envs * steps}, envs)
	if err != nil {
		t.Fatal(err)
	}
	r.Policy().SetTrainingStep(true)
	c, err := collector.New(collector.Config{Env: v, Policy: r.Policy(), Buffer: buf, Explore: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Collect(context.Background(), collector.Request{NStep: envs * steps}); err != nil {
		t.Fatal(err)
	}
	b, idx := algotest.Take(t, buf)
	pd, err := b.Batch(batch.KeyPolicy)
	if err != nil {
		t.Fatal(err)
	}
	sIn, err := pd.Array(rppo.KeyStateIn)
	if err != nil {
		t.Fatal(err)
	}
	sOut, err := pd.Array(batch.KeyHiddenState)
	if err != nil {
		t.Fatal(err)
	}
	obs, _ := b.Array(batch.KeyObs)
	n, w := len(idx), r.Net().StateWidth()
	if w != width {
		t.Fatalf("state width %d; want %d", w, width)
	}
	next := make([]int, n)
	buf.NextTo(next, idx)
	var prev []int = make([]int, n)
	buf.PrevTo(prev, idx)
	var ch actorcritic.Chunks
	ch.Split(idx, next, cfg.SeqLen)
	in, out, o := nd.Data[float32](sIn), nd.Data[float32](sOut), nd.Data[float32](obs)
	var tp tensor.Tape
	tp.SetGradEnabled(false)
	episodeStarts, checked := 0, 0
	for k := range ch.Count() {
		s := ch.Start[k]
		if prev[s] == idx[s] {
			// An episode's first step (every episode starts within the
			// collection): zero state.
			episodeStarts++
			for _, x := range in[s*w : (s+1)*w] {
				if x != 0 {
					t.Fatalf("chunk %d starts an episode with a nonzero stored state", k)
				}
			}
		}
		h := tensor.New(1, w)
		copy(h.Data(), in[s*w:(s+1)*w])
		for j := range ch.Len[k] {
			row := s + j
			x := tensor.New(1, 2)
			copy(x.Data(), o[row*2:(row+1)*2])
			tp.Reset()
			h2 := r.Net().Step(&tp, x, h)
			h = tensor.New(1, w)
			copy(h.Data(), h2.Data())
			for i := range w {
				if d := math.Abs(float64(h.Data()[i] - out[row*w+i])); d > 1e-5 {
					t.Fatalf("chunk %d step %d: recomputed state %v, stored %v", k, j, h.Data()[i], out[row*w+i])
				}
				if j+1 < ch.Len[k] {
					if d := math.Abs(float64(h.Data()[i] - in[(row+1)*w+i])); d > 1e-5 {
						t.Fatalf("chunk %d step %d: recomputed state %v, next stored input %v", k, j, h.Data()[i], in[(row+1)*w+i])
					}
				}
			}
			checked++
		}
	}
	if checked != n || episodeStarts < envs {
		t.Errorf("checked %d of %d rows, %d episode starts", checked, n, episodeStarts)
	}
}

// TestUpdateNeedsPreprocess checks that an update without its Preprocess is
// refused.
func TestUpdateNeedsPreprocess(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	r, err := rppo.New(rppo.DefaultConfig(), algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := algotest.Take(t, algotest.Collection(t, 2, 10, act, rand.New(rand.NewPCG(3, 4))))
	if _, err := r.UpdateRepeat(b, 32, 1); err == nil {
		t.Error("UpdateRepeat before Preprocess: no error")
	}
}

// TestFirstStepLoss checks the masked losses of an update of one minibatch
// of every sequence against values worked out from Preprocess's columns:
// before the step the policy is the one Preprocess evaluated, so the ratio
// is 1 and the clip loss is −mean(Â) over the valid steps, 0 for normalized
// advantages; the value loss is mean((V − G)²) over the N transitions with V
// the stored "v_s". Counting a padded step, or values of the padded unroll
// that differ from the packed one, changes the figures.
func TestFirstStepLoss(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	for _, seqLen := range []int{1, 5, 16} {
		cfg := rppo.DefaultConfig()
		cfg.SeqLen = seqLen
		r, err := rppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		buf := algotest.Collection(t, 4, 25, act, rand.New(rand.NewPCG(3, 4)))
		b, idx := algotest.Take(t, buf)
		if err := r.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		vs, _ := b.Array(batch.KeyVS)
		ret, _ := b.Array(batch.KeyReturns)
		var want float64
		for i, v := range nd.Data[float32](vs) {
			d := float64(v - nd.Data[float32](ret)[i])
			want += d * d
		}
		want /= float64(len(idx))
		st, err := r.UpdateRepeat(b, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(st["vf_loss"]-want) > 1e-4*max(1, want) {
			t.Errorf("seq_len %d: vf_loss %v; want %v", seqLen, st["vf_loss"], want)
		}
		if math.Abs(st["clip_loss"]) > 1e-5 {
			t.Errorf("seq_len %d: clip_loss %v; want 0 (ratio 1, normalized advantages)", seqLen, st["clip_loss"])
		}
		if e := st["entropy"]; !(e > 0 && e <= math.Ln2+1e-6) {
			t.Errorf("seq_len %d: entropy %v outside (0, ln 2]", seqLen, e)
		}
	}
}

// TestRewardScale checks that RewardScale scales the rewards the targets
// are computed from: with γ = 0 the return of a step is its scaled reward,
// s·1 for the test collection's rewards of 1, and the advantage is that
// return minus the stored value V(sₜ) (GAE with γ = 0: δₜ = s·rₜ − V(sₜ)).
func TestRewardScale(t *testing.T) {
	act := algotest.Discrete(t, 2, 0)
	for _, s := range []float64{1, 0.1, 3} {
		cfg := rppo.DefaultConfig()
		cfg.Gamma, cfg.RewardScale = 0, s
		r, err := rppo.New(cfg, algotest.Box(t, -10, 10, 4), act, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		buf := algotest.Collection(t, 2, 20, act, rand.New(rand.NewPCG(3, 4)))
		b, idx := algotest.Take(t, buf)
		if err := r.Preprocess(b, buf, idx); err != nil {
			t.Fatal(err)
		}
		vs, _ := b.Array(batch.KeyVS)
		ret, _ := b.Array(batch.KeyReturns)
		adv, _ := b.Array(batch.KeyAdv)
		for i, g := range nd.Data[float32](ret) {
			v, a := nd.Data[float32](vs)[i], nd.Data[float32](adv)[i]
			if math.Abs(float64(g)-s) > 1e-6 || math.Abs(float64(a-(g-v))) > 1e-5 {
				t.Fatalf("reward_scale %v, row %d: return %v, advantage %v, value %v; want return %v, advantage return − value", s, i, g, a, v, s)
			}
		}
	}
}

// TestNetLayout checks the networks each option builds: the trunks'
// parameters by name and shape (PyTorch's cell layouts: 3·hidden rows for
// a GRU, 4·hidden for an LSTM), which of them the policy acts with (the
// critic's trunk and head never), and the state width (hidden, 2·hidden
// for an LSTM, the sum of both trunks when separate).
func TestNetLayout(t *testing.T) {
	const hidden, in = 8, 4
	for _, c := range []struct {
		cell     string
		separate bool
		box      bool
		trunks   map[string]int // weight_hh of each trunk → its rows
		width    int
	}{
		{rppo.CellGRU, false, false, map[string]int{"gru.weight_hh": 3 * hidden}, hidden},
		{rppo.CellLSTM, false, true, map[string]int{"lstm.weight_hh": 4 * hidden}, 2 * hidden},
		{rppo.CellGRU, true, false, map[string]int{"actor_gru.weight_hh": 3 * hidden, "critic_gru.weight_hh": 3 * hidden}, 2 * hidden},
		{rppo.CellLSTM, true, true, map[string]int{"actor_lstm.weight_hh": 4 * hidden, "critic_lstm.weight_hh": 4 * hidden}, 4 * hidden},
	} {
		cfg := rppo.DefaultConfig()
		cfg.Cell, cfg.SeparateTrunks, cfg.Hidden = c.cell, c.separate, hidden
		act := env.Space(algotest.Discrete(t, 3, 0))
		if c.box {
			act = algotest.Box(t, -1, 1, 2)
		}
		r, err := rppo.New(cfg, algotest.Box(t, -1, 1, in), act, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s separate=%v box=%v", c.cell, c.separate, c.box)
		if w := r.Net().StateWidth(); w != c.width {
			t.Errorf("%s: state width %d; want %d", name, w, c.width)
		}
		found := 0
		for n, p := range r.Net().Params().All() {
			if rows, ok := c.trunks[n]; ok {
				found++
				if p.Dim(0) != rows || p.Dim(1) != hidden {
					t.Errorf("%s: %s of shape %v; want [%d %d]", name, n, p.Shape(), rows, hidden)
				}
			}
		}
		if found != len(c.trunks) {
			t.Errorf("%s: found %d of the trunks %v", name, found, c.trunks)
		}
		hasLogStd := false
		for n := range r.Policy().Params().All() {
			if strings.HasPrefix(n, "critic") {
				t.Errorf("%s: the policy acts with %s", name, n)
			}
			hasLogStd = hasLogStd || n == "log_std"
		}
		if hasLogStd != c.box {
			t.Errorf("%s: log_std among the policy's parameters %v; want %v", name, hasLogStd, c.box)
		}
	}
}
