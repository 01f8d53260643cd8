package wire

import (
	"encoding/binary"
	"errors"
	"os"
	"testing"
	"time"
)

// shmPair returns the parent's and the worker's views of a new region,
// with pipes as doorbells, in this process.
func shmPair(t *testing.T, spin time.Duration) (parent, worker *shmConn) {
	t.Helper()
	if !sharedSupported {
		t.Skip("the shared region needs Linux on x86-64")
	}
	f, mem, err := newRegion()
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, f := range []*os.File{reqR, reqW, respR, respW} {
			f.Close()
		}
		unmapRegion(mem)
	})
	return newShmConn(mem, true, spin, respR, reqW), newShmConn(mem, false, spin, reqR, respW)
}

// TestShmConn sends frames both ways, with and without spinning (a
// sleeping side must be woken by its doorbell), and checks what a
// malformed region or doorbell pipe gives.
func TestShmConn(t *testing.T) {
	for _, spin := range []time.Duration{0, DefaultSpin} {
		p, w := shmPair(t, spin)
		var e enc
		for i := range 50 {
			e.begin(TypeStep)
			e.u32(uint32(i))
			done := make(chan error, 1)
			go func() {
				typ, body, err := w.recv(time.Time{})
				if err == nil && (typ != TypeStep || binary.LittleEndian.Uint32(body) != uint32(i)) {
					err = errors.New("worker got the wrong frame")
				}
				if err == nil {
					var r enc
					r.begin(TypeStepOK)
					r.u32(uint32(i) * 2)
					err = w.send(r.finish(), time.Time{})
				}
				done <- err
			}()
			if i%10 == 0 {
				time.Sleep(2 * time.Millisecond) // the worker sleeps on its pipe
			}
			if err := p.send(e.finish(), time.Time{}); err != nil {
				t.Fatal(err)
			}
			typ, body, err := p.recv(time.Now().Add(5 * time.Second))
			if err != nil || typ != TypeStepOK || binary.LittleEndian.Uint32(body) != uint32(i)*2 {
				t.Fatalf("spin %v frame %d: reply %#x %v %v", spin, i, typ, body, err)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		// A frame length of 0 in the region.
		binary.LittleEndian.PutUint32(w.out, 0)
		w.lastOut++
		*w.seqOut = w.lastOut
		if _, _, err := p.recv(time.Time{}); !errors.Is(err, ErrProtocol) {
			t.Fatalf("frame of length 0: %v, want ErrProtocol", err)
		}
		// No reply: the deadline.
		if _, _, err := p.recv(time.Now().Add(20 * time.Millisecond)); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("no reply: %v, want a deadline error", err)
		}
		// A frame other than a doorbell on the pipe.
		w.bellOut.Write([]byte{1, 0, 0, 0, TypeStepOK})
		if _, _, err := p.recv(time.Now().Add(5 * time.Second)); !errors.Is(err, ErrProtocol) {
			t.Fatalf("frame on the doorbell pipe: %v, want ErrProtocol", err)
		}
	}
}
