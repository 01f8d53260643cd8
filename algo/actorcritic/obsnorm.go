package actorcritic

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// ObsNormEps is added to the standard deviation of each observation
// feature by ObsNorm.Fit, as the TD3+BC paper does, so that a constant
// feature divides by it rather than by zero.
const ObsNormEps = 1e-3

// ObsNorm is a fixed normalization of observations, (s − μ)/σ per feature,
// with μ and σ computed once from a dataset (the TD3+BC paper's state
// normalization). μ and σ are parameters that are never trained (they do
// not require gradients), named "obs_mean" and "obs_std", so that they are
// saved with the networks and the policy they sit in front of. A new
// ObsNorm is the identity (μ = 0, σ = 1).
type ObsNorm struct {
	Mean, Std *tensor.Tensor
	inv       *tensor.Tensor // 1/σ, kept with Std
}

// NewObsNorm returns the identity normalization of n features. It panics
// with an error wrapping ErrConfig if n < 1.
func NewObsNorm(n int) *ObsNorm {
	if n < 1 {
		panic(fmt.Errorf("%w: an ObsNorm of %d features", ErrConfig, n))
	}
	o := &ObsNorm{Mean: tensor.New(n), Std: tensor.New(n), inv: tensor.New(n)}
	o.Std.Fill(1)
	o.inv.Fill(1)
	return o
}

// Params returns μ and σ, named "obs_mean" and "obs_std".
func (o *ObsNorm) Params() nn.Params {
	return nn.Params{{Name: "obs_mean", Tensor: o.Mean}, {Name: "obs_std", Tensor: o.Std}}
}

// Forward records (x − μ)·(1/σ) on tp for observations x [k, n].
func (o *ObsNorm) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	o.sync()
	return tp.Mul(tp.Sub(x, o.Mean), o.inv)
}

// sync refreshes 1/σ from σ, which a Load may have replaced.
func (o *ObsNorm) sync() {
	inv := o.inv.Data()
	for i, s := range o.Std.Data() {
		inv[i] = 1 / s
	}
}

// Fit sets μ to the mean and σ to the standard deviation (population, plus
// ObsNormEps) of each feature of the observations obs [k, n], computed in
// float64. It returns an error, changing nothing, for obs of another shape,
// no rows, a non-numeric dtype or values that are not finite.
func (o *ObsNorm) Fit(obs *nd.Array) error {
	n := o.Mean.Len()
	if obs.Ndim() != 2 || obs.Dim(1) != n || obs.Dim(0) == 0 {
		return fmt.Errorf("actorcritic: observations of shape %v to normalize; want [k %d], k ≥ 1", obs.Shape(), n)
	}
	f, err := obs.AsType(nd.Float64)
	if err != nil {
		return fmt.Errorf("actorcritic: observations to normalize: %w", err)
	}
	if !f.IsContiguous() {
		f = f.Copy()
	}
	data, k := nd.Data[float64](f), obs.Dim(0)
	mean, sq := make([]float64, n), make([]float64, n)
	for r := range k {
		for j, v := range data[r*n : (r+1)*n] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("actorcritic: observation %d, feature %d is %v", r, j, v)
			}
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(k)
	}
	for r := range k {
		for j, v := range data[r*n : (r+1)*n] {
			d := v - mean[j]
			sq[j] += d * d
		}
	}
	m, s := o.Mean.Data(), o.Std.Data()
	for j := range m {
		m[j] = float32(mean[j])
		s[j] = float32(math.Sqrt(sq[j]/float64(k)) + ObsNormEps)
	}
	o.sync()
	return nil
}

// FitBuffer fits o (Fit) to the observations of every transition of buf,
// a Box observation space's [k, n] "obs".
func (o *ObsNorm) FitBuffer(buf buffer.Buffer) error {
	var b batch.Batch
	if err := buf.TakeTo(&b, buf.SampleIndices(0, nil)); err != nil {
		return fmt.Errorf("actorcritic: observations to normalize: %w", err)
	}
	obs, err := b.Array(batch.KeyObs)
	if err != nil {
		return fmt.Errorf("actorcritic: observations to normalize: %w", err)
	}
	return o.Fit(obs)
}

// normalized is a layer applying an ObsNorm before another layer: the
// network of a policy whose observations are normalized. Its parameters are
// the ObsNorm's followed by the layer's.
type normalized struct {
	norm  *ObsNorm
	layer nn.Layer
	ps    nn.Params
}

func (n *normalized) Forward(tp *tensor.Tape, x *tensor.Tensor) *tensor.Tensor {
	return n.layer.Forward(tp, n.norm.Forward(tp, x))
}

func (n *normalized) Params() nn.Params { return n.ps }
