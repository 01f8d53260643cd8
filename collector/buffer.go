package collector

import (
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
)

// Buffer is what a collector needs from a replay buffer: storing the
// transitions of its envs, one sub-buffer per env, and ending the episodes
// it abandons. Every buffer of package buffer implements it.
type Buffer interface {
	// Add stores the transitions of data, row j into sub-buffer ids[j],
	// and appends a buffer.Step per transition to steps (buffer.Buffer.Add).
	Add(data *batch.Batch, ids []int, steps []buffer.Step) ([]buffer.Step, error)
	// BufferNum returns the number of sub-buffers.
	BufferNum() int
	// EndEpisode marks the newest transition of each sub-buffer ids
	// truncated, ending the episodes in progress there.
	EndEpisode(ids []int)
}
