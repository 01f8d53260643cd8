package a3c

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorl/gorl/algo/a2c"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"

	_ "github.com/gorl/gorl/env/classic"
)

// lossyTransport throws away the replies of the requests whose number
// (from 1) is in lose: the server did its work, the requester times out
// and sends again.
type lossyTransport struct {
	cluster.Transport
	n    atomic.Int64
	lose map[int64]bool
}

func (l *lossyTransport) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	r, err := l.Transport.Request(ctx, subject, data)
	if l.lose[l.n.Add(1)] {
		return nil, context.DeadlineExceeded
	}
	return r, err
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"workers", func(c *Config) { c.Workers = 0 }},
		{"n_steps", func(c *Config) { c.NSteps = 0 }},
		{"lr_decay_steps", func(c *Config) { c.A2C.LRDecaySteps = 100 }},
		{"a2c", func(c *Config) { c.A2C.Gamma = 2 }},
	} {
		c := DefaultConfig()
		tc.edit(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.field, err)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestPushAppliedOnce pushes one gradient of 0.5 for every parameter,
// split in chunks, while the replies of its first chunk and of its last
// are lost, so both are sent twice. Expected values by hand: Adam's first
// step with gradient g moves each parameter by −lr·ĝ/(√v̂ + ε) with
// ĝ = g and v̂ = g², that is −lr = −0.001 (ε = 1e-8 is negligible), once;
// applied twice it would move by about −0.002.
func TestPushAppliedOnce(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.A2C.Net.Hidden = []int{8}
	obs, act := probeSpaces(t)
	var seen []Progress
	h, err := newHolder(cfg, Setup{After: func(_ *a2c.A2C, p Progress) (bool, error) {
		seen = append(seen, p)
		return false, nil
	}}, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	before := h.ps.Clone()
	ps, err := cluster.ServeParams(node.Transport(), "t", weightsName, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	if err := ps.Publish(1, []byte("v1")); err != nil {
		t.Fatal(err)
	}
	gs, err := cluster.ServeGrads(node.Transport(), "t", gradsName, ps, cluster.GradConfig{}, h.apply)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	n := h.ps.Count()
	grad := make([]float32, n)
	for i := range grad {
		grad[i] = 0.5
	}
	blob := floatBlob(grad)
	chunk := 256
	chunks := (len(blob) + chunk - 1) / chunk
	lossy := &lossyTransport{Transport: node.Transport(), lose: map[int64]bool{1: true, int64(chunks + 1): true}}
	p, err := cluster.NewGradPusher(lossy, "t", gradsName, 1, chunk, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := p.Push(ctx, 1, blob)
	if err != nil || v != 2 {
		t.Fatalf("push: version %d, %v; want 2", v, err)
	}
	if len(seen) != 1 || seen[0].Updates != 1 || h.a.Updates() != 1 {
		t.Fatalf("After saw %+v, the model %d updates; want one update", seen, h.a.Updates())
	}
	if chunks < 2 || lossy.n.Load() != int64(chunks+2) {
		t.Fatalf("%d requests for %d chunks, want every chunk once and two repeated", lossy.n.Load(), chunks)
	}
	for k, q := range h.ps {
		for i, x := range q.Tensor.Data() {
			if d := float64(x - before[k].Tensor.Data()[i]); math.Abs(d+0.001) > 1e-6 {
				t.Fatalf("%s[%d] moved by %v, want −0.001 (one Adam step)", q.Name, i, d)
			}
		}
	}
	// The published weights are the holder's.
	_, w, err := cluster.FetchParams(ctx, node.Transport(), "t", weightsName, 1)
	if err != nil {
		t.Fatal(err)
	}
	check := h.a.Net.Params().Clone()
	if err := nn.Copy(check, before); err != nil {
		t.Fatal(err)
	}
	if _, err := nn.Load(bytesReader(w), check); err != nil {
		t.Fatal(err)
	}
	for k, q := range check {
		for i, x := range q.Tensor.Data() {
			if x != h.a.Net.Params()[k].Tensor.Data()[i] {
				t.Fatalf("published %s differs from the holder's", q.Name)
			}
		}
	}
	// A gradient of the wrong size is refused and reaches the pusher.
	if _, err := p.Push(ctx, 2, blob[:8]); !errors.Is(err, cluster.ErrGradRejected) {
		t.Fatalf("a short gradient: %v, want ErrGradRejected", err)
	}
}

// TestRun runs 2 workers for 60 updates on CartPole: every update is
// reported once, in order, and the workers stepped their envs for them.
func TestRun(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.Workers = 2
	cfg.NSteps = 10
	cfg.A2C.Net.Hidden = []int{16}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last Progress
	a, err := Run(ctx, cfg, Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      3,
		After: func(a *a2c.A2C, p Progress) (bool, error) {
			if p.Updates != last.Updates+1 {
				t.Errorf("update %d after %d", p.Updates, last.Updates)
			}
			last = p
			return p.Updates >= 60, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.Updates() != 60 {
		t.Errorf("%d updates, want 60", a.Updates())
	}
	// Each update needs a rollout of 10 steps; the holder may count the
	// steps of rollouts whose gradients are still on their way.
	if last.EnvSteps < 600 || last.EnvSteps > 600+int64(cfg.Workers*cfg.NSteps) {
		t.Errorf("%d env steps for 60 updates of 10 steps, want 600 to %d", last.EnvSteps, 600+cfg.Workers*cfg.NSteps)
	}
	// Workers sample their actions: random CartPole episodes last about
	// 22 steps, a fixed action's about 9.
	if last.Episodes == 0 || last.EnvSteps < 13*last.Episodes {
		t.Errorf("%d episodes in %d steps, want episodes of a sampling policy", last.Episodes, last.EnvSteps)
	}
	stop := errors.New("stop")
	_, err = Run(ctx, cfg, Setup{
		Transport: node.Transport(), Group: "err",
		MakeEnv: func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		After:   func(*a2c.A2C, Progress) (bool, error) { return false, stop },
	})
	if !errors.Is(err, stop) {
		t.Fatalf("After's error: %v", err)
	}
}

// TestRemoteWorkersAndRestore runs the holder with Remote set and its 2
// workers through RunWorker, as separate processes would, after
// restoring a state saved at 100 updates, 2,000 env steps and 50
// episodes: the updates go on from 101, the counts grow by the workers'
// reports, and the workers stop by themselves once the holder's status
// says the run is over.
func TestRemoteWorkersAndRestore(t *testing.T) {
	node, err := cluster.Start(cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := DefaultConfig()
	cfg.Workers = 2
	cfg.NSteps = 10
	cfg.A2C.Net.Hidden = []int{16}
	s := Setup{
		Transport: node.Transport(),
		MakeEnv:   func(int) (env.Env, error) { return env.Make("CartPole-v1") },
		Seed:      4,
	}
	obs, act := probeSpaces(t)
	saved, err := a2c.New(cfg.A2C, obs, act, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	var state bytes.Buffer
	if err := saved.Save(&state); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, cfg.Workers)
	ws := s // the workers' Setup, before the holder's is completed
	for i := range cfg.Workers {
		go func() { done <- RunWorker(ctx, cfg, ws, i) }()
	}
	const restored = 100
	var first, last Progress
	s.Remote = true
	s.Restore = func(a *a2c.A2C) (Progress, error) {
		return Progress{Updates: restored, EnvSteps: 2000, Episodes: 50, LastReturn: 20}, a.Load(bytes.NewReader(state.Bytes()))
	}
	s.After = func(a *a2c.A2C, p Progress) (bool, error) {
		if first.Updates == 0 {
			first = p
		}
		last = p
		return p.Updates >= restored+40, nil
	}
	if _, err := Run(ctx, cfg, s); err != nil {
		t.Fatal(err)
	}
	cluster.PublishStatus(s.Transport, "a3c", cluster.Status{Updates: last.Updates, Done: true})
	for range cfg.Workers {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("worker: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a worker did not stop after the holder's last status")
		}
	}
	if first.Updates != restored+1 || last.Updates != restored+40 {
		t.Errorf("updates from %d to %d, want %d to %d", first.Updates, last.Updates, restored+1, restored+40)
	}
	// Each update needs a rollout of 10 steps, reported before its push;
	// a report may be handled after the update it preceded, so only one
	// rollout's report is required by the last update.
	if last.EnvSteps < 2000+int64(cfg.NSteps) || last.Episodes <= 50 {
		t.Errorf("%d env steps and %d episodes, want the workers' reports added to 2000 and 50", last.EnvSteps, last.Episodes)
	}
	if err := RunWorker(ctx, cfg, s, 2); !errors.Is(err, ErrConfig) {
		t.Errorf("RunWorker of worker 2 of 2: %v, want ErrConfig", err)
	}
}
