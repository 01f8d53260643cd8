package bcqc

import (
	"math/rand/v2"

	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// Bounds of the VAE (the BCQ paper's): the encoder's log σ is clamped to
// [LogStdMin, LogStdMax], and a latent drawn to decode without an action
// is a standard normal clamped to [−LatentClip, LatentClip].
const (
	LogStdMin  = -4
	LogStdMax  = 15
	LatentClip = 0.5
)

// VAE is the generative model of the behaviour policy: an encoder from
// (s, a) to a Gaussian N(μ, σ²) over a latent z, and a decoder from (s, z)
// to MaxAction·tanh(…), an action.
type VAE struct {
	Encoder   *nn.MLP    // (s, a) → hidden features (ReLU after every layer)
	Mean      *nn.Linear // features → μ
	LogStd    *nn.Linear // features → log σ (clamped)
	Decoder   *nn.MLP    // (s, z) → action before tanh
	Latent    int
	MaxAction float32
	ps        nn.Params
}

func newVAE(obsDim, actDim int, hidden []int, latent int, maxAction float64, rng *rand.Rand) (*VAE, error) {
	enc, err := nn.NewMLP(nn.MLPConfig{In: obsDim + actDim, Hidden: hidden}, rng)
	if err != nil {
		return nil, err
	}
	h := hidden[len(hidden)-1]
	v := &VAE{Encoder: enc, Mean: nn.NewLinear(h, latent, rng), LogStd: nn.NewLinear(h, latent, rng), Latent: latent, MaxAction: float32(maxAction)}
	if v.Decoder, err = nn.NewMLP(nn.MLPConfig{In: obsDim + latent, Hidden: hidden, Out: actDim}, rng); err != nil {
		return nil, err
	}
	v.ps = append(v.Encoder.Params().Prefixed("encoder"), v.Mean.Params().Prefixed("mean")...)
	v.ps = append(v.ps, v.LogStd.Params().Prefixed("log_std")...)
	v.ps = append(v.ps, v.Decoder.Params().Prefixed("decoder")...)
	return v, nil
}

// Params returns the encoder's, μ's, log σ's and the decoder's parameters.
func (v *VAE) Params() nn.Params { return v.ps }

// Encode records μ and the clamped log σ of the latent for observations
// obs [k, n] and actions act [k, m] on tp.
func (v *VAE) Encode(tp *tensor.Tape, obs, act *tensor.Tensor) (mean, logStd *tensor.Tensor) {
	h := v.Encoder.Forward(tp, tp.Concat(1, obs, act))
	return v.Mean.Forward(tp, h), tp.Clamp(v.LogStd.Forward(tp, h), LogStdMin, LogStdMax)
}

// Decode records the actions MaxAction·tanh(Decoder(s, z)) [k, m] for
// observations obs [k, n] and latents z [k, Latent] on tp.
func (v *VAE) Decode(tp *tensor.Tape, obs, z *tensor.Tensor) *tensor.Tensor {
	return tp.MulScalar(tp.Tanh(v.Decoder.Forward(tp, tp.Concat(1, obs, z))), v.MaxAction)
}

// Perturbation is BCQ's actor Φ: given s and an action a, it returns
// clamp(a + φ·MaxAction·tanh(MLP(s, a)), −MaxAction, MaxAction), an action
// moved by at most φ·MaxAction per dimension.
type Perturbation struct {
	MLP       *nn.MLP
	Phi       float32
	MaxAction float32
}

func newPerturbation(obsDim, actDim int, hidden []int, phi, maxAction float64, rng *rand.Rand) (*Perturbation, error) {
	m, err := nn.NewMLP(nn.MLPConfig{In: obsDim + actDim, Hidden: hidden, Out: actDim}, rng)
	if err != nil {
		return nil, err
	}
	return &Perturbation{MLP: m, Phi: float32(phi), MaxAction: float32(maxAction)}, nil
}

// Params returns the MLP's parameters.
func (p *Perturbation) Params() nn.Params { return p.MLP.Params() }

// Forward records the perturbed actions of act [k, m] in obs [k, n] on tp.
func (p *Perturbation) Forward(tp *tensor.Tape, obs, act *tensor.Tensor) *tensor.Tensor {
	d := tp.MulScalar(tp.Tanh(p.MLP.Forward(tp, tp.Concat(1, obs, act))), p.Phi*p.MaxAction)
	return tp.Clamp(tp.Add(act, d), -p.MaxAction, p.MaxAction)
}

// VAELoss records on tp the VAE's loss for a batch: the reconstruction
// error mean((recon − act)²) plus half the mean over the batch and the
// latent dimensions of KL(N(μ, σ²) ‖ N(0, 1)) = −log σ + (σ² + μ² − 1)/2,
// given μ and log σ as Encode returns them.
func VAELoss(tp *tensor.Tape, recon, act, mean, logStd *tensor.Tensor) *tensor.Tensor {
	std := tp.Exp(logStd)
	kl := tp.Sub(tp.MulScalar(tp.AddScalar(tp.Add(tp.Mul(std, std), tp.Mul(mean, mean)), -1), 0.5), logStd)
	return tp.Add(tp.MSE(recon, act), tp.MulScalar(tp.Mean(kl), 0.5))
}

// TargetValuesTo stores in dst [k] the largest, over the n sampled actions
// of each row, of λ·min(q1, q2) + (1 − λ)·max(q1, q2), where q1 and q2 hold
// the two target critics' values of k·n actions, row after row (BCQ's
// target). It panics if the lengths disagree.
func TargetValuesTo(dst, q1, q2 []float32, n int, lambda float64) {
	if len(q1) != len(dst)*n || len(q2) != len(q1) {
		panic("bcqc: TargetValuesTo: lengths disagree")
	}
	l := float32(lambda)
	for i := range dst {
		best := float32(0)
		for j := range n {
			a, b := q1[i*n+j], q2[i*n+j]
			v := l*min(a, b) + (1-l)*max(a, b)
			if j == 0 || v > best {
				best = v
			}
		}
		dst[i] = best
	}
}

// fillLatent fills z with standard normal draws from rng, clamped to
// [−LatentClip, LatentClip] when clip is set.
func fillLatent(z []float32, rng *rand.Rand, clip bool) {
	for i := range z {
		v := rng.NormFloat64()
		if clip {
			v = min(max(v, -LatentClip), LatentClip)
		}
		z[i] = float32(v)
	}
}

// scratch is a tensor kept between calls, remade only when its shape
// changes.
type scratch struct{ t *tensor.Tensor }

func (s *scratch) get(rows, cols int) *tensor.Tensor {
	if s.t == nil || s.t.Dim(0) != rows || s.t.Dim(1) != cols {
		s.t = tensor.New(rows, cols)
	}
	return s.t
}

// repeatIndex returns idx grown to k·n, holding each of 0…k−1 n times in a
// row: the rows of IndexSelect that repeat each observation n times.
func repeatIndex(idx []int, k, n int) []int {
	if len(idx) == k*n {
		return idx
	}
	idx = idx[:0]
	for i := range k {
		for range n {
			idx = append(idx, i)
		}
	}
	return idx
}
