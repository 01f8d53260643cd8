package crr_test

import (
	"encoding/json"
	"fmt"

	"github.com/gorl/gorl/algo/crr"
)

// A Config is plain data with JSON tags: a configuration file chooses the
// filter and its parameters by Tianshou's names.
func ExampleConfig() {
	cfg := crr.DefaultConfig()
	if err := json.Unmarshal([]byte(`{"policy_improvement_mode": "binary", "min_q_weight": 0}`), &cfg); err != nil {
		panic(err)
	}
	fmt.Println(cfg.Filter, cfg.MinQWeight, cfg.Validate())
	// Output: binary 0 <nil>
}
