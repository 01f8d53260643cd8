package logger

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

// stepClock is a fake clock that the test moves by hand.
type stepClock struct{ t time.Time }

func (c *stepClock) now() time.Time          { return c.t }
func (c *stepClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestProgress(t *testing.T) {
	type op struct {
		advance time.Duration
		start   bool  // Start(epoch, total) instead of Update
		epoch   int   // for start
		total   int64 // for start
		step    int64 // for Update
		ret     float64
		end     bool
		want    string // bytes written by this operation, hand-derived
	}
	nan := math.NaN()
	ms := time.Millisecond
	ops := []op{
		{start: true, epoch: 1, total: 1000,
			want: "\repoch 1 [--------------------] 0/1000 return - - steps/s"},
		// 50 ms after the last draw: below the 100 ms interval, no draw.
		{advance: 50 * ms, step: 100, ret: nan, want: ""},
		// 100 ms after the last draw: drawn. 250 steps in 0.1 s.
		{advance: 50 * ms, step: 250, ret: 12.5,
			want: "\repoch 1 [#####---------------] 250/1000 return 12.500 2500.0 steps/s ETA 0:00"},
		{advance: 99 * ms, step: 300, ret: 13, want: ""},
		// The bar fills as the steps reach the total.
		{advance: 1 * ms, step: 1000, ret: 5,
			want: "\repoch 1 [####################] 1000/1000 return 5.000 5000.0 steps/s ETA 0:00"},
		// End draws the final state at once and ends the line; the rate is
		// that of the last Update (1000 steps in 0.2 s).
		{advance: 10 * ms, end: true,
			want: "\repoch 1 [####################] 1000/1000 return 5.000 5000.0 steps/s ETA 0:00\n"},
		// No bar and no total when the total is unknown (0).
		{advance: time.Second, start: true, epoch: 2, total: 0,
			want: "\repoch 2 0 return - - steps/s"},
		{advance: time.Second, step: 5, ret: -1.25,
			want: "\repoch 2 5 return -1.250 5.0 steps/s"},
		// Start while an epoch is open ends it first (its final draw and
		// newline), then opens the new line. Steps beyond the total fill the
		// bar and no more.
		{advance: time.Second, start: true, epoch: 3, total: 10,
			want: "\repoch 2 5 return -1.250 5.0 steps/s\n\repoch 3 [--------------------] 0/10 return - - steps/s"},
		{advance: time.Second, step: 15, ret: 2,
			want: "\repoch 3 [####################] 15/10 return 2.000 15.0 steps/s ETA 0:00"},
		// A line shorter than the longest one of the epoch is padded
		// with spaces over the rest of it. ETA: 7 steps left at 1.5 steps/s.
		{advance: time.Second, step: 3, ret: 2,
			want: "\repoch 3 [######--------------] 3/10 return 2.000 1.5 steps/s ETA 0:05  "},
	}
	clock := &stepClock{t: time.Unix(1000, 0)}
	var b bytes.Buffer
	p := NewProgress(&b, ProgressConfig{Now: clock.now})
	for i, o := range ops {
		clock.advance(o.advance)
		b.Reset()
		var err error
		switch {
		case o.start:
			err = p.Start(o.epoch, o.total)
		case o.end:
			err = p.End()
		default:
			err = p.Update(o.step, o.ret)
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != o.want {
			t.Fatalf("op %d wrote\n%q\nwant\n%q", i, b.String(), o.want)
		}
	}
	b.Reset()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "\repoch 3 [######--------------] 3/10 return 2.000 1.5 steps/s ETA 0:05  \n"; b.String() != want {
		t.Fatalf("Close wrote %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := p.Close(); err != nil || b.Len() != 0 {
		t.Fatalf("second Close wrote %q, error %v; want nothing", b.String(), err)
	}
}

func TestProgressInterval(t *testing.T) {
	clock := &stepClock{t: time.Unix(0, 0)}
	var b bytes.Buffer
	p := NewProgress(&b, ProgressConfig{Interval: time.Second, Now: clock.now})
	if err := p.Start(1, 100); err != nil {
		t.Fatal(err)
	}
	draws := 0
	for i := 1; i <= 100; i++ {
		clock.advance(100 * time.Millisecond)
		before := b.Len()
		if err := p.Update(int64(i), 0); err != nil {
			t.Fatal(err)
		}
		if b.Len() > before {
			draws++
		}
	}
	// 10 s of updates every 0.1 s with a 1 s interval: a draw every tenth.
	if draws != 10 {
		t.Fatalf("%d draws, want 10", draws)
	}
	if n := strings.Count(b.String(), "\r"); n != 11 {
		t.Fatalf("%d carriage returns, want 11 (Start and 10 draws)", n)
	}
}

func TestProgressUpdateOutsideEpoch(t *testing.T) {
	p := NewProgress(&bytes.Buffer{}, ProgressConfig{})
	defer func() {
		if r := recover(); r != ErrNoEpoch {
			t.Fatalf("panic value %v, want ErrNoEpoch", r)
		}
	}()
	_ = p.Update(1, 0)
}

func TestProgressWriteError(t *testing.T) {
	p := NewProgress(&failingWriter{}, ProgressConfig{})
	if err := p.Start(1, 10); !errors.Is(err, errDiskFull) {
		t.Fatalf("Start on a failing writer: %v", err)
	}
}

func TestProgressUpdateNoAllocations(t *testing.T) {
	clock := &stepClock{t: time.Unix(0, 0)}
	p := NewProgress(&bytes.Buffer{}, ProgressConfig{Now: clock.now})
	if err := p.Start(1, 1000); err != nil {
		t.Fatal(err)
	}
	step := int64(0)
	if n := testing.AllocsPerRun(100, func() { step++; _ = p.Update(step, 1) }); n != 0 {
		t.Errorf("Update without a draw allocates %v times", n)
	}
}

func TestProgressRun(t *testing.T) {
	// A run of 4 epochs of 100 steps, drawn as plain lines every 10 s:
	// updates, test returns, and the estimates of the time left.
	clock := &stepClock{t: time.Unix(0, 0)}
	var b bytes.Buffer
	p := NewProgress(&b, ProgressConfig{Epochs: 4, Plain: true, Now: clock.now})
	steps := func(want string, ops ...func() error) {
		t.Helper()
		b.Reset()
		for _, op := range ops {
			if err := op(); err != nil {
				t.Fatal(err)
			}
		}
		if b.String() != want {
			t.Fatalf("wrote\n%q\nwant\n%q", b.String(), want)
		}
	}
	advance := func(d time.Duration) func() error { return func() error { clock.advance(d); return nil } }
	update := func(step int64, ret float64) func() error { return func() error { return p.Update(step, ret) } }
	// Plain: Start draws nothing; an Update before 10 s draws nothing.
	steps("", func() error { return p.Start(1, 100) }, advance(5*time.Second), update(10, 1))
	// At 20 s, 40 steps: 2 steps/s, 60 steps left = 30 s; no epoch has
	// finished, so each of the 3 epochs to come is estimated at the
	// epoch's 50 s: 30 + 150 s = 3:00. 10 updates in 20 s.
	p.SetUpdates(10)
	steps("epoch 1/4 [########------------] 40/100 return 2.000 2.0 steps/s 0.5 upd/s ETA 0:30 run 3:00\n",
		advance(15*time.Second), update(40, 2))
	// At 50 s the Update draws, and End draws the same state again:
	// 10 updates in 50 s, 3 epochs of 50 s to come.
	last := "epoch 1/4 [####################] 100/100 return 3.000 2.0 steps/s 0.2 upd/s ETA 0:00 run 2:30\n"
	steps(last+last, advance(30*time.Second), update(100, 3), func() error { return p.End() })
	// The test after epoch 1 takes 10 s: epoch 1 took 60 s Start to
	// Start. In epoch 2, 50 steps in 10 s (the Update at 5 s is within
	// the interval and draws nothing): 10 s left in the epoch, 2 epochs of
	// 60 s to come: 2:10.
	p.SetTest(150, 180)
	steps("epoch 2/4 [##########----------] 50/100 return - test 150.0 best 180.0 5.0 steps/s ETA 0:10 run 2:10\n",
		advance(10*time.Second), func() error { return p.Start(2, 100) }, advance(5*time.Second),
		update(30, math.NaN()), advance(5*time.Second), update(50, math.NaN()))
}

func TestAppendClock(t *testing.T) {
	for secs, want := range map[float64]string{0: "0:00", 59.4: "0:59", 59.6: "1:00", 754: "12:34", 3600: "1:00:00", 45296: "12:34:56"} {
		if got := string(appendClock(nil, secs)); got != want {
			t.Errorf("appendClock(%v) = %q, want %q", secs, got, want)
		}
	}
}

func TestProgressDrawNoAllocations(t *testing.T) {
	// A redraw with every field shown reuses the line's buffer.
	clock := &stepClock{t: time.Unix(0, 0)}
	p := NewProgress(io.Discard, ProgressConfig{Epochs: 10, Now: clock.now})
	if err := p.Start(1, 1<<30); err != nil {
		t.Fatal(err)
	}
	p.SetTest(1, 2)
	step := int64(0)
	if n := testing.AllocsPerRun(100, func() {
		step++
		clock.advance(time.Second)
		p.SetUpdates(step)
		_ = p.Update(step, 1)
	}); n != 0 {
		t.Errorf("Update with a draw allocates %v times", n)
	}
}
