package buffer_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/testrand"
	"github.com/gorl/gorl/nd"
)

// goalReward is the sparse reward of the goal tests: 0 when the achieved
// goal is within 0.5 of the desired one, −1 otherwise.
func goalReward(achieved, desired *nd.Array, rew []float64) {
	a, d := nd.Data[float64](achieved), nd.Data[float64](desired)
	for i := range rew {
		rew[i] = -1
		if math.Abs(a[i]-d[i]) < 0.5 {
			rew[i] = 0
		}
	}
}

// goalEpisodes adds episodes of length 5 in which the agent moves by 1 per
// step from position 0 towards a desired goal of 100 that it never reaches
// (every original reward is −1). Episode e's positions are 10e, …, 10e+5.
func goalEpisodes(t *testing.T, b buffer.Buffer, episodes int) {
	for e := range episodes {
		for k := range 5 {
			x := float64(10*e + k)
			obs := batch.MustNew("observation", []float64{x}, "achieved_goal", []float64{x}, "desired_goal", []float64{100})
			next := batch.MustNew("observation", []float64{x + 1}, "achieved_goal", []float64{x + 1}, "desired_goal", []float64{100})
			mustAdd(t, b, batch.MustNew("obs", obs, "act", 1, "rew", -1.0, "terminated", false, "truncated", k == 4, "obs_next", next), nil)
		}
	}
}

func TestHERRelabels(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		b, err := buffer.NewHER(buffer.Config{Size: 100, IgnoreObsNext: ignore}, buffer.HERConfig{Horizon: 5, FutureK: 4, Reward: goalReward})
		if err != nil {
			t.Fatal(err)
		}
		goalEpisodes(t, b, 10)
		original := b.Data().Clone()
		rng := testrand.New(t, 5)
		relabelled := 0
		for range 20 {
			got, idx, err := b.Sample(32, rng)
			if err != nil {
				t.Fatal(err)
			}
			goal := nd.Data[float64](arrayOf(t, got, "obs.desired_goal"))
			nextAch := nd.Data[float64](arrayOf(t, got, "obs_next.achieved_goal"))
			nextGoal := nd.Data[float64](arrayOf(t, got, "obs_next.desired_goal"))
			rew := nd.Data[float64](arrayOf(t, got, "rew"))
			for k, g := range idx {
				if goal[k] == 100 {
					if rew[k] != -1 {
						t.Errorf("unrelabelled transition %d has reward %v", g, rew[k])
					}
					continue
				}
				relabelled++
				// The new goal is a position reached later in the same
				// episode, after this step.
				e := g / 5
				if goal[k] < nextAch[k] || goal[k] > float64(10*e+5) {
					t.Errorf("transition %d (reached %v) relabelled with goal %v outside its episode's future", g, nextAch[k], goal[k])
				}
				if nextGoal[k] != goal[k] {
					t.Errorf("obs_next.desired_goal %v differs from obs.desired_goal %v", nextGoal[k], goal[k])
				}
				want := -1.0
				if math.Abs(nextAch[k]-goal[k]) < 0.5 {
					want = 0
				}
				if rew[k] != want {
					t.Errorf("relabelled reward %v, want %v", rew[k], want)
				}
			}
		}
		if relabelled == 0 {
			t.Errorf("ignore_obs_next=%v: nothing was relabelled", ignore)
		}
		// SampleIndices(0) restores the stored values.
		b.SampleIndices(0, nil)
		if !batch.Equal(b.Data(), original) {
			t.Errorf("ignore_obs_next=%v: storage not restored", ignore)
		}
	}
}

func TestHERErrors(t *testing.T) {
	b, err := buffer.NewHER(buffer.Config{Size: 10}, buffer.HERConfig{Horizon: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Add(step(0, 0, false, false), nil, nil); !errors.Is(err, buffer.ErrKey) {
		t.Errorf("Add without goals: %v, want ErrKey", err)
	}
	for _, hc := range []buffer.HERConfig{{Horizon: 0}, {Horizon: 2, FutureK: 0.5}, {Horizon: 2, FutureK: math.NaN()}} {
		if _, err := buffer.NewHER(buffer.Config{Size: 10}, hc); !errors.Is(err, buffer.ErrValue) {
			t.Errorf("NewHER(%+v): %v, want ErrValue", hc, err)
		}
	}
}

// TestHERVector relabels within each sub-buffer: goals never come from
// another environment's episode.
func TestHERVector(t *testing.T) {
	b, err := buffer.NewHERVector(buffer.Config{Size: 40}, 2, buffer.HERConfig{Horizon: 4, FutureK: 100, Reward: goalReward})
	if err != nil {
		t.Fatal(err)
	}
	for k := range 8 {
		x := []float64{float64(k), float64(1000 + k)}
		obs := batch.MustNew("observation", [][]float64{{x[0]}, {x[1]}}, "achieved_goal", [][]float64{{x[0]}, {x[1]}}, "desired_goal", [][]float64{{-5}, {-5}})
		next := batch.MustNew("observation", [][]float64{{x[0] + 1}, {x[1] + 1}}, "achieved_goal", [][]float64{{x[0] + 1}, {x[1] + 1}}, "desired_goal", [][]float64{{-5}, {-5}})
		done := k%4 == 3
		mustAdd(t, b, batch.MustNew("obs", obs, "act", []int{0, 0}, "rew", []float64{-1, -1}, "terminated", []bool{done, done}, "truncated", []bool{false, false}, "obs_next", next), nil)
	}
	rng := testrand.New(t, 9)
	for range 10 {
		got, idx, err := b.Sample(16, rng)
		if err != nil {
			t.Fatal(err)
		}
		goal := nd.Data[float64](arrayOf(t, got, "obs.desired_goal"))
		for k, g := range idx {
			if goal[k] == -5 {
				continue
			}
			if (g < 20) != (goal[k] < 1000) {
				t.Errorf("index %d of sub-buffer %d got goal %v from the other sub-buffer", g, g/20, goal[k])
			}
		}
	}
}
