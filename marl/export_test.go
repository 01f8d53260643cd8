package marl

import (
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/nd"
)

// BufferLen returns the number of the learner's stored transitions.
func (s *SelfPlay) BufferLen() int { return s.buf.Len() }

// BufferActs returns the first n stored actions.
func (s *SelfPlay) BufferActs(n int) []int64 {
	var b batch.Batch
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if err := s.buf.TakeTo(&b, idx); err != nil {
		panic(err)
	}
	a, err := b.Array(batch.KeyAct)
	if err != nil {
		panic(err)
	}
	return nd.Data[int64](a.Copy())
}
