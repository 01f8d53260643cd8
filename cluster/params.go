package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// ErrStale is wrapped by FetchParams when the version it was reading was
// replaced twice during the read and it gave up; a retry reads the newest.
var ErrStale = errors.New("parameters replaced during the read")

// maxParked bounds the requests a ParamServer holds while waiting for a
// newer version; the oldest is dropped (its requester's context ends it).
const maxParked = 1024

// paramHeader is the reply header: status, version, number of chunks.
const paramHeader = 1 + 8 + 4

const (
	paramOK    = 0
	paramStale = 1 // the requested version is gone; start again
)

// ParamServer publishes versioned parameter blobs (a learner's weights) on
// one subject; FetchParams reads them.
type ParamServer struct {
	chunk int
	stop  func() error

	mu      sync.Mutex
	cur     paramVersion
	prev    paramVersion
	parked  []parkedFetch
	stopped bool
}

type paramVersion struct {
	version uint64
	blob    []byte
}

type parkedFetch struct {
	after uint64
	reply func([]byte) error
}

func paramSubject(group, name string) string { return "gorl." + group + ".params." + name }

// ServeParams starts a parameter server for group and name on t, sending
// blobs in chunks of at most chunk bytes (the server's payload limit less
// a margin: Node.MaxPayload()−1024, say).
func ServeParams(t Transport, group, name string, chunk int) (*ParamServer, error) {
	if chunk < 1 {
		return nil, fmt.Errorf("%w: parameter chunk size %d, want ≥ 1", ErrCluster, chunk)
	}
	p := &ParamServer{chunk: chunk}
	stop, err := t.Serve(paramSubject(group, name), p.serve)
	if err != nil {
		return nil, err
	}
	p.stop = stop
	return p, nil
}

// Publish makes blob (copied) version v, which must be newer than the last,
// and answers the fetches that were waiting for it.
func (p *ParamServer) Publish(v uint64, blob []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v <= p.cur.version {
		return fmt.Errorf("%w: parameter version %d is not newer than %d", ErrCluster, v, p.cur.version)
	}
	p.prev, p.cur = p.cur, paramVersion{version: v, blob: append([]byte(nil), blob...)}
	keep := p.parked[:0]
	for _, f := range p.parked {
		if v > f.after {
			f.reply(p.chunkReply(p.cur, 0))
			continue
		}
		keep = append(keep, f)
	}
	clear(p.parked[len(keep):])
	p.parked = keep
	return nil
}

// Version returns the newest published version, 0 before the first.
func (p *ParamServer) Version() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cur.version
}

// Close stops serving.
func (p *ParamServer) Close() error {
	p.mu.Lock()
	p.stopped = true
	p.parked = nil
	p.mu.Unlock()
	return p.stop()
}

// serve answers a fetch: body is after (uint64), version (uint64, 0 for
// the newest), chunk index (uint32).
func (p *ParamServer) serve(req []byte, reply func([]byte) error) {
	if len(req) != 20 {
		return
	}
	after := binary.LittleEndian.Uint64(req)
	version := binary.LittleEndian.Uint64(req[8:])
	chunk := int(binary.LittleEndian.Uint32(req[16:]))
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	switch {
	case version == 0 && p.cur.version > after:
		reply(p.chunkReply(p.cur, 0))
	case version == 0:
		if len(p.parked) == maxParked {
			copy(p.parked, p.parked[1:])
			p.parked = p.parked[:maxParked-1]
		}
		p.parked = append(p.parked, parkedFetch{after: after, reply: reply})
	case version == p.cur.version:
		reply(p.chunkReply(p.cur, chunk))
	case version == p.prev.version:
		reply(p.chunkReply(p.prev, chunk))
	default:
		reply([]byte{paramStale})
	}
}

func (p *ParamServer) chunkReply(v paramVersion, i int) []byte {
	n := max(1, (len(v.blob)+p.chunk-1)/p.chunk)
	lo := min(i*p.chunk, len(v.blob))
	hi := min(lo+p.chunk, len(v.blob))
	out := make([]byte, paramHeader, paramHeader+hi-lo)
	out[0] = paramOK
	binary.LittleEndian.PutUint64(out[1:], v.version)
	binary.LittleEndian.PutUint32(out[9:], uint32(n))
	return append(out, v.blob[lo:hi]...)
}

// FetchParams returns the newest blob of group and name whose version is
// newer than after, waiting for one until ctx ends (after 0: any published
// version).
func FetchParams(ctx context.Context, t Transport, group, name string, after uint64) (uint64, []byte, error) {
	subject := paramSubject(group, name)
	req := make([]byte, 20)
	for attempt := 0; attempt < 3; attempt++ {
		binary.LittleEndian.PutUint64(req, after)
		binary.LittleEndian.PutUint64(req[8:], 0)
		binary.LittleEndian.PutUint32(req[16:], 0)
		first, err := waitParams(ctx, t, subject, req)
		if err != nil {
			return 0, nil, err
		}
		if len(first) < paramHeader || first[0] != paramOK {
			return 0, nil, fmt.Errorf("%w: parameters %s: malformed reply", ErrCluster, subject)
		}
		version := binary.LittleEndian.Uint64(first[1:])
		chunks := int(binary.LittleEndian.Uint32(first[9:]))
		blob := append([]byte(nil), first[paramHeader:]...)
		stale := false
		for i := 1; i < chunks; i++ {
			binary.LittleEndian.PutUint64(req[8:], version)
			binary.LittleEndian.PutUint32(req[16:], uint32(i))
			r, err := t.Request(ctx, subject, req)
			if err != nil {
				return 0, nil, err
			}
			if len(r) >= 1 && r[0] == paramStale {
				stale = true
				break
			}
			if len(r) < paramHeader || r[0] != paramOK || binary.LittleEndian.Uint64(r[1:]) != version {
				return 0, nil, fmt.Errorf("%w: parameters %s: malformed chunk %d", ErrCluster, subject, i)
			}
			blob = append(blob, r[paramHeader:]...)
		}
		if !stale {
			return version, blob, nil
		}
	}
	return 0, nil, fmt.Errorf("%w: %s: %w", ErrCluster, subject, ErrStale)
}

// waitParams sends a parked fetch, repeating it when no server answers yet
// (a learner that has not started), until ctx ends.
func waitParams(ctx context.Context, t Transport, subject string, req []byte) ([]byte, error) {
	for {
		r, err := t.Request(ctx, subject, req)
		if err == nil || !errors.Is(err, ErrNoResponders) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: parameters %s: %w", ErrCluster, subject, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Follower keeps the newest version of a parameter blob, fetched in the
// background: an actor reads Latest between steps and never waits.
type Follower struct {
	latest atomic.Pointer[Versioned]
	done   chan struct{}
}

// Versioned is a parameter blob with its version.
type Versioned struct {
	Version uint64
	Blob    []byte
}

// Follow starts fetching group and name's versions on t until ctx ends;
// each newer version replaces the one Latest returns.
func Follow(ctx context.Context, t Transport, group, name string) *Follower {
	f := &Follower{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		var after uint64
		for ctx.Err() == nil {
			v, blob, err := FetchParams(ctx, t, group, name, after)
			if err != nil {
				select {
				case <-ctx.Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
				continue
			}
			f.latest.Store(&Versioned{Version: v, Blob: blob})
			after = v
		}
	}()
	return f
}

// Latest returns the newest version fetched, nil before the first.
func (f *Follower) Latest() *Versioned { return f.latest.Load() }

// Wait returns once the follower has stopped (its context ended).
func (f *Follower) Wait() { <-f.done }
