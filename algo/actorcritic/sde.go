package actorcritic

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gorl/gorl/distribution"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/tensor"
)

// sdeEpsilon is added to the variance of a state-dependent Normal, keeping
// its scale above zero where the features vanish.
const sdeEpsilon = 1e-6

// SDEHead is the Normal head with generalized state-dependent exploration
// (gSDE, Raffin et al. 2021, "Smooth Exploration for Robotic Reinforcement
// Learning"). It reads the actor's latent features z [k, h] (the last hidden
// layer), maps them to the mean μ = Mean(z) [k, m], and explores with
// noise z·W, where the exploration matrix W [h, m] has entries drawn from
// N(0, σ²), σ = exp(LogStd) [h, m] learned per feature and action
// dimension. W is kept for SampleFreq samples, so consecutive actions move
// together instead of jittering step by step. Given z, an action is Normal
// with mean μ and variance Σₗ zₗ²·σₗ² (+ 10⁻⁶), the distribution whose
// log-probabilities and entropies the losses use; the features enter the
// variance without gradient, as in the paper's default.
//
// One matrix is kept per row of the observations a Sample acts on (the
// envs of a synchronous collection); all are redrawn every SampleFreq
// samples, and when the number of rows changes. The matrices and the
// sample count are part of the head's state (MarshalBinary), which the
// algorithm saves with its checkpoint. An SDEHead is a policy.Head and an
// nn.Module (parameters "mean.weight", "mean.bias", "log_std").
type SDEHead struct {
	Mean   *nn.Linear
	LogStd *tensor.Tensor

	h, m  int
	freq  int64
	count int64     // samples drawn
	rows  int       // rows of the current matrices
	w     []float32 // rows × h × m
}

// NewSDEHead returns a head reading h features for m action dimensions,
// with a mean layer drawn from rng (PyTorch's default initialization),
// log standard deviations logStd, and a new exploration matrix every
// sampleFreq samples (0 or 1: every sample). It panics with an error
// wrapping ErrConfig if h or m is below 1 or sampleFreq is negative.
func NewSDEHead(h, m int, logStd float32, sampleFreq int, rng *rand.Rand) *SDEHead {
	if h < 1 || m < 1 || sampleFreq < 0 {
		panic(fmt.Errorf("%w: an SDEHead of %d features, %d dimensions, sample frequency %d", ErrConfig, h, m, sampleFreq))
	}
	t := tensor.New(h, m)
	t.Fill(logStd)
	return &SDEHead{Mean: nn.NewLinear(h, m, rng), LogStd: t.SetRequiresGrad(true), h: h, m: m, freq: int64(max(sampleFreq, 1))}
}

// InputWidth returns h, the number of features the head reads.
func (s *SDEHead) InputWidth() int { return s.h }

// New returns an empty distribution for Set: an Independent Normal whose
// Sample adds the state-dependent noise.
func (s *SDEHead) New() distribution.Distribution { return &sdeDist{head: s} }

// Set sets d, made by New, to the distribution of the features z [k, h]
// recorded on tp. It returns the Normal's error for a mean or scale that is
// not finite, and panics with distribution.ErrShape if z is not [k, h].
func (s *SDEHead) Set(d distribution.Distribution, tp *tensor.Tape, z *tensor.Tensor) error {
	sd := d.(*sdeDist)
	if z.NDim() != 2 || z.Dim(1) != s.h {
		panic(fmt.Errorf("%w: an SDEHead of %d features given an input of shape %v", distribution.ErrShape, s.h, z.Shape()))
	}
	mean := s.Mean.Forward(tp, z)
	lat := tp.Detach(z)
	std := tp.Exp(s.LogStd)
	variance := tp.MatMul(tp.Mul(lat, lat), tp.Mul(std, std))
	if err := sd.base.Set(tp, mean, tp.Sqrt(tp.AddScalar(variance, sdeEpsilon))); err != nil {
		return err
	}
	sd.Independent.Set(tp, &sd.base, 1)
	sd.tp, sd.lat = tp, lat
	return nil
}

