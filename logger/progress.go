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
	// Update; 0 or less means 100*time.Millisecond.
	Interval time.Duration `json:"interval"`
	// Now is the clock that throttles redraws and times the steps per
	// second; nil means time.Now.
	Now func() time.Time `json:"-"`
}

// defaultInterval is the redraw interval when ProgressConfig.Interval is 0.
const defaultInterval = 100 * time.Millisecond

// barWidth is the number of characters of the bar.
const barWidth = 20

// ErrNoEpoch is the panic value of Progress.Update outside an epoch.
var ErrNoEpoch = Error{"logger: Progress.Update outside an epoch"}

// Progress draws a console progress line per epoch:
//
//	epoch 3 [#########-----------] 4500/10000 return 187.250 2813.4 steps/s
//
// Start opens the line of an epoch, Update sets the step count and the
// current mean return and redraws the line (returning to its start with
// '\r') at most once per Interval, and End draws the final state and ends
// the line with '\n'. The steps per second are the epoch's steps over the
// time from Start to the last Update. A mean return of NaN (no episode
// finished yet) is shown as "-".
//
// Progress is not safe for concurrent use.
type Progress struct {
	w        io.Writer
	interval time.Duration
	now      func() time.Time

	open               bool
	epoch              int
	total, step        int64
	ret                float64
	start, last, drawn time.Time
	width              int // longest line drawn in this epoch, in bytes
	buf                []byte
}

// NewProgress returns a Progress that draws on w.
func NewProgress(w io.Writer, cfg ProgressConfig) *Progress {
	p := &Progress{w: w, interval: cfg.Interval, now: cfg.Now}
	if p.interval <= 0 {
		p.interval = defaultInterval
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p
}

// Start ends the line of the previous epoch if it is still open (as End
// does), then opens and draws the line of epoch, which will take total
// steps. A total ≤ 0 draws no bar and no total.
func (p *Progress) Start(epoch int, total int64) error {
	if err := p.End(); err != nil {
		return err
	}
	t := p.now()
	p.open, p.epoch, p.total, p.step, p.ret = true, epoch, total, 0, math.NaN()
	p.start, p.last, p.width = t, t, 0
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
// line, and suffix.
func (p *Progress) draw(t time.Time, suffix string) error {
	b := append(p.buf[:0], '\r')
	b = append(b, "epoch "...)
	b = strconv.AppendInt(b, int64(p.epoch), 10)
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
	b = append(b, ' ')
	if secs := p.last.Sub(p.start).Seconds(); secs > 0 {
		b = strconv.AppendFloat(b, float64(p.step)/secs, 'f', 1, 64)
	} else {
		b = append(b, '-')
	}
	b = append(b, " steps/s"...)
	if n := len(b) - 1; n < p.width {
		b = appendRepeat(b, ' ', p.width-n)
	} else {
		p.width = n
	}
	b = append(b, suffix...)
	p.buf = b
	p.drawn = t
	if _, err := p.w.Write(b); err != nil {
		return fmt.Errorf("logger: drawing progress: %w", err)
	}
	return nil
}

func appendRepeat(b []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, c)
	}
	return b
}
