package buffer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// Seed 002's basic usage: a ring of 10 keeps the newest 10 of 15 steps;
// Prev and Next stop at episode boundaries.
func ExampleReplay() {
	buf, err := buffer.New(buffer.Config{Size: 10})
	if err != nil {
		panic(err)
	}
	for i := range 15 {
		terminated := i%4 == 0
		if _, err := buf.Add(batch.MustNew("obs", i, "act", i, "rew", i, "terminated", terminated, "truncated", false, "obs_next", i+1), nil, nil); err != nil {
			panic(err)
		}
	}
	obs, _ := buf.Data().Array("obs")
	fmt.Println(buf.Len(), obs)
	idx := buf.SampleIndices(0, nil) // all, oldest first
	fmt.Println(idx)
	fmt.Println(buf.Prev(idx))
	fmt.Println(buf.Next(idx))
	// Output:
	// 10 array([10, 11, 12, 13, 14,  5,  6,  7,  8,  9])
	// [5 6 7 8 9 0 1 2 3 4]
	// [5 5 6 7 9 9 0 1 3 3]
	// [6 7 8 8 0 1 2 2 4 4]
}

// Frame stacking with a derived obs_next (seed 002's advanced usage).
func ExampleReplay_frameStack() {
	buf, _ := buffer.New(buffer.Config{Size: 9, StackNum: 4, IgnoreObsNext: true})
	for i := range 16 {
		buf.Add(batch.MustNew("obs", batch.MustNew("id", i), "act", i, "rew", i,
			"terminated", i%5 == 0, "truncated", false), nil, nil)
	}
	got, _ := buf.Take([]int{0, 2, 7})
	obs, _ := got.Array("obs.id")
	next, _ := got.Array("obs_next.id")
	fmt.Println(obs.Str())
	fmt.Println(next.Str())
	// Output:
	// [[ 7  7  8  9]
	//  [11 11 11 11]
	//  [ 7  7  7  7]]
	// [[ 7  8  9 10]
	//  [11 11 11 12]
	//  [ 7  7  7  8]]
}

// Update copies another buffer in, oldest first.
func ExampleReplay_Update() {
	a, _ := buffer.New(buffer.Config{Size: 6})
	b, _ := buffer.New(buffer.Config{Size: 3})
	for i := range 4 {
		a.Add(step(i, 1, false, false), nil, nil)
		b.Add(step(10+i, 1, i == 3, false), nil, nil)
	}
	to, err := a.Update(b)
	obs, _ := a.Data().Array("obs")
	fmt.Println(to, err, obs)
	// Output:
	// [4 5 0] <nil> array([13,  1,  2,  3, 11, 12])
}

// Add appends a Step per transition: the index written and, when the step
// ends an episode, its return, length and first index.
func ExampleStep() {
	buf, _ := buffer.New(buffer.Config{Size: 8})
	var steps []buffer.Step
	for i := range 3 {
		steps, _ = buf.Add(step(i, 0.5, i == 2, false), nil, steps)
	}
	for _, s := range steps {
		fmt.Printf("%+v\n", s)
	}
	// Output:
	// {Index:0 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:0}
	// {Index:1 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:0}
	// {Index:2 EpisodeReturn:1.5 EpisodeLen:3 EpisodeStart:0}
}

// A collector stores one vector step at a time: row j goes to sub-buffer
// ids[j]; with a reused steps slice and batch it does not allocate.
func ExampleVector() {
	buf, _ := buffer.NewVector(buffer.Config{Size: 6}, 2) // indices 0–2 and 3–5
	data := batch.MustNew("obs", [][]float32{{0, 0}, {1, 1}}, "act", []int64{0, 1}, "rew", []float64{1, 1},
		"terminated", []bool{false, true}, "truncated", []bool{false, false})
	steps := make([]buffer.Step, 0, 2)
	steps, _ = buf.Add(data, []int{0, 1}, steps[:0])
	fmt.Printf("%+v\n", steps)
	steps, _ = buf.Add(data, []int{1, 1}, steps[:0])
	fmt.Printf("%+v\n", steps)
	fmt.Println(buf.SampleIndices(0, nil), buf.UnfinishedIndex())
	// Output:
	// [{Index:0 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:0} {Index:3 EpisodeReturn:1 EpisodeLen:1 EpisodeStart:3}]
	// [{Index:4 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:4} {Index:5 EpisodeReturn:2 EpisodeLen:2 EpisodeStart:4}]
	// [0 3 4 5] [0]
}

