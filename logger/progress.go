package logger

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// ProgressConfig configures NewProgress.
type ProgressConfig struct {
	// Interval is the least time between two redraws of the line by
	// Update; 0 or less means 100*time.Millisecond, or 10*time.Second
	// with Plain.
	Interval time.Duration `json:"interval"`
	// Epochs is the number of epochs of the run, for the line's estimate
	// of the time left in the run; 0 means unknown (no estimate).
	Epochs int `json:"epochs"`
	// Plain draws for a writer that is not a terminal (a file, a pipe):
	// every draw is a whole line ended by '\n', without '\r' or padding,
	// and Start draws nothing.
	Plain bool `json:"plain"`
	// Now is the clock that throttles redraws and times the rates and
	// estimates; nil means time.Now.
	Now func() time.Time `json:"-"`
}

// Default redraw intervals, when ProgressConfig.Interval is 0.
const (
	defaultInterval      = 100 * time.Millisecond
	defaultPlainInterval = 10 * time.Second
)

// barWidth is the number of characters of the bar.
const barWidth = 20

// ErrNoEpoch is the panic value of Progress.Update outside an epoch.
var ErrNoEpoch = Error{"logger: Progress.Update outside an epoch"}

// Progress draws a console progress line per epoch:
//
//	epoch 3/10 [#########-----------] 4500/10000 return 187.250 test 190.1 best 200.0 2813.4 steps/s 281.3 upd/s ETA 0:02 run 0:31
//
// Start opens the line of an epoch, Update sets the step count and the
// current mean return and redraws the line (returning to its start with
// '\r') at most once per Interval, and End draws the final state and ends
// the line with '\n'. SetUpdates and SetTest record the epoch's updates
// and the latest and best test returns, shown from the next draw on.
//
// The steps and updates per second are the epoch's counts over the time
// from Start to the last Update. ETA is the estimated time left in the
// epoch, at the epoch's rate; "run" the time left in the run: that plus
// the epochs still to come (ProgressConfig.Epochs) at the mean duration of
// the epochs finished since the first Start, Start to Start, tests
// included (before the first has finished, at the current epoch's
// estimated duration). A mean return of NaN (no episode finished yet) is
// shown as "-"; test returns before the first SetTest, updates before
// the first SetUpdates and estimates that cannot be made yet are left out.
//
// Progress is not safe for concurrent use.
type Progress struct {
	w        io.Writer
	interval time.Duration
	epochs   int
	plain    bool
	now      func() time.Time

	open               bool
	epoch              int
	total, step        int64
	updates            int64
	ret                float64
	test, best         float64
	start, last, drawn time.Time
	runStart           time.Time // the first Start
	finished           int       // epochs finished since runStart
	width              int       // longest line drawn in this epoch, in bytes
	buf                []byte
}

