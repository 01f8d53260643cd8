package nn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/tensor"
)

// NoisyLinear is a linear layer with factorised Gaussian parameter noise
// (Fortunato et al., 2018, "Noisy Networks for Exploration", §3.2): in
// training mode
//
//	y = x·(μᵂ + σᵂ ⊙ εᵂ)ᵀ + μᵇ + σᵇ ⊙ εᵇ,  εᵂᵢⱼ = f(εᵢ)·f(εⱼ'), εᵇᵢ = f(εᵢ),
//
// with f(e) = sgn(e)·√|e| of standard normal draws ε (one per output) and
// ε' (one per input); in evaluation mode y = x·μᵂᵀ + μᵇ. The noise stays fixed
// until ResetNoise draws a new one.
//
// Its state is named as in the widely used PyTorch implementation (Kaixhin's
// Rainbow): parameters weight_mu, weight_sigma, bias_mu, bias_sigma, then the
// buffers weight_epsilon and bias_epsilon.
type NoisyLinear struct {
	WeightMu, WeightSigma, BiasMu, BiasSigma *tensor.Tensor
	WeightEps, BiasEps                       *tensor.Tensor // buffers
	fIn, fOut                                []float32      // f(ε'), f(ε)
	training                                 bool
}

// NewNoisyLinear returns a noisy layer in training mode, initialized as the
// paper's factorised case: μ from U(−1/√in, 1/√in) (weights, then biases),
// σ = σ₀/√in with σ₀ = sigma0 (the paper uses 0.5), and a first noise
// sample; all drawn from rng.
//
// NewNoisyLinear panics with an error wrapping ErrConfig if in or out is less
// than 1 or sigma0 is negative or not finite.
func NewNoisyLinear(in, out int, sigma0 float32, rng *rand.Rand) *NoisyLinear {
	if in < 1 || out < 1 || !(sigma0 >= 0) || math.IsInf(float64(sigma0), 1) {
		panic(fmt.Errorf("%w: NoisyLinear(%d, %d, σ₀ = %v)", ErrConfig, in, out, sigma0))
	}
	l := &NoisyLinear{
		WeightMu:    tensor.New(out, in).SetRequiresGrad(true),
		WeightSigma: tensor.New(out, in).SetRequiresGrad(true),
		BiasMu:      tensor.New(out).SetRequiresGrad(true),
		BiasSigma:   tensor.New(out).SetRequiresGrad(true),
		WeightEps:   tensor.New(out, in),
		BiasEps:     tensor.New(out),
		fIn:         make([]float32, in),
		fOut:        make([]float32, out),
		training:    true,
	}
	bound := float32(1 / math.Sqrt(float64(in)))
	l.WeightMu.FillUniform(rng, -bound, bound)
	l.BiasMu.FillUniform(rng, -bound, bound)
	l.WeightSigma.Fill(sigma0 * bound)
	l.BiasSigma.Fill(sigma0 * bound)
	l.ResetNoise(rng)
	return l
}

// ResetNoise draws new noise from rng: ε' for the inputs, then ε for the
// outputs. It does not allocate.
func (l *NoisyLinear) ResetNoise(rng *rand.Rand) {
	scale := func(f []float32) {
		for i := range f {
			e := rng.NormFloat64()
			f[i] = float32(math.Copysign(math.Sqrt(math.Abs(e)), e))
		}
	}
	scale(l.fIn)
	scale(l.fOut)
	w := l.WeightEps.Data()
	in := len(l.fIn)
	for i, fo := range l.fOut {
		row := w[i*in : (i+1)*in]
		for j, fi := range l.fIn {
			row[j] = fo * fi
		}
	}
	copy(l.BiasEps.Data(), l.fOut)
}

// Forward returns the noisy (training) or mean (evaluation) linear map of x.
// It panics with tensor.ErrShape if the last dimension of x is not the input
// size.
func (l *NoisyLinear) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	if !l.training {
		return tp.Linear(x, l.WeightMu, l.BiasMu)
	}
	w := tp.Add(l.WeightMu, tp.Mul(l.WeightSigma, l.WeightEps))
	b := tp.Add(l.BiasMu, tp.Mul(l.BiasSigma, l.BiasEps))
	return tp.Linear(x, w, b)
}

// SetTraining switches between the noisy (training) and mean (evaluation)
// weights.
func (l *NoisyLinear) SetTraining(on bool) { l.training = on }

// Params returns the four parameters, then the two noise buffers.
func (l *NoisyLinear) Params() Params {
	return Params{
		{Name: "weight_mu", Tensor: l.WeightMu},
		{Name: "weight_sigma", Tensor: l.WeightSigma},
		{Name: "bias_mu", Tensor: l.BiasMu},
		{Name: "bias_sigma", Tensor: l.BiasSigma},
		{Name: "weight_epsilon", Tensor: l.WeightEps, Buffer: true},
		{Name: "bias_epsilon", Tensor: l.BiasEps, Buffer: true},
	}
}
