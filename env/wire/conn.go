package wire

import (
	"bufio"
	"io"
	"time"
)

// conn carries frames between the two ends of a worker: the pipes, or the
// shared region with the pipes as doorbells.
type conn interface {
	// send sends a whole frame (length, type, payload); deadline bounds
	// the write (zero: no bound).
	send(frame []byte, deadline time.Time) error
	// recv returns the next frame's type and payload, valid until the
	// next recv; deadline bounds the wait (zero: no bound).
	recv(deadline time.Time) (typ byte, p []byte, err error)
}

// readDeadliner is an *os.File whose reads can be bounded.
type readDeadliner interface {
	SetReadDeadline(t time.Time) error
}

type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// pipeConn sends each frame with one write and reads frames from a
// buffered reader.
type pipeConn struct {
	r   io.Reader
	br  *bufio.Reader
	w   io.Writer
	buf []byte
}

func newPipeConn(r io.Reader, w io.Writer) *pipeConn {
	return &pipeConn{r: r, br: bufio.NewReaderSize(r, 64<<10), w: w}
}

func (c *pipeConn) send(frame []byte, deadline time.Time) error {
	if wd, ok := c.w.(writeDeadliner); ok {
		_ = wd.SetWriteDeadline(deadline)
	}
	_, err := c.w.Write(frame)
	return err
}

func (c *pipeConn) recv(deadline time.Time) (byte, []byte, error) {
	if rd, ok := c.r.(readDeadliner); ok {
		_ = rd.SetReadDeadline(deadline)
	}
	typ, p, buf, err := ReadFrame(c.br, c.buf)
	c.buf = buf
	return typ, p, err
}

// deadline returns the time d from now, or the zero time for d ≤ 0.
func deadline(d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return time.Now().Add(d)
}
