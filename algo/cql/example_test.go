package cql_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/cql"
	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nd"
)

// Continuous CQL refuses a Discrete action space, naming it; discrete CQL
// (package discretecql) is for those.
func ExampleNew() {
	obs, _ := env.NewBox(-1, 1, []int{3}, nd.Float32)
	act, _ := env.NewDiscrete(2, 0)
	_, err := cql.New(cql.DefaultConfig(), obs, act, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(err)
	// Output: cql: invalid configuration: CQL needs a Box action space, not Discrete(2) (discrete CQL learns Discrete actions)
}
