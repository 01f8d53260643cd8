package marl

import (
	"fmt"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/env/multiagent"
	"github.com/gorl/gorl/nd"
)

// Symmetric is implemented by games with symmetries (tic-tac-toe's
// rotations and reflections): for symmetry s, element i of the flattened
// "obs" of a masked observation maps to obs[s][i], and action k (and
// element k of "action_mask") to act[s][k].
type Symmetric interface {
	Symmetries() (obs, act [][]int)
}

// augmented is a Store that adds every transition once per symmetry, the
// identity included, mapped by it.
type augmented struct {
	Store
	obs, act [][]int
}

// Add stores each symmetric image of the one transition data (obs and
// obs_next masked observations, act a discrete action).
func (a augmented) Add(data *batch.Batch, ids []int, steps []buffer.Step) ([]buffer.Step, error) {
	for s := range a.obs {
		img := &batch.Batch{}
		for k, v := range data.Items() {
			var err error
			switch k {
			case batch.KeyObs, batch.KeyObsNext:
				v, err = a.mapObs(v, s)
			case batch.KeyAct:
				v, err = a.mapAct(v, s)
			}
			if err != nil {
				return steps, fmt.Errorf("marl: symmetry %d of %s: %w", s, k, err)
			}
			if err := img.Set(k, v); err != nil {
				return steps, err
			}
		}
		var err error
		if steps, err = a.Store.Add(img, ids, steps); err != nil {
			return steps, err
		}
	}
	return steps, nil
}

func (a augmented) mapObs(v any, s int) (any, error) {
	b, ok := v.(*batch.Batch)
	if !ok {
		return nil, fmt.Errorf("not a masked observation: %v", v)
	}
	o, err := b.Array(multiagent.KeyObs)
	if err != nil {
		return nil, err
	}
	m, err := b.Array(multiagent.KeyActionMask)
	if err != nil {
		return nil, err
	}
	po, err := permuted(o, a.obs[s])
	if err != nil {
		return nil, err
	}
	pm, err := permuted(m, a.act[s])
	if err != nil {
		return nil, err
	}
	return batch.New(multiagent.KeyObs, po, multiagent.KeyActionMask, pm)
}

func (a augmented) mapAct(v any, s int) (any, error) {
	x, ok := v.(*nd.Array)
	if !ok || x.Size() != 1 || x.DType() != nd.Int64 || !x.IsContiguous() {
		return nil, fmt.Errorf("not one int64 action: %v", v)
	}
	k := nd.Data[int64](x)[0]
	if k < 0 || int(k) >= len(a.act[s]) {
		return nil, fmt.Errorf("action %d outside the %d of the symmetry", k, len(a.act[s]))
	}
	out := x.Copy()
	nd.Data[int64](out)[0] = int64(a.act[s][k])
	return out, nil
}

// permuted returns a copy of x with element i moved to perm[i] (in
// row-major order).
func permuted(x *nd.Array, perm []int) (*nd.Array, error) {
	if x.Size() != len(perm) {
		return nil, fmt.Errorf("%d values for a symmetry of %d", x.Size(), len(perm))
	}
	x = x.Copy() // contiguous
	out := x.Copy()
	switch x.DType() {
	case nd.Int8:
		moveTo(nd.Data[int8](out), nd.Data[int8](x), perm)
	case nd.Float32:
		moveTo(nd.Data[float32](out), nd.Data[float32](x), perm)
	default:
		return nil, fmt.Errorf("dtype %v (want int8 or float32)", x.DType())
	}
	return out, nil
}

func moveTo[T any](dst, src []T, perm []int) {
	for i, j := range perm {
		dst[j] = src[i]
	}
}