// NewManager makes sub-buffers of different sizes.
func ExampleNewManager() {
	buf, _ := buffer.NewManager(buffer.Config{}, []int{2, 5})
	fmt.Println(buf.Cap(), buf.Config().Size)
	// Output: 7 7
}

// Episodes wait in per-environment caches and move to the main ring when
// they end.
func ExampleCached() {
	buf, _ := buffer.NewCached(buffer.Config{Size: 10}, 2, 5) // main 0–9, caches 10–14 and 15–19
	s1, _ := buf.Add(vecStep([]int64{1, 2}, []bool{false, false}), nil, nil)
	s2, _ := buf.Add(vecStep([]int64{3, 4}, []bool{false, true}), nil, nil)
	fmt.Printf("%+v\n%+v\n", s1, s2)
	fmt.Println(buf.SampleIndices(0, nil))
	// Output:
	// [{Index:10 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:10} {Index:15 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:15}]
	// [{Index:11 EpisodeReturn:0 EpisodeLen:0 EpisodeStart:10} {Index:1 EpisodeReturn:2 EpisodeLen:2 EpisodeStart:0}]
	// [0 1 10 11]
}

// Prioritized replay: after UpdateWeight, transitions are drawn in
// proportion to priority^α and weighted by (P(i)/P_min)^(−β).
func ExamplePrioritized() {
	buf, _ := buffer.NewPrioritized(buffer.Config{Size: 4}, buffer.PriorityConfig{Alpha: 1, Beta: 1})
	for i := range 4 {
		buf.Add(step(i, 0, false, false), nil, nil)
	}
	buf.UpdateWeight([]int{0, 1, 2, 3}, []float64{1, 1, 1, 5})
	rng := rand.New(rand.NewPCG(1, 2))
	dst := &batch.Batch{}
	idx := make([]int, 1000)
	buf.SampleTo(dst, idx, rng)
	n3 := 0
	for _, g := range idx {
		if g == 3 {
			n3++
		}
	}
	fmt.Printf("index 3 drawn %.1f of the time (5/8 expected)\n", float64(n3)/1000)
	got, _ := buf.Take([]int{0, 1, 2, 3})
	w, _ := batch.Values[float64](got, "weight")
	fmt.Printf("weights %.3f\n", w)
	// Output:
	// index 3 drawn 0.6 of the time (5/8 expected)
	// weights [1.000 1.000 1.000 0.200]
}

// The vector form keeps one priority tree over all sub-buffers.
func ExamplePrioritizedVector() {
	buf, _ := buffer.NewPrioritizedVector(buffer.Config{Size: 4}, 2, buffer.DefaultPriorityConfig())
	buf.Add(vecStep([]int64{1, 2}, []bool{false, false}), nil, nil)
	var p buffer.Prioritizer = buf
	fmt.Println(p.UpdateWeight([]int{0, 2}, []float64{0.5, math.NaN()}) != nil, p.SetBeta(1), buf.Beta())
	// Output: true <nil> 1
}

