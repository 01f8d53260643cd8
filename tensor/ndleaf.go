package tensor

import (
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// This file makes *Tensor a batch.ArrayLeaf, so that the in-place
// operations of a Batch (arithmetic, SetIndex, SetRow, the method Empty)
// change a tensor's values as they change an array's: Tianshou's
// data[:, 1] += 6 on a Batch holding a tensor.

var _ batch.ArrayLeaf = (*Tensor)(nil)

// Array returns t's values as a float32 nd array of t's shape sharing t's
// memory (ND), so that writes through it change t, or nil when t requires
// gradients: an in-place change would bypass the tape, so a Batch refuses
// it (with an error naming the key), as torch refuses in-place operations
// on leaves that require gradients. Detach such a tensor first. It is the
// batch.ArrayLeaf method; it allocates the array's header.
func (t *Tensor) Array() *nd.Array {
	if t.requiresGrad {
		return nil
	}
	return t.ND()
}
