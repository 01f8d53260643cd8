package c51

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/algo/categorical"
	"github.com/gorl/gorl/env"
)

// C51 is the categorical DQN of Bellemare et al. (2017), an algo.OffPolicy
// and algo.Scheduled algorithm; see the package documentation. Its policy
// is a *policy.Q acting on the expected returns. It is driven by one
// goroutine at a time.
type C51 struct {
	categorical.DQN
	cfg Config
}

// New returns a C51 for an env with the given spaces: an MLP (or the Nature
// CNN with cfg.CNN) giving the logits of NumAtoms atoms per action, a target
// network, Adam and an ε-greedy policy. The weights and the seeds of the
// policy's random source are drawn from rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action
// space that is not Discrete (naming it), or an observation space the
// network cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*C51, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &C51{cfg: cfg}
	if err := c.Init(cfg.Settings, categorical.Head{}, cfg.Exploration, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c, nil
}

// Config returns the configuration.
func (c *C51) Config() Config { return c.cfg }
