package actorcritic

import (
	"fmt"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// NormalHead reads a network's output [k, m] as the mean μ of a diagonal
// Gaussian over m-dimensional Box actions whose log standard deviation LogStd
// [m] is a parameter of its own, trained with the networks and independent
// of the observation: Independent(Normal(μ, exp(LogStd)), 1), batch shape
// [k], event shape [m] (Tianshou's probabilistic continuous actor with an
// unbounded mean and an unconditioned σ, CleanRL's actor_logstd). It is a
// policy.Head and an nn.Module (its parameter is named "log_std").
type NormalHead struct {
	LogStd *tensor.Tensor
}

// NewNormalHead returns a head for m action dimensions whose log standard
// deviations start at logStd. It panics with an error wrapping ErrConfig if
// m < 1, as nn's layer constructors do.
func NewNormalHead(m int, logStd float32) *NormalHead {
	if m < 1 {
		panic(fmt.Errorf("%w: a NormalHead of %d dimensions", ErrConfig, m))
	}
	t := tensor.New(m)
	t.Fill(logStd)
	return &NormalHead{LogStd: t.SetRequiresGrad(true)}
}

// New returns an empty *distribution.Independent, which Set fills with a
// Normal base.
func (h *NormalHead) New() distribution.Distribution { return new(distribution.Independent) }

// Set sets d, made by New, to Independent(Normal(out, exp(LogStd)), 1) on
// tp. It returns the Normal's error (wrapping distribution.ErrParam) for a
// mean or a standard deviation that is not finite, and panics with
// distribution.ErrShape if out is not [k, m].
func (h *NormalHead) Set(d distribution.Distribution, tp *tensor.Tape, out *tensor.Tensor) error {
	ind := d.(*distribution.Independent)
	base, _ := ind.Base().(*distribution.Normal)
	if base == nil {
		base = new(distribution.Normal)
	}
	if out.NDim() != 2 || out.Dim(1) != h.LogStd.Len() {
		panic(fmt.Errorf("%w: a NormalHead of %d dimensions given an output of shape %v", distribution.ErrShape, h.LogStd.Len(), out.Shape()))
	}
	if err := base.Set(tp, out, tp.Exp(h.LogStd)); err != nil {
		return err
	}
	ind.Set(tp, base, 1)
	return nil
}

// Params returns LogStd, named "log_std".
func (h *NormalHead) Params() nn.Params { return nn.Params{{Name: "log_std", Tensor: h.LogStd}} }
