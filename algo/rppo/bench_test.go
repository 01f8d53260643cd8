package rppo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/rppo"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/tensor"
)

// BenchmarkUpdate measures one update of DefaultConfig as the CartPoleNoVel
// preset runs it: a collection of 8 envs × 64 steps (512 transitions, 4
// observations each), Preprocess (the cell through every chunk, GAE), and
// 10 passes of minibatches of 8 sequences of 16 steps; with the GRU (the
// default), the LSTM, the LSTM with separate trunks and Box actions (two
// dimensions), and the GRU with Box actions explored by gSDE (use_sde).
func BenchmarkUpdate(b *testing.B) {
	b.Logf("BLAS: %s", tensor.BLASName())
	for _, c := range []struct {
		name     string
		cell     string
		separate bool
		box, sde bool
	}{
		{"gru", rppo.CellGRU, false, false, false},
		{"lstm", rppo.CellLSTM, false, false, false},
		{"lstm-separate-box", rppo.CellLSTM, true, true, false},
		{"gru-sde-box", rppo.CellGRU, false, true, true},
	} {
		b.Run(c.name+"/"+algotest.BLASTag(), func(b *testing.B) {
			var act env.Space = algotest.Discrete(b, 2, 0)
			if c.box {
				act = algotest.Box(b, -2, 2, 2)
			}
			buf := algotest.Collection(b, 8, 64, act, rand.New(rand.NewPCG(1, 2)))
			cfg := rppo.DefaultConfig()
			cfg.Cell, cfg.SeparateTrunks, cfg.SDE = c.cell, c.separate, c.sde
			r, err := rppo.New(cfg, algotest.Box(b, -10, 10, 4), act, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				b.Fatal(err)
			}
			var l algo.Learner
			cputime.Measure(b, func() {
				if _, err := l.StepAll(r, buf, 128, 10); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
