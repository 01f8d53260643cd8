package algo_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/algo"
	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/policy"
)

// recorder is an algorithm that records the phases it goes through and the
// batches it sees.
type recorder struct {
	calls   []string
	rows    int
	indices []int
	failAt  string
	stats   map[string]float64
}

func (r *recorder) Policy() policy.Policy   { return nil }
func (r *recorder) Save(w io.Writer) error  { return nil }
func (r *recorder) Load(rd io.Reader) error { return nil }
func (r *recorder) phase(name string) error {
	r.calls = append(r.calls, name)
	if name == r.failAt {
		return errors.New("planned failure")
	}
	return nil
}

func (r *recorder) Preprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	n, _ := b.Len()
	r.rows, r.indices = n, slices.Clone(indices)
	return r.phase("pre")
}

func (r *recorder) Postprocess(b *batch.Batch, buf buffer.Buffer, indices []int) error {
	return r.phase("post")
}

func (r *recorder) Update(b *batch.Batch) (map[string]float64, error) {
	return r.stats, r.phase("update")
}

func (r *recorder) UpdateRepeat(b *batch.Batch, batchSize, repeat int) (map[string]float64, error) {
	r.stats["batch_size"], r.stats["repeat"] = float64(batchSize), float64(repeat)
	return r.stats, r.phase("update")
}

func TestLearner(t *testing.T) {
	buf := vectorBuffer(t)
	var l algo.Learner
	rng := rand.New(rand.NewPCG(1, 1))
	r := &recorder{stats: map[string]float64{"loss": 1}}
	stats, err := l.Step(r, buf, 5, rng)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.calls, []string{"pre", "update", "post"}) || r.rows != 5 || len(r.indices) != 5 {
		t.Errorf("Step: calls %v on %d rows, %d indices; want pre, update, post on 5", r.calls, r.rows, len(r.indices))
	}
	if stats["loss"] != 1 {
		t.Errorf("Step returned %v", stats)
	}

	r.calls = nil
	if _, err := l.StepAll(r, buf, 4, 3); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.indices, []int{0, 1, 2, 3, 4, 5, 6, 7}) || r.stats["batch_size"] != 4 || r.stats["repeat"] != 3 {
		t.Errorf("StepAll: indices %v, stats %v", r.indices, r.stats)
	}

	for _, phase := range []string{"pre", "update", "post"} {
		r := &recorder{failAt: phase, stats: map[string]float64{}}
		if _, err := l.Step(r, buf, 2, rng); err == nil || r.calls[len(r.calls)-1] != phase {
			t.Errorf("failure in %s: err %v after %v", phase, err, r.calls)
		}
	}
	empty, _ := buffer.NewVector(buffer.Config{Size: 4}, 2)
	if _, err := l.Step(&recorder{}, empty, 2, rng); !errors.Is(err, buffer.ErrEmpty) {
		t.Errorf("Step on an empty buffer: %v, want ErrEmpty", err)
	}
	if _, err := l.StepAll(&recorder{}, empty, 2, 1); !errors.Is(err, buffer.ErrEmpty) {
		t.Errorf("StepAll on an empty buffer: %v, want ErrEmpty", err)
	}
}
