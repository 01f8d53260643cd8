package apex_test

import (
	"fmt"

	"github.com/gorl/gorl/algo/apex"
)

// ExampleActorSigma prints the noise scales of Ape-X DDPG's 4 actors
// around DDPG's σ = 0.2, spread by 4.
func ExampleActorSigma() {
	for i := range 4 {
		fmt.Printf("%.3f ", apex.ActorSigma(0.2, 4, i, 4))
	}
	fmt.Println()
	// Output: 0.400 0.252 0.159 0.100
}
