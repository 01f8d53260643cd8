package trainer

import (
	"testing"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

// stepBatch is one vector step of n CartPole envs as the collector stores
// it, with an info batch of one key.
func stepBatch(n int) *batch.Batch {
	obs := make([][]float32, n)
	for i := range obs {
		obs[i] = []float32{1, 2, 3, 4}
	}
	return batch.MustNew("obs", obs, "act", make([]int64, n), "rew", make([]float64, n),
		"terminated", make([]bool, n), "truncated", make([]bool, n), "obs_next", obs,
		"info", batch.MustNew("env_id", make([]int64, n)))
}

// TestStage: the transitions and episode ends a stage records reach the
// buffer only at flush, in order, and the buffer then holds what direct
// writes would have stored.
func TestStage(t *testing.T) {
	newBuf := func() buffer.Buffer {
		b, err := buffer.NewVector(buffer.Config{Size: 40}, 2)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	direct, staged := newBuf(), newBuf()
	s := stage{buf: staged}
	ids := []int{0, 1}
	write := func(dst interface {
		Add(*batch.Batch, []int, []buffer.Step) ([]buffer.Step, error)
		EndEpisode([]int)
	}, step int) {
		data := stepBatch(2)
		rew, _ := data.Array("rew")
		r := nd.Data[float64](rew)
		r[0], r[1] = float64(step), float64(-step)
		if _, err := dst.Add(data, ids, nil); err != nil {
			t.Fatal(err)
		}
		if step == 2 {
			dst.EndEpisode([]int{1})
		}
	}
	for step := range 4 {
		write(direct, step)
	}
	s.record = true
	for step := range 4 {
		write(&s, step)
	}
	if staged.Len() != 0 {
		t.Fatalf("%d transitions stored before the flush", staged.Len())
	}
	s.swap()
	// What is recorded after the swap stays apart from the flush.
	write(&s, 9)
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	all := func(b buffer.Buffer) *batch.Batch {
		var out batch.Batch
		if err := b.TakeTo(&out, b.SampleIndices(0, nil)); err != nil {
			t.Fatal(err)
		}
		return &out
	}
	if got, want := all(staged), all(direct); !batch.Equal(got, want) {
		t.Errorf("after the flush the buffer holds\n%v\nwant\n%v", got, want)
	}
	if s.np != 0 || s.n != 1 {
		t.Errorf("%d writes set aside and %d recorded after the flush, want 0 and 1 (the write after the swap)", s.np, s.n)
	}
	s.swap()
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	if staged.Len() != 10 {
		t.Errorf("%d transitions stored after the second flush, want 10", staged.Len())
	}
}

// BenchmarkStage is the hand-off's cost per vector step of 10 CartPole
// envs: stored directly, or recorded into the stage and replayed into the
// buffer.
func BenchmarkStage(b *testing.B) {
	data := stepBatch(10)
	ids := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, staged := range []bool{false, true} {
		name := "direct"
		if staged {
			name = "staged"
		}
		b.Run(name, func(b *testing.B) {
			buf, err := buffer.NewVector(buffer.Config{Size: 20_000}, 10)
			if err != nil {
				b.Fatal(err)
			}
			s := stage{buf: buf, record: staged}
			var steps []buffer.Step
			cputime.Measure(b, func() {
				if steps, err = s.Add(data, ids, steps[:0]); err != nil {
					b.Fatal(err)
				}
				s.swap()
				if err := s.flush(); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// TestAwait: await returns a value sent before it is called, one sent
// while it polls, one sent after it has stopped polling and blocked
// (later than spinWait), and ok false for a closed channel.
func TestAwait(t *testing.T) {
	for _, c := range []struct {
		name   string
		delay  time.Duration // before the send; negative: sent before await
		closed bool
	}{
		{"sent before", -1, false},
		{"sent while polling", spinWait / 10, false},
		{"sent after blocking", 5 * spinWait, false},
		{"closed while polling", spinWait / 10, true},
		{"closed after blocking", 5 * spinWait, true},
	} {
		ch := make(chan int, 1)
		send := func() {
			if c.closed {
				close(ch)
			} else {
				ch <- 7
			}
		}
		if c.delay < 0 {
			send()
		} else {
			go func() { time.Sleep(c.delay); send() }()
		}
		v, ok := await(ch)
		if want := !c.closed; ok != want || (ok && v != 7) {
			t.Errorf("%s: got %d, %t; want 7, %t", c.name, v, ok, want)
		}
	}
}
