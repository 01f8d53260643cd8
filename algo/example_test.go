package algo_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/dqn"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// GAETo computes advantages over a sequence; here two episodes, the first
// terminated after two steps, the second cut short (truncated) after one.
func ExampleGAETo() {
	rew := []float64{1, 1, 1}
	v := []float32{0.5, 0.5, 0.5}
	vNext := []float32{0.5, 9, 0.5} // 9 is ignored: step 1 terminated
	terminated := []bool{false, true, false}
	end := []bool{false, true, true}
	adv := make([]float32, 3)
	// δ = (0.95, 0.5, 0.95); Â₀ = 0.95 + 0.9·0.95·0.5.
	algo.GAETo(adv, rew, v, vNext, terminated, end, 0.9, 0.95)
	fmt.Printf("%.4f\n", adv)
	// Output: [1.3775 0.5000 0.9500]
}

// NStep computes n-step returns over a buffer in two phases: the windows'
// last steps, where the target network is evaluated, then the returns.
func ExampleNStep() {
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i, done := range []bool{false, false, false, true} {
		buf.Add(batch.MustNew("obs", i, "act", 0, "rew", 1.0, "terminated", done, "truncated", false, "obs_next", i+1), nil, nil)
	}
	var s algo.NStep
	last := s.Windows(buf, []int{0, 2}, 0.5, 2)
	fmt.Println("evaluate the target at obs_next of", last)
	ret := make([]float32, 2)
	s.ReturnsTo(ret, []float32{10, 10}) // target values there
	fmt.Println(ret)
	// Output:
	// evaluate the target at obs_next of [1 3]
	// [4 1.5]
}

// Episodic computes GAE advantages and returns over an on-policy
// collection, in time order.
func ExampleEpisodic() {
	buf, _ := buffer.New(buffer.Config{Size: 10})
	for i := range 3 {
		buf.Add(batch.MustNew("obs", i, "act", 0, "rew", 1.0, "terminated", i == 2, "truncated", false, "obs_next", i+1), nil, nil)
	}
	idx := buf.SampleIndices(0, nil)
	adv, ret := make([]float32, 3), make([]float32, 3)
	var e algo.Episodic
	e.AdvantagesTo(adv, ret, buf, idx, nil, nil, 0.9, 1) // no critic: discounted returns
	fmt.Println(adv, ret)
	// Output: [2.71 1.9 1] [2.71 1.9 1]
}

// SaveParts writes named parts (networks, random sources, counters) into one
// checksummed file; LoadParts reads them back into the same list of parts.
func ExampleSaveParts() {
	src := rand.NewPCG(1, 2)
	counters := struct {
		Updates int `json:"updates"`
	}{Updates: 42}
	var file bytes.Buffer
	if err := algo.SaveParts(&file, algo.BinaryPart("rng", src), algo.JSONPart("counters", &counters)); err != nil {
		panic(err)
	}
	next := src.Uint64()

	restored := rand.NewPCG(0, 0)
	var back struct {
		Updates int `json:"updates"`
	}
	err := algo.LoadParts(bytes.NewReader(file.Bytes()), algo.BinaryPart("rng", restored), algo.JSONPart("counters", &back))
	fmt.Println(err, back.Updates, restored.Uint64() == next)
	// Output: <nil> 42 true
}

// A Learner runs an off-policy algorithm's update cycle on a buffer:
// sample, Preprocess (n-step returns for DQN), Update, Postprocess.
func ExampleLearner() {
	obs, _ := env.NewBox(-1.0, 1.0, []int{1}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	cfg := dqn.DefaultConfig()
	cfg.Hidden = []int{8}
	d, err := dqn.New(cfg, obs, act, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	buf, _ := buffer.New(buffer.Config{Size: 50})
	for i := range 10 {
		buf.Add(batch.MustNew("obs", []float32{0}, "act", int64(i%2), "rew", 1.0,
			"terminated", i == 9, "truncated", false, "obs_next", []float32{0}), nil, nil)
	}
	var l algo.Learner
	stats, err := l.Step(d, buf, 4, rand.New(rand.NewPCG(3, 4)))
	fmt.Println(err, len(stats) > 0, d.Updates())
	// Output: <nil> true 1
}
