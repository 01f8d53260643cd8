package rainbow

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/algo/categorical"
	"github.com/gorl/gorl/env"
)

// Rainbow is C51 with a noisy dueling head, n-step returns and prioritized
// replay (Hessel et al., 2018), an algo.OffPolicy and algo.Scheduled
// algorithm; see the package documentation. It is driven by one goroutine
// at a time.
type Rainbow struct {
	categorical.DQN
	cfg Config
}

// New returns a Rainbow for an env with the given spaces: an MLP trunk (or
// the Nature CNN with cfg.CNN), a dueling head of noisy layers giving the
// logits of NumAtoms atoms per action, a target network, Adam, and a policy
// acting ε-greedily on the expected returns, through the noise while
// collecting training data and with the mean weights while testing. The
// weights, the noise and the seeds of the random sources are drawn from
// rng.
//
// New returns an error wrapping ErrConfig for an invalid cfg, an action
// space that is not Discrete (naming it), or an observation space the
// network cannot take.
func New(cfg Config, obs, act env.Space, rng *rand.Rand) (*Rainbow, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.ValueHidden, cfg.AdvantageHidden = slices.Clone(cfg.ValueHidden), slices.Clone(cfg.AdvantageHidden)
	r := &Rainbow{cfg: cfg}
	if err := r.Init(cfg.Settings, cfg.head(), cfg.Exploration, obs, act, rng); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return r, nil
}

// Config returns the configuration.
func (r *Rainbow) Config() Config { return r.cfg }
