package env

import (
	"fmt"
	"math"

	"github.com/gorl/gorl/nd"
)

// GrayscaleResize turns uint8 images into grayscale images of a new size,
// the 84×84 frames of Mnih et al. (2015), Gymnasium's AtariPreprocessing
// screen processing: an observation Box of shape [H, W, 3] (RGB), [H, W, 1]
// or [H, W] becomes one of shape [height, width], uint8 in [0, 255].
//
// The gray level is OpenCV's RGB2GRAY, 0.299·R + 0.587·G + 0.114·B in its
// fixed-point form; the resize averages each output pixel's area of the
// input with fractional weights at the edges, which is OpenCV's INTER_AREA
// when shrinking (Gymnasium's choice), and rounds half to even.
//
// The observation is the wrapper's own array, overwritten by its next call;
// stepping does not allocate.
type GrayscaleResize struct {
	wrapper
	in     []int // H, W, channels (1 or 3)
	space  *Box
	gray   []float32 // H·W gray levels of the input
	rows   []float32 // height·W: gray resized along the rows only
	out    *nd.Array
	wy, wx [][]areaWeight
}

// areaWeight is the weight of input index i in an output pixel.
type areaWeight struct {
	i int
	w float32
}

// NewGrayscaleResize wraps e. It returns an error wrapping ErrSpace unless
// e's observation space is a uint8 Box of one of the shapes above, and an
// error unless height and width are positive.
func NewGrayscaleResize(e Env, height, width int) (*GrayscaleResize, error) {
	box, ok := e.ObservationSpace().(*Box)
	if !ok || box.dt != nd.Uint8 || len(box.shape) < 2 || len(box.shape) > 3 ||
		len(box.shape) == 3 && box.shape[2] != 1 && box.shape[2] != 3 {
		return nil, fmt.Errorf("%w: GrayscaleResize needs a uint8 Box [H, W], [H, W, 1] or [H, W, 3], not %v", ErrSpace, e.ObservationSpace())
	}
	if height < 1 || width < 1 {
		return nil, fmt.Errorf("env: GrayscaleResize to %d×%d: want a positive size", height, width)
	}
	in := []int{box.shape[0], box.shape[1], 1}
	if len(box.shape) == 3 {
		in[2] = box.shape[2]
	}
	space, err := NewBox(0.0, 255.0, []int{height, width}, nd.Uint8)
	if err != nil {
		return nil, err
	}
	return &GrayscaleResize{
		wrapper: wrapper{e}, in: in, space: space,
		gray: make([]float32, in[0]*in[1]), rows: make([]float32, height*in[1]),
		out: nd.Zeros(nd.Uint8, height, width),
		wy:  areaWeights(in[0], height), wx: areaWeights(in[1], width),
	}, nil
}

// areaWeights returns, for each of the out output indices, the input indices
// its interval [o·s, (o+1)·s) covers (s = in/out) and the fraction of the
// interval each covers.
func areaWeights(in, out int) [][]areaWeight {
	s := float64(in) / float64(out)
	ws := make([][]areaWeight, out)
	for o := range ws {
		lo, hi := float64(o)*s, float64(o+1)*s
		for i := int(math.Floor(lo)); i < in && float64(i) < hi; i++ {
			overlap := math.Min(hi, float64(i+1)) - math.Max(lo, float64(i))
			if overlap > 1e-12 {
				ws[o] = append(ws[o], areaWeight{i, float32(overlap / s)})
			}
		}
	}
	return ws
}

// ObservationSpace returns the uint8 Box [height, width].
func (g *GrayscaleResize) ObservationSpace() Space { return g.space }

// Reset resets the wrapped env and converts its observation.
func (g *GrayscaleResize) Reset(seed Seed) (any, Info, error) {
	obs, info, err := g.inner.Reset(seed)
	if err != nil {
		return nil, info, err
	}
	if err := g.convert(obs); err != nil {
		return nil, info, err
	}
	return g.out, info, nil
}

// Step steps the wrapped env and converts its observation.
func (g *GrayscaleResize) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := g.inner.Step(action)
	if err != nil {
		return nil, r, term, trunc, info, err
	}
	if err := g.convert(obs); err != nil {
		return nil, r, term, trunc, info, err
	}
	return g.out, r, term, trunc, info, nil
}

func (g *GrayscaleResize) convert(obs any) error {
	a, ok := obs.(*nd.Array)
	if !ok || a.DType() != nd.Uint8 || a.Size() != g.in[0]*g.in[1]*g.in[2] || !a.IsContiguous() {
		return fmt.Errorf("env: GrayscaleResize: the wrapped env returned %s, not a contiguous uint8 image of %d×%d×%d", describe(obs), g.in[0], g.in[1], g.in[2])
	}
	px := nd.Data[uint8](a)
	if g.in[2] == 3 {
		for i := range g.gray {
			r, gr, b := uint32(px[3*i]), uint32(px[3*i+1]), uint32(px[3*i+2])
			g.gray[i] = float32((r*4899 + gr*9617 + b*1868 + 1<<13) >> 14)
		}
	} else {
		for i, v := range px {
			g.gray[i] = float32(v)
		}
	}
	w := g.in[1]
	for oy, wy := range g.wy {
		row := g.rows[oy*w : (oy+1)*w]
		clear(row)
		for _, c := range wy {
			for x, v := range g.gray[c.i*w : (c.i+1)*w] {
				row[x] += c.w * v
			}
		}
	}
	out := nd.Data[uint8](g.out)
	width := len(g.wx)
	for oy := range g.wy {
		row := g.rows[oy*w : (oy+1)*w]
		for ox, wx := range g.wx {
			var s float32
			for _, c := range wx {
				s += c.w * row[c.i]
			}
			out[oy*width+ox] = uint8(min(max(math.RoundToEven(float64(s)), 0), 255))
		}
	}
	return nil
}