// Params returns the mean layer's parameters (prefixed "mean") and LogStd
// ("log_std").
func (s *SDEHead) Params() nn.Params {
	return append(s.Mean.Params().Prefixed("mean"), nn.Param{Name: "log_std", Tensor: s.LogStd})
}

// noise returns the exploration matrices for k rows, drawing new ones from
// rng when the sample count is a multiple of the frequency or k changed,
// and counts the sample.
func (s *SDEHead) noise(k int, rng *rand.Rand) []float32 {
	if s.count%s.freq == 0 || k != s.rows {
		if n := k * s.h * s.m; cap(s.w) < n {
			s.w = make([]float32, n)
		} else {
			s.w = s.w[:n]
		}
		ls := s.LogStd.Data()
		for i := range s.w {
			s.w[i] = float32(math.Exp(float64(ls[i%len(ls)])) * rng.NormFloat64())
		}
		s.rows = k
	}
	s.count++
	return s.w
}

// Redraw makes the next sample draw new exploration matrices and restarts
// the count of SampleFreq samples there: an algorithm that knows where a
// collection starts calls it then, as Stable-Baselines3 redraws its noise
// at every collection.
func (s *SDEHead) Redraw() { s.count = 0 }

const sdeTag = "SDEHead/1"

// MarshalBinary encodes the exploration state: the sample count and the
// current matrices.
func (s *SDEHead) MarshalBinary() ([]byte, error) {
	b := append([]byte(sdeTag), 0)
	b = binary.AppendUvarint(b, uint64(s.count))
	b = binary.AppendUvarint(b, uint64(s.rows))
	for _, v := range s.w {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b, nil
}

// UnmarshalBinary restores a state MarshalBinary encoded for a head of the
// same shape. It returns an error for data that does not fit, leaving s
// unchanged.
func (s *SDEHead) UnmarshalBinary(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("%w: SDEHead state: %s", ErrConfig, what) }
	if len(data) < len(sdeTag)+1 || string(data[:len(sdeTag)]) != sdeTag || data[len(sdeTag)] != 0 {
		return bad("no tag")
	}
	data = data[len(sdeTag)+1:]
	count, n := binary.Uvarint(data)
	if n <= 0 || count > math.MaxInt64 {
		return bad("sample count")
	}
	data = data[n:]
	rows, n := binary.Uvarint(data)
	if n <= 0 || rows > uint64(len(data)) {
		return bad("rows")
	}
	data = data[n:]
	if uint64(len(data)) != rows*uint64(s.h*s.m)*4 {
		return bad(fmt.Sprintf("%d bytes of matrices for %d rows of %d×%d", len(data), rows, s.h, s.m))
	}
	w := make([]float32, len(data)/4)
	for i := range w {
		w[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	s.count, s.rows, s.w = int64(count), int(rows), w
	return nil
}

// sdeDist is the distribution of an SDEHead: an Independent Normal whose
// Sample draws μ + z·W with the head's matrices.
type sdeDist struct {
	distribution.Independent
	head *SDEHead
	base distribution.Normal
	tp   *tensor.Tape
	lat  *tensor.Tensor // the features, without gradient
}

// Sample returns μ + z·W for each row, W the row's exploration matrix,
// without gradient.
func (d *sdeDist) Sample(rng *rand.Rand) *tensor.Tensor {
	mean := d.base.Loc()
	out := d.tp.AddScalar(d.tp.Detach(mean), 0) // memory on d's tape
	k, h, m := mean.Dim(0), d.head.h, d.head.m
	w := d.head.noise(k, rng)
	y, z := out.Data(), d.lat.Data()
	for i := range k {
		wi, zi, yi := w[i*h*m:(i+1)*h*m], z[i*h:(i+1)*h], y[i*m:(i+1)*m]
		for l, zl := range zi {
			for j, v := range wi[l*m : (l+1)*m] {
				yi[j] += zl * v
			}
		}
	}
	return out
}
