package minatar_test

import (
	"fmt"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/minatar"
	"github.com/gorl/gorl/nd"
)

// Breakout played by a rule: move the paddle under the ball. Without sticky
// actions the rule never misses, and the episode is cut after 500 frames.
func ExampleNew() {
	cfg := minatar.DefaultConfig()
	cfg.StickyActionProb = 0
	cfg.MinimalActions = true // no-op, left, right
	e, err := minatar.New("Breakout", cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	obs, _, _ := e.Reset(env.SeedOf(1))
	act := nd.Zeros(nd.Int64)
	ret, steps := 0.0, 0
	for steps < 500 {
		grid := nd.Data[uint8](obs.(*nd.Array)) // [channel][row][column]
		paddle, ball := 0, 0
		for i := range 100 {
			if grid[i] == 1 { // channel 0: paddle
				paddle = i % 10
			}
			if grid[100+i] == 1 { // channel 1: ball
				ball = i % 10
			}
		}
		switch {
		case ball < paddle:
			nd.Data[int64](act)[0] = 1 // left
		case ball > paddle:
			nd.Data[int64](act)[0] = 2 // right
		default:
			nd.Data[int64](act)[0] = 0
		}
		var r float64
		var over bool
		obs, r, over, _, _, _ = e.Step(act)
		ret += r
		steps++
		if over {
			break
		}
	}
	fmt.Printf("%s: return %.0f in %d frames\n", e.ID(), ret, steps)
	// Output:
	// Breakout-MinAtar-v1: return 43 in 500 frames
}

// The registered ids, made through package env.
func Example_make() {
	for _, id := range []string{"Breakout-MinAtar-v0", "SpaceInvaders-MinAtar-v1"} {
		e, err := env.Make(id)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(id, e.ObservationSpace(), e.ActionSpace())
	}
	// Output:
	// Breakout-MinAtar-v0 Box(0, 1, (4, 10, 10), uint8) Discrete(6)
	// SpaceInvaders-MinAtar-v1 Box(0, 1, (6, 10, 10), uint8) Discrete(4)
}
