package nn

import (
	"fmt"
	"math/rand/v2"
)

// ConvSpec is one convolution of a ConvStack, without padding. Its JSON
// form is how algorithm configurations name their convolutions.
type ConvSpec struct {
	// Out is the number of output channels, at least 1.
	Out int `json:"out"`
	// Kernel is the side of the square filter, at least 1.
	Kernel int `json:"kernel"`
	// Stride is the step of the filter; 0 means 1.
	Stride int `json:"stride"`
}

// Validate returns an error naming the bad field, or nil.
func (c ConvSpec) Validate() error {
	if c.Out < 1 || c.Kernel < 1 || c.Stride < 0 {
		return fmt.Errorf("nn: conv layer %+v: want out ≥ 1, kernel ≥ 1, stride ≥ 0", c)
	}
	return nil
}

// NewConvStack returns the convolutions specs describes, each followed by a
// ReLU, and a flattening, for inputs of shape [channels, height, width]
// (one sample), with the number of features it outputs per sample. It
// returns an error for another shape, an invalid spec or a filter larger
// than its input.
func NewConvStack(specs []ConvSpec, shape []int, rng *rand.Rand) (Sequential, int, error) {
	if len(shape) != 3 {
		return nil, 0, fmt.Errorf("nn: convolutions need inputs [channels, height, width], not %v", shape)
	}
	c, h, w := shape[0], shape[1], shape[2]
	var body Sequential
	for _, l := range specs {
		if err := l.Validate(); err != nil {
			return nil, 0, err
		}
		s := max(l.Stride, 1)
		if l.Kernel > h || l.Kernel > w {
			return nil, 0, fmt.Errorf("nn: a %d×%d filter on a %d×%d input", l.Kernel, l.Kernel, h, w)
		}
		body = append(body, NewConv2d(c, l.Out, l.Kernel, s, 0, rng), ReLU)
		c, h, w = l.Out, (h-l.Kernel)/s+1, (w-l.Kernel)/s+1
	}
	return append(body, Flatten{}), c * h * w, nil
}
