package categorical

import (
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/env"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/tensor"
)

// network is a built logits network and its noisy layers.
type network struct {
	net   policy.Network
	noisy []*nn.NoisyLinear
}

// buildNet returns the network s and h describe for observations of space,
// n actions and s.NumAtoms atoms: its output for k observations is the
// logits [k, n·atoms], each action's atoms contiguous. For a masked
// observation space the network reads the real observations only
// (policy.NewObsNet).
func buildNet(s Settings, h Head, space env.Space, n int, rng *rand.Rand) (network, error) {
	box, ok := policy.NetSpace(space).(*env.Box)
	if !ok {
		return network{}, fmt.Errorf("%w: the network needs a Box observation space, not %v", ErrConfig, space)
	}
	shape := box.Shape()
	out := n * s.NumAtoms
	var trunk nn.Layer
	in := 0
	switch {
	case s.CNN:
		if len(shape) != 3 || shape[1] != 84 || shape[2] != 84 {
			return network{}, fmt.Errorf("%w: the Nature CNN needs observations [channels, 84, 84], not %v", ErrConfig, shape)
		}
		trunk, in = nn.NewNatureCNN(shape[0], 0, rng), 512
	default:
		var convs nn.Sequential
		if len(s.Conv) > 0 {
			var err error
			var features int
			if convs, features, err = nn.NewConvStack(s.Conv, shape, rng); err != nil {
				return network{}, fmt.Errorf("%w: %w", ErrConfig, err)
			}
			shape = []int{features}
		}
		if len(shape) != 1 {
			return network{}, fmt.Errorf("%w: the MLP needs observations of one axis, not %v (set cnn or conv for images)", ErrConfig, shape)
		}
		// C51's network is one MLP to the logits; Rainbow's heads follow
		// the MLP's last hidden layer.
		plain := !h.Dueling && h.NoisyStd == 0
		c := nn.MLPConfig{In: shape[0], Hidden: s.Hidden}
		if plain {
			c.Out = out
		}
		mlp, err := nn.NewMLP(c, rng)
		if err != nil {
			return network{}, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		var body nn.Layer = mlp
		if convs != nil {
			body = append(convs, mlp)
		}
		if plain {
			return network{net: policy.NewObsNet(body, space)}, nil
		}
		trunk, in = body, s.Hidden[len(s.Hidden)-1]
	}
	var nw network
	stream := func(hidden []int, out int) nn.Layer {
		if h.NoisyStd == 0 {
			mlp, _ := nn.NewMLP(nn.MLPConfig{In: in, Hidden: hidden, Out: out}, rng) // sizes validated
			return mlp
		}
		var seq nn.Sequential
		k := in
		for _, size := range append(hidden[:len(hidden):len(hidden)], out) {
			l := nn.NewNoisyLinear(k, size, float32(h.NoisyStd), rng)
			nw.noisy = append(nw.noisy, l)
			if len(seq) > 0 {
				seq = append(seq, nn.ReLU)
			}
			seq = append(seq, l)
			k = size
		}
		return seq
	}
	var head nn.Layer
	if h.Dueling {
		v := stream(h.ValueHidden, s.NumAtoms)
		head = &nn.Dueling{Value: v, Advantage: stream(h.AdvantageHidden, out), Atoms: s.NumAtoms}
	} else {
		head = stream(nil, out)
	}
	nw.net = policy.NewObsNet(nn.Sequential{trunk, head}, space)
	return nw, nil
}

// qNet is the network the policy acts with: the expected return of each
// action, Q(s, a) = Σⱼ pⱼ(s, a)·zⱼ with p the softmax over each action's
// atoms of the logits network's output.
type qNet struct {
	logits  policy.Network
	n, k    int            // actions, atoms
	support *tensor.Tensor // [atoms]
}

func newQNet(logits policy.Network, n int, s Support) qNet {
	z := tensor.New(s.Len())
	for j, v := range s.Atoms() {
		z.Data()[j] = float32(v)
	}
	return qNet{logits: logits, n: n, k: s.Len(), support: z}
}

// Inputs returns the logits network's inputs.
func (q qNet) Inputs() []string { return q.logits.Inputs() }

// Call returns the Q-values [k, n] of the logits [k, n·atoms].
func (q qNet) Call(tp *tensor.Tape, in []*tensor.Tensor) *tensor.Tensor {
	l := q.logits.Call(tp, in)
	if l.NDim() != 2 || l.Dim(1) != q.n*q.k {
		return l // the policy reports the shape
	}
	p := tp.Softmax(tp.Reshape(l, l.Dim(0), q.n, q.k), 2)
	return tp.SumAxis(tp.Mul(p, q.support), 2, false)
}

// Params returns the logits network's parameters.
func (q qNet) Params() nn.Params { return q.logits.Params() }
