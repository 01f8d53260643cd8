package collector_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/collector"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/envtest"
	"github.com/gorl/gorl/env/vector"
)

// TestResetEndsEpisodes: two fakes whose episodes last 5, then 3 steps.
// After two vector steps every env is reset (by Reset, by
// ResetBeforeCollect, and for the AsyncCollector by its Reset), abandoning
// episode 0 of both. By hand: the buffer (sub-buffers of 10) marks their
// second transitions, indices 1 and 11, truncated, and the next episodes
// (3 steps) are reported from their own first index, 2 and 12; without
// EndEpisode the buffer would join them to the abandoned steps (starts 0
// and 10).
func TestResetEndsEpisodes(t *testing.T) {
	wantEps := []collector.EpisodeEvent{{Env: 0, Return: 3, Len: 3, Start: 2, End: 4}, {Env: 1, Return: 3, Len: 3, Start: 12, End: 14}}
	for _, how := range []string{"Reset", "ResetBeforeCollect", "AsyncCollector.Reset"} {
		t.Run(how, func(t *testing.T) {
			v := fakeVec(t, envtest.Config{}, []int{5, 3}, []int{5, 3})
			buf := vecBuf(t, 2, 10)
			var eps []collector.EpisodeEvent
			cfg := collector.Config{Env: v, Policy: &fixedPolicy{}, Buffer: buf, Rand: rand.New(rand.NewPCG(5, 6)),
				OnEpisode: func(e collector.EpisodeEvent) { eps = append(eps, e) }}
			var collect func(context.Context, collector.Request) (collector.Stats, error)
			var reset func() error
			if how == "AsyncCollector.Reset" {
				c, err := collector.NewAsync(collector.AsyncConfig{Config: cfg})
				if err != nil {
					t.Fatal(err)
				}
				collect, reset = c.Collect, func() error { return c.Reset(bg, nil) }
			} else {
				c, err := collector.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				collect, reset = c.Collect, func() error { return c.Reset(bg, nil) }
			}
			if err := reset(); err != nil {
				t.Fatal(err)
			}
			if _, err := collect(bg, collector.Request{NStep: 4}); err != nil {
				t.Fatal(err)
			}
			req := collector.Request{NEpisode: 2}
			if how == "ResetBeforeCollect" {
				req.ResetBeforeCollect = true
			} else if err := reset(); err != nil {
				t.Fatal(err)
			}
			s, err := collect(bg, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(eps, wantEps) {
				t.Errorf("OnEpisode\n got %+v\nwant %+v", eps, wantEps)
			}
			if s.Episodes != 2 || s.Len.Mean != 3 {
				t.Errorf("stats: %d episodes of mean length %v, want 2 of 3", s.Episodes, s.Len.Mean)
			}
			for _, g := range []int{1, 11} {
				if !buf.Truncated()[g] || buf.Terminated()[g] {
					t.Errorf("index %d: truncated %v terminated %v, want true false", g, buf.Truncated()[g], buf.Terminated()[g])
				}
			}
			if got := buf.Next([]int{0, 1, 10, 11}); !slices.Equal(got, []int{1, 1, 11, 11}) {
				t.Errorf("Next of the abandoned steps %v, want [1 1 11 11]", got)
			}
		})
	}
}

// TestErrorEndsEpisodes: env 1 fails in the third vector step; the next
// Collect resets every env, and the episodes in progress end at the last
// transitions stored (indices 1 and 11).
func TestErrorEndsEpisodes(t *testing.T) {
	fakes := []env.Env{envtest.MustNew(envtest.Config{Lengths: []int{10}}),
		envtest.MustNew(envtest.Config{ID: 1, Lengths: []int{10}, ErrorAt: 3})}
	v, err := vector.NewSync(fakes)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	c, buf := newCollector(t, v, &fixedPolicy{}, 10)
	if _, err := c.Collect(bg, collector.Request{NStep: 10}); err == nil {
		t.Fatal("Collect: no error from the failing env")
	}
	if buf.Done()[1] || buf.Done()[11] {
		t.Fatal("episodes ended before the next Collect")
	}
	if _, err := c.Collect(bg, collector.Request{NStep: 2}); err != nil {
		t.Fatal(err)
	}
	if !buf.Truncated()[1] || !buf.Truncated()[11] {
		t.Errorf("truncated at 1 and 11: %v %v, want true true", buf.Truncated()[1], buf.Truncated()[11])
	}
}

// TestBufferNumChecked: New refuses a buffer with fewer sub-buffers than
// envs, and a Cached buffer counts its caches.
func TestBufferNumChecked(t *testing.T) {
	v := fakeVec(t, envtest.Config{}, []int{1}, []int{1})
	cached, err := buffer.NewCached(buffer.Config{Size: 10}, 1, 5) // main ring + 1 cache
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collector.New(collector.Config{Env: v, Buffer: cached}); err == nil {
		t.Error("New with one cache for two envs: no error")
	}
}