// Hindsight relabelling: sampled episodes get goals achieved later in the
// same episode, and rewards recomputed for them.
func ExampleHER() {
	reward := func(achieved, desired *nd.Array, rew []float64) {
		a, d := nd.Data[float64](achieved), nd.Data[float64](desired)
		for i := range rew {
			rew[i] = -math.Abs(a[i] - d[i])
		}
	}
	buf, _ := buffer.NewHER(buffer.Config{Size: 20}, buffer.HERConfig{Horizon: 4, FutureK: 1e9, Reward: reward})
	for e := range 3 {
		for k := range 4 {
			x := float64(10*e + k)
			obs := batch.MustNew("observation", []float64{x}, "achieved_goal", []float64{x}, "desired_goal", []float64{-1})
			next := batch.MustNew("observation", []float64{x + 1}, "achieved_goal", []float64{x + 1}, "desired_goal", []float64{-1})
			buf.Add(batch.MustNew("obs", obs, "act", 0, "rew", -(x+2), "terminated", false, "truncated", k == 3, "obs_next", next), nil, nil)
		}
	}
	got, idx, _ := buf.Sample(3, rand.New(rand.NewPCG(3, 4)))
	goal, _ := batch.Values[float64](got, "obs.desired_goal")
	ach, _ := batch.Values[float64](got, "obs_next.achieved_goal")
	rew, _ := batch.Values[float64](got, "rew")
	for k := range idx {
		fmt.Printf("index %2d: reached %2.0f, goal %2.0f, reward %g\n", idx[k], ach[k], goal[k], rew[k])
	}
	// Two episode segments were drawn; int(2·(1 − 1/FutureK)) = 1 of them
	// is relabelled (Tianshou's rounding).
	//
	// Output:
	// index 10: reached 23, goal -1, reward -24
	// index 10: reached 23, goal -1, reward -24
	// index  5: reached 12, goal 13, reward -1
}

// Each sub-buffer of a HERVector relabels within its own episodes.
func ExampleHERVector() {
	buf, err := buffer.NewHERVector(buffer.Config{Size: 8}, 2, buffer.HERConfig{Horizon: 3})
	fmt.Println(buf.Cap(), err)
	// Output: 8 <nil>
}

// Seed 004's Machin transition and the concatenated sample of a Memory.
func ExampleMemory() {
	mem, _ := buffer.NewMemory(1000, buffer.DefaultRequired...)
	state := nd.Zeros(nd.Float32, 1, 5)
	action := nd.Zeros(nd.Float32, 1, 2)
	for range 100 {
		t, err := buffer.NewDefaultTransition(batch.MustNew("state", state), batch.MustNew("action", action),
			batch.MustNew("state", state), 1.0, false, nil)
		if err != nil {
			panic(err)
		}
		mem.Append(t)
	}
	n, res, _ := mem.SampleBatch(32, true, buffer.SampleRandomUnique,
		[]string{"state", "action", "reward", "next_state", "terminal", "*"}, nil, rand.New(rand.NewPCG(1, 1)))
	s, _ := res[0].(*batch.Batch).Array("state")
	a, _ := res[1].(*batch.Batch).Array("action")
	fmt.Println(n, s.Shape(), a.Shape(), res[2].(*nd.Array).Shape(), res[4].(*nd.Array).Shape(), res[5])
	// Output: 32 [32 5] [32 2] [32 1] [32 1] map[]
}

// A transition's attributes by kind.
func ExampleTransition() {
	t, err := buffer.NewTransition(
		batch.MustNew("state", batch.MustNew("pos", [][]float64{{1, 2}})),
		batch.MustNew("reward", 0.5),
		map[string]any{"note": "first"})
	fmt.Println(err, t.Keys(), t.Kind("state"), t.Kind("reward"), t.Kind("note"), t.Sub("reward"))
	_, err = buffer.NewTransition(batch.MustNew("state", batch.MustNew("pos", [][]float64{{1}, {2}})), nil, nil)
	fmt.Println(err)
	// Output:
	// <nil> [state reward note] major sub custom array([[0.5]])
	// buffer: key state.pos: Transition: a major attribute holds arrays with batch size 1, got a float64 array of shape [2 1]
}

// A caller-supplied sample method: the newest transitions.
func ExampleSampleMethod() {
	mem, _ := buffer.NewMemory(10)
	for i := range 5 {
		t, _ := buffer.NewTransition(nil, batch.MustNew("reward", float64(i)), nil)
		mem.Append(t)
	}
	var newest buffer.SampleMethod = func(m *buffer.Memory, n int, _ *rand.Rand) ([]int, error) {
		all := m.All()
		return all[max(0, len(all)-n):], nil
	}
	_, res, _ := mem.SampleBatch(2, true, newest, []string{"reward"}, nil, rand.New(rand.NewPCG(1, 1)))
	fmt.Println(res[0])
	// Output: array([[3.],
	//        [4.]])
}

