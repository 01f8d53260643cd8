package buffer

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
)

// Buffer is what every replay buffer of the package provides, so that a
// collector and the algorithms handle them uniformly. Indices are global:
// positions in the storage, [0, Cap()), valid for the vector forms across
// sub-buffers.
type Buffer interface {
	// Len returns the number of transitions stored.
	Len() int
	// Cap returns the number of transitions the buffer can hold.
	Cap() int
	// Add stores transitions and appends a Step per transition to steps.
	Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error)
	// Reset empties the buffer.
	Reset()
	// SampleIndices draws n indices (n == 0: all, in time order).
	SampleIndices(n int, rng *rand.Rand) []int
	// SampleTo draws len(indices) transitions into a reused batch.
	SampleTo(dst *batch.Batch, indices []int, rng *rand.Rand) error
	// TakeTo stores the transitions at indices into a reused batch.
	TakeTo(dst *batch.Batch, indices []int) error
	// PrevTo and NextTo step within episodes.
	PrevTo(dst, indices []int)
	NextTo(dst, indices []int)
	// UnfinishedIndex returns the newest index of each unfinished episode.
	UnfinishedIndex() []int
	// BufferNum returns the number of sub-buffers Add's ids name.
	BufferNum() int
	// EndEpisode ends the episodes in progress in the sub-buffers ids,
	// marking their newest transitions truncated.
	EndEpisode(ids []int)
	// Rew, Terminated, Truncated and Done are views of the stored
	// rewards and flags, by global index.
	Rew() []float64
	Terminated() []bool
	Truncated() []bool
	Done() []bool
	// Save writes the buffer in the package's file format (see Load).
	Save(w io.Writer) error
}

// Replay is a circular replay buffer (Tianshou's ReplayBuffer): it keeps
// the newest Cap() transitions in chronological ring order, tracks
// episodes (Add reports each finished episode's return, length and start),
// steps within episodes with Prev and Next, samples uniformly, stacks
// frames and derives obs_next when so configured.
//
// A Replay is not safe for concurrent use: sampling reuses scratch memory
// of the buffer.
type Replay struct{ *core }

// New returns an empty Replay buffer. It returns an error wrapping ErrValue
// if cfg is invalid.
func New(cfg Config) (*Replay, error) {
	c, err := newCore(cfg, []int{cfg.Size})
	if err != nil {
		return nil, err
	}
	c.kind = kindReplay
	return &Replay{c}, nil
}

// Add stores transitions. With ids nil, data is one transition: each array
// holds one transition's value (obs of shape [4], act and rew as numbers,
// which a Batch keeps as 0-d arrays). With ids (all 0 for a Replay), data
// holds len(ids) transitions along a leading axis, stored in order.
//
// data must hold obs, act, rew, terminated and truncated; done is computed
// as terminated || truncated (a done key in data is ignored), obs_next is
// dropped with IgnoreObsNext, and only the last frame of obs (and obs_next)
// is kept with SaveOnlyLastObs. Other keys (info, policy, anything) are
// stored too. The first Add fixes the schema: rew is stored as float64 and
// must be one number per transition, terminated and truncated as bool (from
// bools or numbers, ≠ 0), other arrays with their dtype and shape, custom
// leaves (distributions) and other Go values in Object arrays. A later Add
// may bring new keys, which extend the schema (earlier transitions read as
// zero, or nil); keys it lacks are stored as zero. Values are converted
// with nd's "same_kind" rule: a float action into an integer column is an
// error, not a truncation.
//
// Add appends one Step per transition to steps and returns the extended
// slice: the index written and, for the step that ends an episode, the
// episode's return and length (0 otherwise), with the index of the
// episode's first step. When every array of data has the stored dtype and
// shape and is contiguous, and steps has room, Add does not allocate.
//
// Add returns an error wrapping ErrKey naming a missing required key, or
// ErrType naming a key whose value cannot be stored; the buffer is then
// unchanged. It panics with ErrIndex if an id is not a valid buffer id.
func (b *Replay) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	return b.add(data, ids, steps, false)
}

// Update copies every transition of other, oldest first, into b (Tianshou's
// buf.update(other)), wrapping when b is full, and returns their indices in
// b; other is left unchanged. Episode statistics of b are not touched, so
// Prev and Next see the copied transitions as continuing b's newest one
// unless it was done (as Tianshou's buffer tutorial prints). Keys of other
// that b lacks extend b's schema; keys b has and other lacks are stored as
// zero; when b stores obs_next and other derives it, the derived obs_next is
// copied. Update returns an error wrapping ErrType, with b unchanged, if a
// column of other cannot be stored into b's (another row shape, a cast the
// "same_kind" rule refuses), and if other is not a buffer of this package;
// it returns an error wrapping ErrValue if other is b and holds transitions
// (an empty other, b included, copies nothing).
func (b *Replay) Update(other Buffer) ([]int, error) { return b.update(other) }

