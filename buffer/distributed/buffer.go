package distributed

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/cluster"
)

// Buffer is a member of a distributed replay buffer (Machin's
// DistributedBuffer): transitions are added to the member's own shard and
// sampled uniformly across all live members. Its methods are safe for
// concurrent use.
type Buffer struct{ m *member }

// New makes cfg.Member a member of the buffer cfg.Group on t. local is its
// shard, any buffer (a buffer.Replay, say), or nil for a member that only
// samples. Close ends the membership.
func New(t cluster.Transport, cfg Config, local buffer.Buffer) (*Buffer, error) {
	if _, ok := local.(*buffer.Prioritized); ok {
		return nil, fmt.Errorf("%w: a prioritized shard belongs in NewPrioritized", ErrDistributed)
	}
	m, err := newMember(t, cfg, local, nil, -1)
	if err != nil {
		return nil, err
	}
	return &Buffer{m}, nil
}

// Add stores the transitions of data (rows of a Batch, in the keys of the
// local buffer's Add) in the local shard; with a Config.Journal it
// publishes them and returns at once, and the shard takes them once the
// journal has stored them.
func (b *Buffer) Add(data *batch.Batch) error {
	_, err := b.m.add(data, nil)
	return err
}

// Sample draws n transitions across the live members, each in proportion
// to its size, waiting at most the configured deadline for each.
func (b *Buffer) Sample(ctx context.Context, n int, rng *rand.Rand) (*Sample, error) {
	return b.m.sample(ctx, n, sampleShard, rng)
}

// Len returns the number of transitions across the live members.
func (b *Buffer) Len() int { return b.m.Len() }

// Skipped returns how many journal records the shard could not take
// (with a Config.Journal) and the last one's error.
func (b *Buffer) Skipped() (int, error) { return b.m.skippedRecords() }

// Members returns the live members holding data, sorted.
func (b *Buffer) Members() []string { return b.m.Members() }

// Close leaves the group: the member stops serving and announces that it
// left.
func (b *Buffer) Close() error { return b.m.close() }

// Prioritized is a member of a distributed prioritized replay buffer
// (Machin's DistributedPrioritizedBuffer, used by Ape-X): sampling is in
// proportion to priority^α across all live members, with importance
// weights normalized by the global minimum, and new priorities go back to
// the members that hold the transitions. Its methods are safe for
// concurrent use.
type Prioritized struct{ m *member }

// NewPrioritized makes cfg.Member a member of the prioritized buffer
// cfg.Group on t, with local as its shard (nil: it only samples) and beta
// the importance-sampling exponent of the weights its samples carry.
func NewPrioritized(t cluster.Transport, cfg Config, local *buffer.Prioritized, beta float64) (*Prioritized, error) {
	if beta < 0 {
		return nil, fmt.Errorf("%w: beta %g, want ≥ 0", ErrDistributed, beta)
	}
	var lb buffer.Buffer
	if local != nil {
		lb = local
	}
	m, err := newMember(t, cfg, lb, local, beta)
	if err != nil {
		return nil, err
	}
	return &Prioritized{m}, nil
}

// Add stores the transitions of data in the local shard with priorities
// prios (|TD error|, as UpdatePriority takes them; nil: the largest
// priority given so far) and returns their handles. With a Config.Journal
// it publishes them, returns at once and no handles (the shard takes them
// once the journal has stored them).
func (p *Prioritized) Add(data *batch.Batch, prios []float64) ([]Handle, error) {
	return p.m.add(data, prios)
}

// Sample draws n transitions across the live members in proportion to
// priority^α; Batch carries their importance weights under "weight" and
// Handles name them for UpdatePriority.
func (p *Prioritized) Sample(ctx context.Context, n int, rng *rand.Rand) (*Sample, error) {
	return p.m.sample(ctx, n, sampleShard, rng)
}

// UpdatePriority sends new priorities (|TD error|) for sampled
// transitions to the members holding them. A transition whose slot was
// overwritten since it was sampled keeps no update. Delivery is at most
// once and unacknowledged.
func (p *Prioritized) UpdatePriority(hs []Handle, prios []float64) error {
	return p.m.updatePriority(hs, prios)
}

// Len returns the number of transitions across the live members.
func (p *Prioritized) Len() int { return p.m.Len() }

// Skipped returns how many journal records the shard could not take
// (with a Config.Journal) and the last one's error.
func (p *Prioritized) Skipped() (int, error) { return p.m.skippedRecords() }

// Members returns the live members holding data, sorted.
func (p *Prioritized) Members() []string { return p.m.Members() }

// Close leaves the group.
func (p *Prioritized) Close() error { return p.m.close() }
