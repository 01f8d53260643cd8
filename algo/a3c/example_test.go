package a3c_test

import (
	"fmt"

	"github.com/gorl/gorl/algo/a3c"
)

// ExampleDefaultConfig prints the settings a3c.Run starts from.
func ExampleDefaultConfig() {
	cfg := a3c.DefaultConfig()
	fmt.Println(cfg.Workers, cfg.NSteps, cfg.A2C.Net.Hidden, cfg.A2C.Gamma, cfg.A2C.Optim.LR)
	// Output: 4 20 [64 64] 0.9 0.001
}
