package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sync/atomic"
	"time"
	"unsafe"
)

// SharedVar is the environment variable by which Start offers a worker the
// shared region (fd 5): it holds how long the worker may spin, in
// nanoseconds, waiting for a request before it sleeps on its pipe.
const SharedVar = "GORL_WIRE_SHM"

// DefaultSpin is how long each side of the shared region spins waiting
// for the other before it sleeps on its pipe, when Options.Spin is zero.
const DefaultSpin = 50 * time.Microsecond

// firstSleep bounds a side's first sleep on its pipe after it has spun:
// a side that stores its sleeping flag and then reads the other's counter
// may see both stale when the other side has no memory barrier (Python),
// so it wakes once by itself to look again; after that its flag is seen.
const firstSleep = time.Millisecond

// The shared region: a header page of four 32-bit words, each on a cache
// line of its own, then the request area and the reply area, each holding
// one frame (length, type, payload) at its start. A side writes its frame,
// then increments its counter; the other side waits for the counter to
// change. Only pages that frames touch take memory.
const (
	offReqSeq      = 0   // requests sent by the parent
	offRespSeq     = 64  // replies sent by the worker
	offWorkerSleep = 128 // 1 while the worker sleeps on the request pipe
	offParentSleep = 192 // 1 while the parent sleeps on the reply pipe
	regionHeader   = 4096
	regionArea     = 4 + MaxFrame + 4092 // a largest frame, in whole pages
	regionSize     = regionHeader + 2*regionArea
)

// TypeDoorbell is the frame a side writes on its pipe, when the shared
// region is used, to wake the other side sleeping there: the frame is in
// the region.
const TypeDoorbell byte = 0x00

var doorbell = []byte{1, 0, 0, 0, TypeDoorbell}

// shmConn carries frames through the shared region, one side's view.
type shmConn struct {
	region []byte
	// seqOut and seqIn are this side's counter and the other's; sleep and
	// peerSleep their sleeping flags.
	seqOut, seqIn, sleep, peerSleep *uint32
	out, in                         []byte // this side's area and the other's
	lastIn, lastOut                 uint32
	spin                            time.Duration
	bellIn                          io.Reader // the pipe the other side rings
	br                              *bufio.Reader
	bellOut                         io.Writer
	buf                             []byte
}

// newShmConn returns the parent's view (parent true) or the worker's view
// of region, with the pipes that the other side rings (in) and that this
// side rings (out).
func newShmConn(region []byte, parent bool, spin time.Duration, in io.Reader, out io.Writer) *shmConn {
	word := func(off int) *uint32 { return (*uint32)(unsafe.Pointer(&region[off])) }
	req := region[regionHeader : regionHeader+regionArea]
	resp := region[regionHeader+regionArea:]
	c := &shmConn{region: region, spin: spin, bellIn: in, br: bufio.NewReaderSize(in, 64), bellOut: out}
	if parent {
		c.seqOut, c.seqIn, c.sleep, c.peerSleep = word(offReqSeq), word(offRespSeq), word(offParentSleep), word(offWorkerSleep)
		c.out, c.in = req, resp
	} else {
		c.seqOut, c.seqIn, c.sleep, c.peerSleep = word(offRespSeq), word(offReqSeq), word(offWorkerSleep), word(offParentSleep)
		c.out, c.in = resp, req
	}
	c.lastIn, c.lastOut = atomic.LoadUint32(c.seqIn), atomic.LoadUint32(c.seqOut)
	return c
}

var errNoShared = errors.New("wire: the shared region needs Linux on x86-64")

var errFrameSize = errors.New("wire: frame larger than MaxFrame")

func (c *shmConn) send(frame []byte, deadline time.Time) error {
	if len(frame) > len(c.out) || len(frame) < 5 {
		return errFrameSize
	}
	copy(c.out, frame)
	c.lastOut++
	atomic.StoreUint32(c.seqOut, c.lastOut)
	if atomic.LoadUint32(c.peerSleep) != 0 {
		if wd, ok := c.bellOut.(writeDeadliner); ok {
			_ = wd.SetWriteDeadline(deadline)
		}
		if _, err := c.bellOut.Write(doorbell); err != nil {
			return err
		}
	}
	return nil
}

func (c *shmConn) recv(deadline time.Time) (byte, []byte, error) {
	if err := c.wait(deadline); err != nil {
		return 0, nil, err
	}
	c.lastIn = atomic.LoadUint32(c.seqIn)
	return regionFrame(c.in)
}

// regionFrame returns the type and payload of the frame at the start of
// area, whose length must fit MaxFrame and the area.
func regionFrame(area []byte) (byte, []byte, error) {
	if len(area) < 5 {
		return 0, nil, protoErr("area of %d bytes holds no frame", len(area))
	}
	n := binary.LittleEndian.Uint32(area)
	if limit := min(MaxFrame, len(area)-4); n == 0 || uint64(n) > uint64(limit) {
		return 0, nil, protoErr("frame length %d outside [1, %d]", n, limit)
	}
	return area[4], area[5 : 4+n : 4+n], nil
}

// wait returns when the other side's counter has moved: it spins for
// c.spin, then sleeps on the pipe until a doorbell (or, the first time,
// firstSleep) and looks again. The pipe's end of file (the other side has
// gone), a frame other than a doorbell and the deadline are errors.
func (c *shmConn) wait(deadline time.Time) error {
	if atomic.LoadUint32(c.seqIn) != c.lastIn {
		return nil
	}
	if c.spin > 0 {
		t0 := time.Now()
		for i := 1; ; i++ {
			if atomic.LoadUint32(c.seqIn) != c.lastIn {
				return nil
			}
			if i%64 == 0 && time.Since(t0) >= c.spin {
				break
			}
		}
	}
	atomic.StoreUint32(c.sleep, 1)
	defer atomic.StoreUint32(c.sleep, 0)
	rd, _ := c.bellIn.(readDeadliner)
	first := rd != nil
	for atomic.LoadUint32(c.seqIn) == c.lastIn {
		d := deadline
		if first {
			if t := time.Now().Add(firstSleep); d.IsZero() || t.Before(d) {
				d = t
			}
		}
		if rd != nil {
			_ = rd.SetReadDeadline(d)
		}
		typ, _, buf, err := ReadFrame(c.br, c.buf)
		c.buf = buf
		if err != nil {
			if first && errors.Is(err, os.ErrDeadlineExceeded) && (deadline.IsZero() || time.Now().Before(deadline)) {
				first = false
				continue
			}
			return err
		}
		if typ != TypeDoorbell {
			return protoErr("frame of type 0x%02x on the pipe of a shared region", typ)
		}
	}
	return nil
}
