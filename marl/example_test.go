package marl_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/env/multiagent/tictactoe"
	"github.com/gorl/gorl/marl"
)

// Two random players share a policy; each keeps its own buffer.
func ExampleAECCollector() {
	r := &marl.Random{N: 9, Rng: rand.New(rand.NewPCG(1, 2))}
	d, err := marl.NewDispatcher([]string{"player_1", "player_2"}, map[string]marl.Actor{"player_1": r, "player_2": r})
	if err != nil {
		panic(err)
	}
	b1, _ := buffer.New(buffer.Config{Size: 100})
	b2, _ := buffer.New(buffer.Config{Size: 100})
	c := marl.NewAECCollector(tictactoe.New(), d, map[string]marl.Store{"player_1": b1, "player_2": b2}, env.SeedOf(1))
	eps, err := c.Collect(3, true)
	if err != nil {
		panic(err)
	}
	moves := 0
	for _, ep := range eps {
		moves += ep.Steps
	}
	fmt.Println("moves:", moves, "stored:", b1.Len()+b2.Len())
	fmt.Println("player_1 won the first game:", eps[0].Returns["player_1"] > 0)
	// Output:
	// moves: 27 stored: 27
	// player_1 won the first game: true
}
