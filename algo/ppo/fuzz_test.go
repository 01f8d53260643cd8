package ppo_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/algo/algotest"
	"github.com/gorl/gorl/algo/ppo"
)

// FuzzLoad loads arbitrary bytes as a saved state into a fresh PPO (with a
// Normal head, so every part of the state is present): Load must return an
// error or succeed, never panic. The corpus starts from a real state and
// its truncations.
func FuzzLoad(f *testing.F) {
	build := func(t testing.TB) *ppo.PPO {
		cfg := ppo.ContinuousConfig()
		cfg.Net.Hidden = []int{4}
		p, err := ppo.New(cfg, algotest.Box(t, -1, 1, 3), algotest.Box(t, -2, 2, 1), rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var state bytes.Buffer
	if err := build(f).Save(&state); err != nil {
		f.Fatal(err)
	}
	good := state.Bytes()
	f.Add(good)
	for _, n := range []int{0, 4, 5, len(good) / 3, len(good) / 2, len(good) - 1} {
		f.Add(good[:n])
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	f.Add(flipped)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := build(t)
		_ = p.Load(bytes.NewReader(data))
	})
}
