package dqn

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
)

// buildNet returns the Q network cfg describes for observations of space
// and n actions, initialized from rng. For a masked observation space the
// network reads the real observations only (policy.NewObsNet).
func buildNet(cfg Config, space env.Space, n int, rng *rand.Rand) (policy.Network, error) {
	obsNet := func(l nn.Layer) policy.Network { return policy.NewObsNet(l, space) }
	box, ok := policy.NetSpace(space).(*env.Box)
	if !ok {
		return nil, fmt.Errorf("%w: the Q network needs a Box observation space, not %v", ErrConfig, space)
	}
	shape := box.Shape()
	var err error
	if cfg.CNN {
		if len(shape) != 3 || shape[1] != 84 || shape[2] != 84 {
			return nil, fmt.Errorf("%w: the Nature CNN needs observations [channels, 84, 84], not %v", ErrConfig, shape)
		}
		if cfg.Dueling == nil {
			return obsNet(nn.NewNatureCNN(shape[0], n, rng)), nil
		}
		trunk := nn.NewNatureCNN(shape[0], 0, rng)
		head, err := dueling(cfg.Dueling, 512, n, rng)
		if err != nil {
			return nil, err
		}
		return obsNet(nn.Sequential{trunk, head}), nil
	}
	var convs nn.Sequential
	if len(cfg.Conv) > 0 {
		var in int
		if convs, in, err = nn.NewConvStack(cfg.Conv, shape, rng); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		shape = []int{in}
	}
	if len(shape) != 1 {
		return nil, fmt.Errorf("%w: the MLP needs observations of one axis, not %v (set cnn for images)", ErrConfig, shape)
	}
	if cfg.Dueling == nil {
		mlp, err := nn.NewMLP(nn.MLPConfig{In: shape[0], Hidden: cfg.Hidden, Out: n}, rng)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		if convs != nil {
			return obsNet(append(convs, mlp)), nil
		}
		return obsNet(mlp), nil
	}
	trunk, err := nn.NewMLP(nn.MLPConfig{In: shape[0], Hidden: cfg.Hidden}, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	head, err := dueling(cfg.Dueling, cfg.Hidden[len(cfg.Hidden)-1], n, rng)
	if err != nil {
		return nil, err
	}
	return obsNet(append(convs, trunk, head)), nil
}

// dueling returns a dueling head from in features to n Q-values.
func dueling(c *DuelingConfig, in, n int, rng *rand.Rand) (*nn.Dueling, error) {
	v, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: c.ValueHidden, Out: 1}, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: value stream: %w", ErrConfig, err)
	}
	a, err := nn.NewMLP(nn.MLPConfig{In: in, Hidden: c.AdvantageHidden, Out: n}, rng)
	if err != nil {
		return nil, fmt.Errorf("%w: advantage stream: %w", ErrConfig, err)
	}
	return &nn.Dueling{Value: v, Advantage: a}, nil
}
