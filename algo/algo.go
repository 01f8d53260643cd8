package algo

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/policy"
)

// Algorithm is a learning method, Tianshou's Algorithm: it owns a policy
// and everything that changes it (optimizers, target networks, counters,
// its random source). The update cycle on a batch sampled from a buffer is
//
//	Preprocess(b, buf, indices)  add what the update needs: returns, advantages
//	Update…(b)                   change the networks (OffPolicy or OnPolicy)
//	Postprocess(b, buf, indices) report back to the buffer: new priorities
//
// which a Learner runs, and the trainers drive.
//
// An algorithm is driven by one goroutine at a time.
type Algorithm interface {
	// Policy returns the policy the algorithm trains; the same value
	// every call.
	Policy() policy.Policy

	// Preprocess adds to b, the transitions of buf at indices (as
	// buf.TakeTo stores them), what the update needs, Tianshou's
	// _preprocess_batch: n-step returns, episodic returns, advantages.
	Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error

	// Postprocess runs after the update, Tianshou's _postprocess_batch: a
	// prioritized buffer (buffer.Prioritizer) gets the new priorities of
	// the transitions at indices.
	Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error

	// Save writes the algorithm's whole state: networks, target networks,
	// optimizers, counters and random sources, so that Load into an
	// algorithm made with the same configuration continues exactly as this
	// one would. SaveParts and the Part constructors build the format.
	Save(w io.Writer) error
	// Load restores a state written by Save. It returns an error wrapping
	// ErrState for data that is corrupt or made by another configuration;
	// the algorithm may then be partly restored and should be discarded.
	Load(r io.Reader) error
}

// OffPolicy is an algorithm that learns from transitions sampled from a
// replay buffer, one gradient step per sampled batch (DQN, SAC, and the
// offline algorithms, which sample from a fixed buffer).
type OffPolicy interface {
	Algorithm
	// Update makes one gradient step on b, a preprocessed batch, and
	// returns training statistics (Tianshou's _update_with_batch). The map
	// is owned by the algorithm and valid until the next Update.
	Update(b *batch.Batch) (map[string]float64, error)
}

// OnPolicy is an algorithm that learns from everything collected since its
// last update, then forgets it (PG, A2C, PPO).
type OnPolicy interface {
	Algorithm
	// UpdateRepeat learns from b, the whole preprocessed collection,
	// in repeat passes of minibatches of batchSize transitions (0: the
	// whole batch at once), Tianshou's _update_with_batch(batch,
	// batch_size, repeat). It returns training statistics, owned by the
	// algorithm and valid until the next call.
	UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error)
}

// Scheduled is implemented by algorithms whose hyperparameters follow the
// progress of training in env steps (an ε or learning-rate schedule). The
// trainers call Schedule with the number of training env steps so far before
// every collection and every update.
type Scheduled interface {
	Schedule(envSteps int64)
}

// Learner runs the update cycle of an algorithm on a buffer, Tianshou's
// Algorithm.update: sample (all of the buffer for on-policy algorithms),
// Preprocess, update, Postprocess. It keeps the sampled batch and indices
// between calls, so a steady state of equal batch sizes allocates only what
// the algorithm does. The zero Learner is ready to use; it is not safe for
// concurrent use.
type Learner struct {
	batch   batch.Batch
	indices []int
}

// Step samples n transitions from buf with rng (as buf.SampleTo draws them)
// and runs one update of a on them. It returns the algorithm's statistics and
// the first error of sampling, Preprocess, Update or Postprocess, wrapped with
// the phase's name.
//
// Step panics with an *Error wrapping ErrValue if n < 1.
func (l *Learner) Step(a OffPolicy, buf buffer.Buffer, n int, rng *rand.Rand) (map[string]float64, error) {
	if n < 1 {
		panic(&Error{Kind: ErrValue, Msg: fmt.Sprintf("Learner.Step: batch size %d < 1", n)})
	}
	l.indices = slices.Grow(l.indices[:0], n)[:n]
	if err := buf.SampleTo(&l.batch, l.indices, rng); err != nil {
		return nil, fmt.Errorf("algo: sample: %w", err)
	}
	return l.run(a, buf, func(b *batch.Batch) (map[string]float64, error) { return a.Update(b) })
}

// StepAll runs one update of the on-policy algorithm a on every transition
// of buf, in time order (buf.SampleIndices(0, nil)), with repeat passes of
// minibatches of batchSize. The caller resets the buffer afterwards. It returns
// the statistics and errors as Step does; an empty buffer is an error wrapping
// buffer.ErrEmpty.
func (l *Learner) StepAll(a OnPolicy, buf buffer.Buffer, batchSize, repeat int) (map[string]float64, error) {
	l.indices = append(l.indices[:0], buf.SampleIndices(0, nil)...)
	if err := buf.TakeTo(&l.batch, l.indices); err != nil {
		return nil, fmt.Errorf("algo: take: %w", err)
	}
	if len(l.indices) == 0 {
		return nil, fmt.Errorf("algo: take: %w", buffer.ErrEmpty)
	}
	return l.run(a, buf, func(b *batch.Batch) (map[string]float64, error) {
		return a.UpdateRepeat(b, batchSize, repeat)
	})
}

func (l *Learner) run(a Algorithm, buf buffer.Buffer, update func(*batch.Batch) (map[string]float64, error)) (map[string]float64, error) {
	if err := a.Preprocess(&l.batch, buf, l.indices); err != nil {
		return nil, fmt.Errorf("algo: preprocess: %w", err)
	}
	stats, err := update(&l.batch)
	if err != nil {
		return nil, fmt.Errorf("algo: update: %w", err)
	}
	if err := a.Postprocess(&l.batch, buf, l.indices); err != nil {
		return nil, fmt.Errorf("algo: postprocess: %w", err)
	}
	return stats, nil
}

// Errors of package algo. Every value the package panics with is an *Error
// wrapping ErrShape or ErrValue, and a saved state that cannot be loaded is
// an error wrapping ErrState. Other errors say what a batch lacks, or wrap
// with %w the error of what failed (sampling from a buffer, an algorithm's
// Preprocess, update or Postprocess).
var (
	// ErrShape: slices of mismatched lengths given to a kernel (a panic
	// value: a programmer error).
	ErrShape = errors.New("algo: length mismatch")
	// ErrValue: an argument outside its domain (a panic value: n < 1, γ
	// outside [0, 1]).
	ErrValue = errors.New("algo: invalid argument")
	// ErrState: a saved state that is truncated, corrupt, of an unknown
	// version, or made by another algorithm or configuration.
	ErrState = errors.New("algo: bad saved state")
)

// Error is the type of the package's panic values.
type Error struct {
	// Kind is one of the sentinel errors above.
	Kind error
	// Msg says what went wrong.
	Msg string
}

func (e *Error) Error() string { return e.Kind.Error() + ": " + e.Msg }

// Unwrap returns Kind.
func (e *Error) Unwrap() error { return e.Kind }
