package classic

import "github.com/gorl/gorl/env"

// The partially observed variants: CartPole and Pendulum with their
// velocities removed (env.SelectObservation), the memory tasks of recurrent
// policies (a feed-forward policy sees positions only and must guess the
// velocities). Their limits and thresholds are those of the full envs.
var (
	// cartPoleNoVelKeep are the elements of CartPole's observation that
	// CartPoleNoVel-v1 keeps: the cart position and the pole angle.
	cartPoleNoVelKeep = []int{0, 2}
	// pendulumNoVelKeep are the elements of Pendulum's observation that
	// PendulumNoVel-v1 keeps: cos θ and sin θ, without the angular
	// velocity.
	pendulumNoVelKeep = []int{0, 1}
)

func init() {
	ptr := func(v float64) *float64 { return &v }
	env.Register("CartPoleNoVel-v1", env.Spec{
		New: func() (env.Env, error) {
			e, err := NewCartPoleEnv(NewCartPole())
			if err != nil {
				return nil, err
			}
			return env.NewSelectObservation(e, cartPoleNoVelKeep)
		},
		MaxEpisodeSteps: CartPoleMaxEpisodeSteps,
		RewardThreshold: ptr(CartPoleRewardThreshold),
		TestThreshold:   ptr(CartPoleTestThreshold),
	})
	env.Register("PendulumNoVel-v1", env.Spec{
		New: func() (env.Env, error) {
			e, err := NewPendulumEnv(NewPendulum())
			if err != nil {
				return nil, err
			}
			return env.NewSelectObservation(e, pendulumNoVelKeep)
		},
		MaxEpisodeSteps: PendulumMaxEpisodeSteps,
		TestThreshold:   ptr(PendulumTestThreshold),
	})
}