// String returns the storage as Tianshou prints a ReplayBuffer.
func (b *Replay) String() string { return b.string("ReplayBuffer") }

// Vector is a set of Replay rings with one configuration over one storage
// (Tianshou's ReplayBufferManager and VectorReplayBuffer): one sub-buffer
// per environment, each kept in chronological order, with global indices
// (sub-buffer k holds indices [off_k, off_k + size_k)); Prev, Next,
// UnfinishedIndex and sampling work across sub-buffers.
type Vector struct{ *core }

// NewVector returns an empty Vector of bufferNum sub-buffers of
// ⌈cfg.Size/bufferNum⌉ transitions each (Tianshou's
// VectorReplayBuffer(total_size, buffer_num)). It returns an error wrapping
// ErrValue if cfg is invalid or bufferNum < 1.
func NewVector(cfg Config, bufferNum int) (*Vector, error) {
	c, err := newVectorCore(cfg, bufferNum)
	if err != nil {
		return nil, err
	}
	c.kind = kindVector
	return &Vector{c}, nil
}

// NewManager returns an empty Vector whose sub-buffers have the given
// sizes (Tianshou's ReplayBufferManager over buffers of these sizes); the
// Size of cfg is ignored.
func NewManager(cfg Config, sizes []int) (*Vector, error) {
	if len(sizes) == 0 {
		return nil, errorf(ErrValue, "", "NewManager: no sub-buffer")
	}
	cfg.Size = 1
	c, err := newCore(cfg, sizes)
	if err != nil {
		return nil, err
	}
	c.cfg.Size = c.total
	c.kind = kindVector
	return &Vector{c}, nil
}

func newVectorCore(cfg Config, bufferNum int) (*core, error) {
	if bufferNum < 1 || bufferNum > cfg.Size {
		return nil, errorf(ErrValue, "", fmt.Sprintf("bufferNum must be in [1, Size=%d], got %d", cfg.Size, bufferNum))
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sizes := make([]int, bufferNum)
	for i := range sizes {
		sizes[i] = (cfg.Size + bufferNum - 1) / bufferNum
	}
	c, err := newCore(cfg, sizes)
	if err != nil {
		return nil, err
	}
	c.cfg.Size = c.total
	return c, nil
}

// Add stores one row of data per buffer id: row j (along the leading axis
// of every array) goes into sub-buffer ids[j], ids nil meaning one row per
// sub-buffer, 0, 1, …. Everything else is as in Replay.Add; the Steps
// follow the rows.
func (b *Vector) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	return b.add(data, ids, steps, true)
}

// String returns the storage as Tianshou prints a VectorReplayBuffer.
func (b *Vector) String() string { return b.string("VectorReplayBuffer") }

// Cached is a main Replay ring plus one cache ring per environment
// (Tianshou's CachedReplayBuffer): transitions go into the caches, and
// when an episode ends it moves as a whole, in order, into the main ring
// and its cache is emptied. The layout is | main | cache 0 | cache 1 | …;
// indices, sampling and Prev/Next cover the main ring and the caches'
// unfinished episodes. An episode longer than its cache loses its oldest
// steps.
type Cached struct{ *core }

// NewCached returns an empty Cached buffer with a main ring of cfg.Size
// transitions and cachedNum caches of maxEpisodeLen transitions, all with
// cfg's options. It returns an error wrapping ErrValue if cfg is invalid
// or cachedNum or maxEpisodeLen is < 1.
func NewCached(cfg Config, cachedNum, maxEpisodeLen int) (*Cached, error) {
	if cachedNum < 1 || maxEpisodeLen < 1 {
		return nil, errorf(ErrValue, "", fmt.Sprintf("NewCached: cachedNum and maxEpisodeLen must be ≥ 1, got %d and %d", cachedNum, maxEpisodeLen))
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sizes := []int{cfg.Size}
	for range cachedNum {
		sizes = append(sizes, maxEpisodeLen)
	}
	c, err := newCore(cfg, sizes)
	if err != nil {
		return nil, err
	}
	c.cached = true
	c.kind = kindCached
	c.allIDs = c.allIDs[:cachedNum]
	return &Cached{c}, nil
}

// Add stores one row of data per cache: row j goes into cache ids[j]
// (ids nil: one row per cache, 0, 1, …). When row j ends an episode, the
// episode moves into the main ring and Step j reports its index and start
// there. Everything else is as in Replay.Add.
func (b *Cached) Add(data *batch.Batch, ids []int, steps []Step) ([]Step, error) {
	return b.add(data, ids, steps, true)
}

// String returns the storage as Tianshou prints a CachedReplayBuffer.
func (b *Cached) String() string { return b.string("CachedReplayBuffer") }
