package cluster_test

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorl/gorl/cluster"
)

// lossyTransport forwards everything to a Transport but throws away the
// replies of the requests whose number (from 1) is in lose, as if they
// were lost on the way back: the server did its work, the requester
// times out.
type lossyTransport struct {
	cluster.Transport
	n    atomic.Int64
	lose map[int64]bool
}

func (l *lossyTransport) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	r, err := l.Transport.Request(ctx, subject, data)
	if l.lose[l.n.Add(1)] {
		return nil, context.DeadlineExceeded
	}
	return r, err
}

func floatsBlob(xs ...float32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func blobFloats(b []byte) []float32 {
	xs := make([]float32, len(b)/4)
	for i := range xs {
		xs[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return xs
}

// sgdHolder is a parameter holder doing plain SGD, w ← w − 0.5·g, on a
// vector of 3 weights, publishing after every gradient.
type sgdHolder struct {
	w       []float32
	applied int
	bases   []uint64
}

func (h *sgdHolder) apply(base uint64, grad []byte) ([]byte, error) {
	g := blobFloats(grad)
	if len(g) != len(h.w) {
		return nil, errors.New("gradient of the wrong length")
	}
	for i := range h.w {
		h.w[i] -= 0.5 * g[i]
	}
	h.applied++
	h.bases = append(h.bases, base)
	return floatsBlob(h.w...), nil
}

// TestGradPushAppliedOnce pushes two gradients in chunks of 4 bytes (one
// float each) while some replies are lost, so that the pusher sends
// chunks again: each gradient is applied once. Expected weights by hand:
// w₀ = (1, 2, 3); g₁ = (2, 4, −2) gives (0, 0, 4); g₂ = (−2, 1, 8) gives
// (1, −0.5, 0).
func TestGradPushAppliedOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		lose map[int64]bool
	}{
		{"no loss", nil},
		{"middle chunk's reply lost", map[int64]bool{2: true}},
		{"final reply lost", map[int64]bool{3: true}},
		{"every first try lost", map[int64]bool{1: true, 3: true, 5: true, 7: true, 9: true, 11: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := startNode(t, cluster.Options{})
			ps, err := cluster.ServeParams(n.Transport(), "g", "w", 1000)
			if err != nil {
				t.Fatal(err)
			}
			defer ps.Close()
			h := &sgdHolder{w: []float32{1, 2, 3}}
			if err := ps.Publish(1, floatsBlob(h.w...)); err != nil {
				t.Fatal(err)
			}
			gs, err := cluster.ServeGrads(n.Transport(), "g", "w", ps, cluster.GradConfig{}, h.apply)
			if err != nil {
				t.Fatal(err)
			}
			defer gs.Close()
			lossy := &lossyTransport{Transport: n.Transport(), lose: tc.lose}
			p, err := cluster.NewGradPusher(lossy, "g", "w", 7, 4, 200*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			ctx := ctxFor(t, 10*time.Second)
			v, err := p.Push(ctx, 1, floatsBlob(2, 4, -2))
			if err != nil || v != 2 {
				t.Fatalf("first push: version %d, %v; want 2", v, err)
			}
			v, err = p.Push(ctx, 2, floatsBlob(-2, 1, 8))
			if err != nil || v != 3 {
				t.Fatalf("second push: version %d, %v; want 3", v, err)
			}
			if h.applied != 2 {
				t.Errorf("applied %d gradients, want 2", h.applied)
			}
			if h.bases[0] != 1 || h.bases[1] != 2 {
				t.Errorf("base versions %v, want [1 2]", h.bases)
			}
			_, blob, err := cluster.FetchParams(ctx, n.Transport(), "g", "w", 2)
			if err != nil {
				t.Fatal(err)
			}
			want := []float32{1, -0.5, 0}
			for i, x := range blobFloats(blob) {
				if x != want[i] {
					t.Fatalf("published weights %v, want %v", blobFloats(blob), want)
				}
			}
			st := gs.Stats()
			if st.Applied != 2 || st.Rejected != 0 {
				t.Errorf("stats %+v, want 2 applied and none rejected", st)
			}
		})
	}
}

// TestGradPushErrors: an apply error reaches the pusher, a stale gradient
// is dropped with the current version, and a push with no server ends.
func TestGradPushErrors(t *testing.T) {
	n := startNode(t, cluster.Options{})
	tr := n.Transport()
	ps, err := cluster.ServeParams(tr, "g", "w", 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	h := &sgdHolder{w: []float32{0, 0, 0}}
	if err := ps.Publish(1, floatsBlob(h.w...)); err != nil {
		t.Fatal(err)
	}
	gs, err := cluster.ServeGrads(tr, "g", "w", ps, cluster.GradConfig{MaxStale: 1}, h.apply)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	p, err := cluster.NewGradPusher(tr, "g", "w", 1, 1000, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 10*time.Second)
	if _, err := p.Push(ctx, 1, floatsBlob(1, 2)); !errors.Is(err, cluster.ErrGradRejected) {
		t.Fatalf("a gradient of the wrong length: %v, want ErrGradRejected", err)
	}
	for range 2 {
		if _, err := p.Push(ctx, 1, floatsBlob(1, 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	// Version 3 now; a gradient on version 1 is 2 versions old.
	v, err := p.Push(ctx, 1, floatsBlob(1, 1, 1))
	if !errors.Is(err, cluster.ErrGradStale) || v != 3 {
		t.Fatalf("a stale gradient: version %d, %v; want 3 and ErrGradStale", v, err)
	}
	if st := gs.Stats(); st.Applied != 2 || st.Stale != 1 || st.Rejected != 1 || st.LastErr == nil {
		t.Errorf("stats %+v, want 2 applied, 1 stale, 1 rejected", st)
	}
	nobody, err := cluster.NewGradPusher(tr, "g", "nobody", 1, 1000, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nobody.Push(ctxFor(t, 5*time.Second), 1, floatsBlob(1)); !errors.Is(err, cluster.ErrNoResponders) {
		t.Fatalf("a push with no server: %v, want ErrNoResponders", err)
	}
}
