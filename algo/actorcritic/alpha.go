package actorcritic

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/optim"
	"github.com/gorl/gorl/tensor"
)

// Temperature holds the settings of the entropy temperature α of SAC and
// its relatives (REDQ, discrete SAC). They embed it, so its fields sit at
// the top level of their JSON.
type Temperature struct {
	// Alpha is the entropy temperature α > 0: fixed without AutoAlpha, the
	// starting value with it (log α₀ = log Alpha).
	Alpha float64 `json:"alpha"`
	// AutoAlpha tunes α by gradient descent on the learned log α, with the
	// loss −log α·mean(log π(a|s) + H̄), H̄ the target entropy.
	AutoAlpha bool `json:"auto_alpha"`
	// AlphaOptim configures log α's Adam.
	AlphaOptim optim.AdamConfig `json:"alpha_optim"`
}

// DefaultTemperature returns α = 1, tuned, with Adam at lr 3e-4: log α₀ = 0
// as in Tianshou's tests with automatic tuning.
func DefaultTemperature() Temperature {
	a := optim.DefaultAdamConfig()
	a.LR = 3e-4
	return Temperature{Alpha: 1, AutoAlpha: true, AlphaOptim: a}
}

// Validate returns an error wrapping ErrConfig naming the first invalid
// field, or nil.
func (c Temperature) Validate() error {
	if !(c.Alpha > 0) || math.IsInf(c.Alpha, 0) {
		return fmt.Errorf("%w: alpha %v; want finite > 0", ErrConfig, c.Alpha)
	}
	if err := c.AlphaOptim.Validate(); err != nil {
		return fmt.Errorf("%w: alpha_optim: %w", ErrConfig, err)
	}
	return nil
}

// Alpha is the temperature α = exp(log α), fixed or tuned towards a target
// entropy (Tianshou's AutoAlpha). It does not allocate once made.
type Alpha struct {
	// LogAlpha is log α [1], trainable with AutoAlpha.
	LogAlpha      *tensor.Tensor
	auto          bool
	targetEntropy float64
	opt           *Optimizer
	tp            tensor.Tape
}

// NewAlpha returns the temperature of c aiming at targetEntropy (which
// AutoAlpha needs finite). It returns an error wrapping ErrConfig for an
// invalid c or target.
func NewAlpha(c Temperature, targetEntropy float64) (*Alpha, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if math.IsNaN(targetEntropy) || math.IsInf(targetEntropy, 0) {
		return nil, fmt.Errorf("%w: target entropy %v", ErrConfig, targetEntropy)
	}
	a := &Alpha{LogAlpha: tensor.New(1), auto: c.AutoAlpha, targetEntropy: targetEntropy}
	a.LogAlpha.Fill(float32(math.Log(c.Alpha)))
	a.LogAlpha.SetRequiresGrad(c.AutoAlpha)
	var err error
	if a.opt, err = NewOptimizer(a.Params(), Training{Optim: c.AlphaOptim}); err != nil {
		return nil, fmt.Errorf("%w: alpha_optim: %w", ErrConfig, err)
	}
	return a, nil
}

// Value returns α = exp(log α).
func (a *Alpha) Value() float64 { return math.Exp(float64(a.LogAlpha.Data()[0])) }

// TargetEntropy returns the entropy AutoAlpha aims at.
func (a *Alpha) TargetEntropy() float64 { return a.targetEntropy }

// Step makes one step of log α on L_α (AlphaLoss) for the
// log-probabilities logp of the actor's samples, and returns L_α; without
// AutoAlpha it changes nothing and returns 0. Where the entropies H of
// the actor's distributions are known exactly (a Categorical's), pass −H.
func (a *Alpha) Step(logp []float32) float64 {
	if !a.auto {
		return 0
	}
	a.tp.Reset()
	loss := AlphaLoss(&a.tp, a.LogAlpha, logp, a.targetEntropy)
	a.opt.Step(&a.tp, loss)
	return float64(loss.Item())
}

// Params returns log α, named "log_alpha".
func (a *Alpha) Params() nn.Params { return nn.Params{{Name: "log_alpha", Tensor: a.LogAlpha}} }

// Parts returns the parts of a saved state: log α ("log_alpha") and its
// optimizer ("alpha_optim").
func (a *Alpha) Parts() []algo.Part {
	return []algo.Part{
		algo.ParamsPart("log_alpha", a.Params()),
		{Name: "alpha_optim", Save: a.opt.Save, Load: a.opt.Load},
	}
}

// AlphaLoss records on tp the temperature loss of SAC with automatic
// tuning, L_α = −log α · mean(log π(ã|s) + H̄), a scalar, for the
// log-probabilities logp of the actor's samples (constants: no gradient
// reaches the actor) and the target entropy H̄. Its gradient with respect
// to log α is −mean(log π + H̄): α grows while the policy's entropy −log π
// is below H̄.
func AlphaLoss(tp *tensor.Tape, logAlpha *tensor.Tensor, logp []float32, targetEntropy float64) *tensor.Tensor {
	var sum float64
	for _, v := range logp {
		sum += float64(v) + targetEntropy
	}
	return tp.Sum(tp.MulScalar(logAlpha, float32(-sum/float64(len(logp)))))
}