// NewProgress returns a Progress that draws on w.
func NewProgress(w io.Writer, cfg ProgressConfig) *Progress {
	p := &Progress{w: w, interval: cfg.Interval, epochs: cfg.Epochs, plain: cfg.Plain, now: cfg.Now,
		test: math.NaN(), best: math.NaN()}
	if p.interval <= 0 {
		p.interval = defaultInterval
		if p.plain {
			p.interval = defaultPlainInterval
		}
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p
}

// Start ends the line of the previous epoch if it is still open (as End
// does), then opens and draws the line of epoch, which will take total
// steps. A total ≤ 0 draws no bar, no total and no estimates.
func (p *Progress) Start(epoch int, total int64) error {
	if err := p.End(); err != nil {
		return err
	}
	t := p.now()
	if p.runStart.IsZero() {
		p.runStart = t
	} else {
		p.finished++
	}
	p.open, p.epoch, p.total, p.step, p.updates, p.ret = true, epoch, total, 0, 0, math.NaN()
	p.start, p.last, p.width = t, t, 0
	if p.plain {
		p.drawn = t
		return nil
	}
	return p.draw(t, "")
}

// Update records that step steps of the epoch are done and that the mean
// return of the latest episodes is meanReturn, and redraws the line if the
// last draw is at least Interval old.
//
// Update panics with ErrNoEpoch before Start or after End.
func (p *Progress) Update(step int64, meanReturn float64) error {
	if !p.open {
		panic(ErrNoEpoch)
	}
	t := p.now()
	p.step, p.ret, p.last = step, meanReturn, t
	if t.Sub(p.drawn) < p.interval {
		return nil
	}
	return p.draw(t, "")
}

// SetUpdates records that n updates (gradient steps) of the epoch are
// done. It does not redraw.
func (p *Progress) SetUpdates(n int64) { p.updates = n }

// SetTest records the mean return of the latest test and the best mean
// test return so far. It does not redraw.
func (p *Progress) SetTest(latest, best float64) { p.test, p.best = latest, best }

// End draws the final state of the open epoch and ends its line with a
// newline. Without an open epoch it does nothing.
func (p *Progress) End() error {
	if !p.open {
		return nil
	}
	p.open = false
	return p.draw(p.now(), "\n")
}

// Close ends the open epoch's line, as End does.
func (p *Progress) Close() error { return p.End() }

// draw writes '\r', the line, spaces over what is left of a longer earlier
// line, and suffix; in plain mode the line and a newline.
func (p *Progress) draw(t time.Time, suffix string) error {
	b := p.buf[:0]
	if !p.plain {
		b = append(b, '\r')
	}
	b = append(b, "epoch "...)
	b = strconv.AppendInt(b, int64(p.epoch), 10)
	if p.epochs > 0 {
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(p.epochs), 10)
	}
	if p.total > 0 {
		done := int(min(max(p.step, 0), p.total) * barWidth / p.total)
		b = append(b, " ["...)
		b = appendRepeat(b, '#', done)
		b = appendRepeat(b, '-', barWidth-done)
		b = append(b, "] "...)
		b = strconv.AppendInt(b, p.step, 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, p.total, 10)
	} else {
		b = append(b, ' ')
		b = strconv.AppendInt(b, p.step, 10)
	}
	b = append(b, " return "...)
	if math.IsNaN(p.ret) {
		b = append(b, '-')
	} else {
		b = strconv.AppendFloat(b, p.ret, 'f', 3, 64)
	}
	if !math.IsNaN(p.test) {
		b = append(b, " test "...)
		b = strconv.AppendFloat(b, p.test, 'f', 1, 64)
		b = append(b, " best "...)
		b = strconv.AppendFloat(b, p.best, 'f', 1, 64)
	}
	b = append(b, ' ')
	secs := p.last.Sub(p.start).Seconds()
	if secs > 0 {
		b = strconv.AppendFloat(b, float64(p.step)/secs, 'f', 1, 64)
	} else {
		b = append(b, '-')
	}
	b = append(b, " steps/s"...)
	if p.updates > 0 && secs > 0 {
		b = append(b, ' ')
		b = strconv.AppendFloat(b, float64(p.updates)/secs, 'f', 1, 64)
		b = append(b, " upd/s"...)
	}
	if p.total > 0 && p.step > 0 && secs > 0 {
		left := max(p.total-p.step, 0)
		epochLeft := secs * float64(left) / float64(p.step)
		b = append(b, " ETA "...)
		b = appendClock(b, epochLeft)
		if p.epochs > 0 {
			perEpoch := secs * float64(p.total) / float64(p.step)
			if p.finished > 0 {
				perEpoch = p.start.Sub(p.runStart).Seconds() / float64(p.finished)
			}
			b = append(b, " run "...)
			b = appendClock(b, epochLeft+float64(max(p.epochs-p.epoch, 0))*perEpoch)
		}
	}
	if p.plain {
		b = append(b, '\n')
	} else {
		if n := len(b) - 1; n < p.width {
			b = appendRepeat(b, ' ', p.width-n)
		} else {
			p.width = n
		}
		b = append(b, suffix...)
	}
	p.buf = b
	p.drawn = t
	if _, err := p.w.Write(b); err != nil {
		return fmt.Errorf("logger: drawing progress: %w", err)
	}
	return nil
}

// appendClock appends secs, rounded to the second, as m:ss, or h:mm:ss
// from an hour on.
func appendClock(b []byte, secs float64) []byte {
	s := int64(math.Round(secs))
	h, m := s/3600, s/60%60
	s %= 60
	if h > 0 {
		b = strconv.AppendInt(b, h, 10)
		b = append(b, ':')
		b = append(b, byte('0'+m/10), byte('0'+m%10))
	} else {
		b = strconv.AppendInt(b, m, 10)
	}
	return append(b, ':', byte('0'+s/10), byte('0'+s%10))
}

func appendRepeat(b []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, c)
	}
	return b
}
