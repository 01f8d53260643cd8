package collector_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
)

// TestCollectAllocs locks the steady state: once a collector has run a
// request (its scratch, the buffer's schema and the policy's outputs
// exist), Collect allocates nothing, with a policy that reuses its output
// arrays (fixedPolicy), with random actions, with a hidden state and
// policy data, when only some envs step (n_episode) and for the
// AsyncCollector without a timeout.
func TestCollectAllocs(t *testing.T) {
	fakes := func() *vector.Sync {
		return fakeVec(t, envtest.Config{}, []int{2, 5}, []int{3}, []int{4, 1, 6})
	}
	newSync := func(pol collector.Policy) func(collector.Request) error {
		c, err := collector.New(collector.Config{Env: fakes(), Policy: pol, Buffer: vecBuf(t, 3, 50), Rand: rand.New(rand.NewPCG(1, 1))})
		if err != nil {
			t.Fatal(err)
		}
		return func(req collector.Request) error { _, err := c.Collect(bg, req); return err }
	}
	newAsync := func(pol collector.Policy, waitNum int) func(collector.Request) error {
		c, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: fakes(), Policy: pol,
			Buffer: vecBuf(t, 3, 50), Rand: rand.New(rand.NewPCG(1, 1))}, WaitNum: waitNum})
		if err != nil {
			t.Fatal(err)
		}
		return func(req collector.Request) error { _, err := c.Collect(bg, req); return err }
	}
	cartPole := func() func(collector.Request) error {
		v := cartPoles(t, 4, vector.NewSync)
		c, err := collector.New(collector.Config{Env: v, Policy: &fixedPolicy{}, Buffer: vecBuf(t, 4, 1000), Rand: rand.New(rand.NewPCG(1, 1))})
		if err != nil {
			t.Fatal(err)
		}
		return func(req collector.Request) error { _, err := c.Collect(bg, req); return err }
	}
	infos := func() func(collector.Request) error {
		var es []*scriptEnv
		for i := 0; i < 3; i++ {
			se := newScriptEnv(3 + i)
			se.Act = mustDiscrete(2)
			se.Infos = []env.Info{{"n": 1, "x": 0.5}, {"n": 2, "nested": env.Info{"ok": true}}, {"name": "a"}}
			es = append(es, se)
		}
		c, err := collector.New(collector.Config{Env: scriptVec(t, es...), Policy: &fixedPolicy{}, Buffer: vecBuf(t, 3, 50)})
		if err != nil {
			t.Fatal(err)
		}
		return func(req collector.Request) error { _, err := c.Collect(bg, req); return err }
	}
	for _, tc := range []struct {
		name    string
		collect func(collector.Request) error
		req     collector.Request
	}{
		{"policy", newSync(&fixedPolicy{}), collector.Request{NStep: 30}},
		{"random", newSync(nil), collector.Request{NStep: 30, Random: true}},
		{"hidden state", newSync(&fixedPolicy{State: true}), collector.Request{NStep: 30}},
		{"n_episode", newSync(&fixedPolicy{State: true}), collector.Request{NEpisode: 7}},
		{"async", newAsync(&fixedPolicy{State: true}, 1), collector.Request{NStep: 30}},
		{"async random", newAsync(nil, 2), collector.Request{NStep: 30, Random: true}},
		{"Infos", infos(), collector.Request{NStep: 30}},
		{"CartPole", cartPole(), collector.Request{NStep: 100}},
		{"CartPole random", cartPole(), collector.Request{NStep: 100, Random: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := 0; i < 10; i++ { // every subset of envs, every schema
				if err := tc.collect(tc.req); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if n := testing.AllocsPerRun(20, func() { err = tc.collect(tc.req) }); n != 0 {
				t.Errorf("%v allocations per Collect, want 0", n)
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAsyncTimeoutAllocs: with a Timeout, each vector step allocates its
// deadline context, and nothing else.
func TestAsyncTimeoutAllocs(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{3}, []int{4})
	c, err := collector.NewAsync(collector.AsyncConfig{Config: collector.Config{Env: v, Policy: &fixedPolicy{}, Buffer: vecBuf(t, 2, 50)},
		WaitNum: 1, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	req := collector.Request{NStep: 10}
	for i := 0; i < 5; i++ {
		if _, err := c.Collect(bg, req); err != nil {
			t.Fatal(err)
		}
	}
	perCollect := testing.AllocsPerRun(20, func() { _, _ = c.Collect(bg, req) })
	if perStep := perCollect / 10; perStep > 4 {
		t.Errorf("%v allocations per vector step with a timeout, want a context's few", perStep)
	}
}

var _ buffer.Buffer = (*buffer.Vector)(nil)

// Every buffer of package buffer is a collector.Buffer.
var _ collector.Buffer = buffer.Buffer(nil)