// Prioritized Machin memory: stratified sampling, normalized weights, β
// annealed by each sampling.
func ExamplePrioritizedMemory() {
	mem, _ := buffer.NewPrioritizedMemory(4, buffer.MemoryPriorityConfig{Alpha: 1, Epsilon: 1e-9, BetaIncrement: 0.3})
	for i := range 4 {
		t, _ := buffer.NewTransition(nil, batch.MustNew("reward", float64(i)), nil)
		mem.AppendPriority(t, float64(i+1))
	}
	_, _, slots, w, _ := mem.SampleBatch(2, true, []string{"reward"}, nil, rand.New(rand.NewPCG(1, 1)))
	fmt.Printf("%v %.3f β=%.1f\n", slots, w, mem.Beta())
	// Output: [1 3] [1.000 0.758] β=0.7
}

// Save streams a buffer in the package's file format; Load reads it back
// as the type that was saved.
func ExampleLoad() {
	buf, _ := buffer.New(buffer.Config{Size: 20})
	for i := range 3 {
		buf.Add(step(i, 1, false, false), nil, nil)
	}
	var file bytes.Buffer
	if err := buf.Save(&file); err != nil {
		panic(err)
	}
	got, err := buffer.Load(bytes.NewReader(file.Bytes()), int64(file.Len()))
	fmt.Printf("%T %d %v\n", got, got.Len(), err)
	file.Bytes()[file.Len()-30] ^= 1 // a done flag of the last column
	_, err = buffer.Load(bytes.NewReader(file.Bytes()), int64(file.Len()))
	fmt.Println(errors.Is(err, buffer.ErrFormat), strings.Contains(err.Error(), "column done section checksum mismatch"))
	// Output:
	// *buffer.Replay 3 <nil>
	// true true
}

// Errors name the key at fault and wrap a sentinel.
func ExampleError() {
	buf, _ := buffer.New(buffer.DefaultConfig())
	_, err := buf.Add(batch.MustNew("obs", 1, "act", 1, "terminated", false, "truncated", false), nil, nil)
	var e *buffer.Error
	fmt.Println(errors.Is(err, buffer.ErrKey), errors.As(err, &e), e.Path)
	fmt.Println(err)
	// Output:
	// true true rew
	// buffer: key rew: Add: missing required key
}

// Configurations are plain structs with JSON tags.
func ExampleConfig() {
	b, _ := json.Marshal(buffer.DefaultConfig())
	fmt.Println(string(b))
	fmt.Println(buffer.Config{Size: 0}.Validate())
	// Output:
	// {"size":100000,"stack_num":1,"ignore_obs_next":false,"save_only_last_obs":false,"sample_avail":false}
	// buffer: Config.Size must be in [1, 2^40], got 0
}

// DefaultPriorityConfig holds the paper's proportional variant, α = 0.6
// and a starting β of 0.4; a zero Alpha takes 0.6 too. Invalid values are
// errors wrapping ErrValue.
func ExamplePriorityConfig() {
	cfg := buffer.DefaultPriorityConfig()
	fmt.Println(cfg.Alpha, cfg.Beta, cfg.Validate())
	cfg.Beta = -1
	err := cfg.Validate()
	fmt.Println(errors.Is(err, buffer.ErrValue))
	_, err = buffer.NewPrioritized(buffer.Config{Size: 8}, cfg)
	fmt.Println(errors.Is(err, buffer.ErrValue))
	// Output:
	// 0.6 0.4 <nil>
	// true
	// true
}

// HERConfig needs the horizon of the episodes it relabels; FutureK 0 takes
// Tianshou's 8, and Reward may be left for later (SetRewardFunc), but the
// buffer samples only once it is set.
func ExampleHERConfig() {
	cfg := buffer.HERConfig{Horizon: 50}
	fmt.Println(cfg.Validate())
	_, err := buffer.NewHER(buffer.Config{Size: 100}, buffer.HERConfig{})
	fmt.Println(errors.Is(err, buffer.ErrValue))
	// Output:
	// <nil>
	// true
}
