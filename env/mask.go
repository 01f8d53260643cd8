package env

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// KeyActionMask is the key of an action mask: in a masked observation (a
// Dict with the real observation under "obs", see NewMasked) or in an Info.
// A mask of a Discrete(n) action space holds n values, 1 for an action the
// env accepts and 0 for one it does not, as PettingZoo's and Tianshou's
// action_mask.
const KeyActionMask = "action_mask"

// ErrActionMask is wrapped by the errors of masks that cannot be used: a
// mask of another shape than the action space's, or one that allows no
// action.
var ErrActionMask = errors.New("env: bad action mask")

// NewMasked returns the observation space of an env that masks the actions
// of a Discrete(n) action space: a Dict of obs under "obs" and the mask,
// MultiBinary(n) with int8 values, under "action_mask". It returns an error
// wrapping ErrSpace if obs is nil or n < 1.
func NewMasked(obs Space, n int) (*Dict, error) {
	mb, err := NewMultiBinary(n)
	if err != nil {
		return nil, err
	}
	return NewDict(DictEntry{Key: batch.KeyObs, Space: obs}, DictEntry{Key: KeyActionMask, Space: mb})
}

// Unmasked reports whether s is a masked observation space (a Dict with
// exactly the keys "obs" and "action_mask", the latter a MultiBinary of one
// axis), and returns the space of the real observations and the number of
// actions the mask covers.
func Unmasked(s Space) (obs Space, n int, ok bool) {
	d, isDict := s.(*Dict)
	if !isDict || len(d.keys) != 2 {
		return nil, 0, false
	}
	o, hasObs := d.Space(batch.KeyObs)
	m, hasMask := d.Space(KeyActionMask)
	mb, isMB := m.(*MultiBinary)
	if !hasObs || !hasMask || !isMB || len(mb.shape) != 1 {
		return nil, 0, false
	}
	return o, mb.shape[0], true
}

// maskPaths are where ActionMask looks for a mask, in order: in a masked
// observation, then in the steps' infos.
var maskPaths = [...]string{batch.KeyObs + batch.Sep + KeyActionMask, batch.KeyInfo + batch.Sep + KeyActionMask}

// ActionMask reads the action masks of a batch of observations (a policy's
// input or a sampled batch of transitions) into float32 memory it reuses, so
// that reading masks of the same size again does not allocate. The zero
// value is ready to use; an ActionMask is not safe for concurrent use.
type ActionMask struct {
	arr *nd.Array // float32 [k, n]
}

// Read returns the action masks of the k observations in b, for n actions:
// the array under "obs.action_mask" (a masked observation), else under
// "info.action_mask", converted to a float32 array [k, n] of zeros and ones
// (any nonzero value allows its action). A mask is an *nd.Array of a bool,
// integer or float dtype, or a float32 tensor (any value with NDim, Dim and
// Data methods). The result is memory of m, valid
// until the next Read; Read returns nil and no error when b holds no mask.
//
// Read returns an error wrapping ErrActionMask for a mask that is not a
// numeric or bool array [k, n].
func (m *ActionMask) Read(b *batch.Batch, k, n int) (*nd.Array, error) {
	var v any
	var path string
	for _, p := range maskPaths {
		if x, ok := b.Get(p); ok {
			v, path = x, p
			break
		}
	}
	if v == nil {
		return nil, nil
	}
	if m.arr == nil || m.arr.Dim(0) != k || m.arr.Dim(1) != n {
		m.arr = nd.Zeros(nd.Float32, k, n)
	}
	switch a := v.(type) {
	case *nd.Array:
		if a.Ndim() != 2 || a.Dim(0) != k || a.Dim(1) != n || !(a.DType().IsInteger() || a.DType().IsFloat() || a.DType() == nd.Bool) {
			return nil, badMask(path, v, k, n)
		}
		if err := nd.CopyTo(m.arr, a); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrActionMask, path, err)
		}
	case floatRows:
		if a.NDim() != 2 || a.Dim(0) != k || a.Dim(1) != n {
			return nil, badMask(path, v, k, n)
		}
		copy(nd.Data[float32](m.arr), a.Data())
	default:
		return nil, badMask(path, v, k, n)
	}
	d := nd.Data[float32](m.arr)
	for i, x := range d {
		if x != 0 {
			d[i] = 1
		}
	}
	return m.arr, nil
}

func badMask(path string, v any, k, n int) error {
	return fmt.Errorf("%w: %s is %s; want a numeric array [%d %d]", ErrActionMask, path, describeMask(v), k, n)
}

// floatRows is a float32 tensor (a *tensor.Tensor): the form masks take in
// an on-policy algorithm's minibatches.
type floatRows interface {
	NDim() int
	Dim(i int) int
	Data() []float32
}

func describeMask(v any) string {
	switch a := v.(type) {
	case *nd.Array:
		return fmt.Sprintf("a %v array of shape %v", a.DType(), a.Shape())
	case floatRows:
		return fmt.Sprintf("a float32 tensor of %d axes", a.NDim())
	}
	return fmt.Sprintf("a %T", v)
}

// EmptyMaskRow returns the first row of the masks (row-major [k, n], as
// ActionMask.Read gives them) that allows no action, or −1 if every row
// allows one.
func EmptyMaskRow(mask []float32, n int) int {
	for r := 0; r*n < len(mask); r++ {
		empty := true
		for _, x := range mask[r*n : (r+1)*n] {
			if x != 0 {
				empty = false
				break
			}
		}
		if empty {
			return r
		}
	}
	return -1
}

// SampleValid returns an index i with row[i] ≠ 0 drawn uniformly among
// them with one draw of rng, or −1 if row allows no action.
func SampleValid(row []float32, rng *rand.Rand) int {
	c := 0
	for _, x := range row {
		if x != 0 {
			c++
		}
	}
	if c == 0 {
		return -1
	}
	j := rng.IntN(c)
	for i, x := range row {
		if x != 0 {
			if j == 0 {
				return i
			}
			j--
		}
	}
	return -1 // not reached: j < c
}
