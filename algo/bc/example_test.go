package bc_test

import (
	"encoding/json"
	"fmt"

	"github.com/gorl/gorl/algo/bc"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// A BC learns the logged actions by cross entropy; its policy then takes
// the action of largest logit.
func ExampleBC() {
	// Logits = W·s, W = I: for s = (1, 2) the network prefers action 1,
	// for s = (3, 0) action 0, but the data logged action 0 for both. The
	// first loss is (log(1 + e) + log(1 + e⁻³))/2 = 0.681.
	net := policy.ObsNet{Layer: &nn.Linear{Weight: tensor.MustFromSlice([]float32{1, 0, 0, 1}, 2, 2).SetRequiresGrad(true)}}
	space, _ := env.NewDiscrete(2, 0)
	cfg := bc.DefaultConfig()
	cfg.Optim.LR = 0.1
	b, err := bc.NewWithNetwork(cfg, net, space)
	if err != nil {
		panic(err)
	}
	data := batch.MustNew("obs", nd.MustNew([][]float32{{1, 2}, {3, 0}}), "act", nd.MustNew([]int64{0, 0}))
	var out batch.Batch
	for i := range 3 {
		stats, err := b.Update(data)
		if err != nil {
			panic(err)
		}
		b.Policy().Act(&out, data, nil, false)
		fmt.Printf("update %d: loss %.3f, actions %v\n", i+1, stats["loss"], nd.ToSlice[int64](must(out.Array("act"))))
	}
	// Output:
	// update 1: loss 0.681, actions [1 0]
	// update 2: loss 0.470, actions [0 0]
	// update 3: loss 0.308, actions [0 0]
}

// A Config is plain data with JSON tags, so a run can write it next to its
// logs and read it back.
func ExampleConfig() {
	cfg := bc.DefaultConfig()
	b, _ := json.Marshal(cfg)
	fmt.Println(string(b))
	// Output:
	// {"hidden":[64,64],"optim":{"lr":0.001,"beta1":0.9,"beta2":0.999,"eps":1e-8,"weight_decay":0,"amsgrad":false,"decoupled":false},"max_grad_norm":0,"map":{"bound":"","scale":false}}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
