package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrGradRejected is wrapped by GradPusher.Push when the parameter holder
// refused a gradient: its apply function failed, or the push was
// malformed. The error carries the holder's reason.
var ErrGradRejected = errors.New("gradient rejected")

// ErrGradStale is wrapped by GradPusher.Push when the gradient was
// computed on weights more than GradConfig.MaxStale versions old and was
// dropped; the pusher should fetch newer weights and go on.
var ErrGradStale = errors.New("gradient too stale")

// gradHeader is a push's header: worker, sequence number, base version,
// chunk index, number of chunks.
const gradHeader = 8 + 8 + 8 + 4 + 4

// Push outcomes, the first byte of a reply.
const (
	gradApplied  = 0 // the whole gradient was applied; the version follows
	gradMore     = 1 // a chunk was stored; send the next
	gradRejected = 2 // refused; the reason follows
	gradStale    = 3 // dropped as too stale; the current version follows
)

// DefaultMaxWorkers is GradConfig.MaxWorkers's default.
const DefaultMaxWorkers = 1024

// GradApply applies one pushed gradient, computed by a worker on the
// weights of version base, to the holder's model (an optimizer step) and
// returns the new weights to publish, or nil to publish nothing this time.
// A GradServer calls it for one gradient at a time.
type GradApply func(base uint64, grad []byte) (weights []byte, err error)

// GradConfig holds a GradServer's settings.
type GradConfig struct {
	// MaxStale drops a gradient computed on weights more than MaxStale
	// versions older than the newest published. Default 0: none is
	// dropped (A3C applies stale gradients, as Hogwild does).
	MaxStale uint64 `json:"max_stale"`
	// MaxWorkers bounds the workers whose push state the server keeps; a
	// new worker beyond it replaces the one heard from least recently,
	// whose repeated last push would then be applied again. Default
	// DefaultMaxWorkers.
	MaxWorkers int `json:"max_workers"`
}

// GradStats counts what a GradServer did with the pushes it received.
type GradStats struct {
	// Applied and Stale count whole gradients applied and dropped as too
	// stale; Duplicates counts repeated pushes answered without applying
	// them again; Rejected counts refusals.
	Applied, Stale, Duplicates, Rejected int64
	// LastErr is the most recent refusal, nil if none.
	LastErr error
}

// GradServer receives gradients pushed by workers (A3C's), applies each
// exactly once with a GradApply and publishes the weights it returns as
// the next version of a ParamServer.
type GradServer struct {
	params *ParamServer
	apply  GradApply
	cfg    GradConfig
	stop   func() error

	mu      sync.Mutex
	workers map[uint64]*gradWorker
	clock   uint64
	stats   GradStats
	stopped bool
}

// gradWorker is a worker's push state: the push in progress or the outcome
// of the last one, kept to answer a repeated request.
type gradWorker struct {
	seq   uint64
	done  bool
	reply []byte // the outcome of push seq once done
	buf   []byte // the chunks of push seq received so far
	got   uint32
	used  uint64 // the server's clock when last heard from
}

func gradSubject(group, name string) string { return "gorl." + group + ".grads." + name }

// ServeGrads starts receiving gradients for group and name on t, applying
// them with apply and publishing the weights it returns on params.
func ServeGrads(t Transport, group, name string, params *ParamServer, cfg GradConfig, apply GradApply) (*GradServer, error) {
	if params == nil || apply == nil {
		return nil, fmt.Errorf("%w: ServeGrads needs a ParamServer and an apply function", ErrCluster)
	}
	if cfg.MaxWorkers < 0 {
		return nil, fmt.Errorf("%w: max_workers %d, want ≥ 0", ErrCluster, cfg.MaxWorkers)
	}
	if cfg.MaxWorkers == 0 {
		cfg.MaxWorkers = DefaultMaxWorkers
	}
	s := &GradServer{params: params, apply: apply, cfg: cfg, workers: map[uint64]*gradWorker{}}
	stop, err := t.Serve(gradSubject(group, name), s.serve)
	if err != nil {
		return nil, err
	}
	s.stop = stop
	return s, nil
}

// Stats returns the counts so far.
func (s *GradServer) Stats() GradStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Close stops receiving; a push in progress is answered by no one.
func (s *GradServer) Close() error {
	s.mu.Lock()
	s.stopped = true
	s.workers = nil
	s.mu.Unlock()
	return s.stop()
}

func (s *GradServer) serve(req []byte, reply func([]byte) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	reply(s.receive(req))
}

// receive handles one request and returns the reply.
func (s *GradServer) receive(req []byte) []byte {
	if len(req) < gradHeader {
		return s.reject(fmt.Errorf("push of %d bytes, shorter than its header", len(req)))
	}
	id := binary.LittleEndian.Uint64(req)
	seq := binary.LittleEndian.Uint64(req[8:])
	base := binary.LittleEndian.Uint64(req[16:])
	chunk := binary.LittleEndian.Uint32(req[24:])
	chunks := binary.LittleEndian.Uint32(req[28:])
	if chunks == 0 || chunk >= chunks {
		return s.reject(fmt.Errorf("worker %d push %d: chunk %d of %d", id, seq, chunk, chunks))
	}
	s.clock++
	w := s.worker(id)
	w.used = s.clock
	switch {
	case seq < w.seq:
		return s.reject(fmt.Errorf("worker %d push %d: older than its push %d", id, seq, w.seq))
	case seq == w.seq && w.done:
		s.stats.Duplicates++
		return w.reply
	case seq > w.seq:
		w.seq, w.done, w.got, w.buf = seq, false, 0, w.buf[:0]
	}
	switch {
	case chunk < w.got: // a repeated chunk: already stored
		return []byte{gradMore}
	case chunk > w.got:
		w.done, w.reply = true, s.reject(fmt.Errorf("worker %d push %d: chunk %d before chunk %d", id, seq, chunk, w.got))
		return w.reply
	}
	w.buf = append(w.buf, req[gradHeader:]...)
	w.got++
	if w.got < chunks {
		return []byte{gradMore}
	}
	w.done, w.reply = true, s.finish(base, w.buf)
	w.buf = w.buf[:0]
	return w.reply
}

// finish applies a whole gradient computed on version base and returns
// the reply.
func (s *GradServer) finish(base uint64, grad []byte) []byte {
	cur := s.params.Version()
	if s.cfg.MaxStale > 0 && cur > base && cur-base > s.cfg.MaxStale {
		s.stats.Stale++
		return versionReply(gradStale, cur)
	}
	weights, err := s.apply(base, grad)
	if err != nil {
		return s.reject(err)
	}
	if weights != nil {
		cur++
		if err := s.params.Publish(cur, weights); err != nil {
			return s.reject(err)
		}
	}
	s.stats.Applied++
	return versionReply(gradApplied, cur)
}

func (s *GradServer) reject(err error) []byte {
	s.stats.Rejected++
	s.stats.LastErr = err
	return append([]byte{gradRejected}, err.Error()...)
}

// worker returns id's state, making room for it if the server keeps
// MaxWorkers already.
func (s *GradServer) worker(id uint64) *gradWorker {
	if w, ok := s.workers[id]; ok {
		return w
	}
	if len(s.workers) >= s.cfg.MaxWorkers {
		var oldest uint64
		first := true
		for k, w := range s.workers {
			if first || w.used < s.workers[oldest].used {
				oldest, first = k, false
			}
		}
		delete(s.workers, oldest)
	}
	w := &gradWorker{}
	s.workers[id] = w
	return w
}

func versionReply(status byte, v uint64) []byte {
	out := make([]byte, 9)
	out[0] = status
	binary.LittleEndian.PutUint64(out[1:], v)
	return out
}

// GradPusher sends one worker's gradients to a GradServer. A GradPusher
// is used by one goroutine at a time.
type GradPusher struct {
	t       Transport
	subject string
	id      uint64
	seq     uint64
	chunk   int
	timeout time.Duration
	req     []byte
}

// NewGradPusher returns a pusher for group and name on t for the worker
// id, unique among the server's workers, sending messages of at most
// chunk bytes of gradient (the payload limit less a margin, as for
// ServeParams). Each request waits at most timeout for its reply
// (DefaultTimeout when 0) before it is sent again.
func NewGradPusher(t Transport, group, name string, id uint64, chunk int, timeout time.Duration) (*GradPusher, error) {
	if chunk < 1 {
		return nil, fmt.Errorf("%w: gradient chunk size %d, want ≥ 1", ErrCluster, chunk)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &GradPusher{t: t, subject: gradSubject(group, name), id: id, chunk: chunk, timeout: timeout}, nil
}

// pushAttempts is how many times a request is sent before Push gives up.
const pushAttempts = 3

// Push sends grad, computed on the weights of version base, and returns
// the version the server published after applying it (the current one if
// it published none). A request whose reply is lost is sent again; the
// server applies a gradient once however often it hears it. Push returns
// an error wrapping ErrGradStale when the server dropped the gradient as
// too stale (with the current version), ErrGradRejected when it refused
// it, ErrNoResponders when no server answers, or ctx's error.
func (p *GradPusher) Push(ctx context.Context, base uint64, grad []byte) (uint64, error) {
	p.seq++
	chunks := max(1, (len(grad)+p.chunk-1)/p.chunk)
	for i := range chunks {
		lo := min(i*p.chunk, len(grad))
		hi := min(lo+p.chunk, len(grad))
		p.req = append(p.req[:0], make([]byte, gradHeader)...)
		binary.LittleEndian.PutUint64(p.req, p.id)
		binary.LittleEndian.PutUint64(p.req[8:], p.seq)
		binary.LittleEndian.PutUint64(p.req[16:], base)
		binary.LittleEndian.PutUint32(p.req[24:], uint32(i))
		binary.LittleEndian.PutUint32(p.req[28:], uint32(chunks))
		p.req = append(p.req, grad[lo:hi]...)
		r, err := p.request(ctx)
		if err != nil {
			return 0, err
		}
		if len(r) == 0 {
			return 0, fmt.Errorf("%w: %s: empty reply", ErrCluster, p.subject)
		}
		switch r[0] {
		case gradMore:
			if i == chunks-1 {
				return 0, fmt.Errorf("%w: %s: the last chunk was not applied", ErrCluster, p.subject)
			}
		case gradApplied, gradStale:
			if len(r) != 9 || i != chunks-1 {
				return 0, fmt.Errorf("%w: %s: malformed reply", ErrCluster, p.subject)
			}
			v := binary.LittleEndian.Uint64(r[1:])
			if r[0] == gradStale {
				return v, fmt.Errorf("%w: %s: base version %d, current %d: %w", ErrCluster, p.subject, base, v, ErrGradStale)
			}
			return v, nil
		case gradRejected:
			return 0, fmt.Errorf("%w: %s: %w: %s", ErrCluster, p.subject, ErrGradRejected, r[1:])
		default:
			return 0, fmt.Errorf("%w: %s: malformed reply", ErrCluster, p.subject)
		}
	}
	return 0, fmt.Errorf("%w: %s: no outcome", ErrCluster, p.subject)
}

// request sends p.req, again after a lost reply or while no server
// answers, up to pushAttempts times or until ctx ends.
func (p *GradPusher) request(ctx context.Context) ([]byte, error) {
	var err error
	for range pushAttempts {
		rctx, cancel := context.WithTimeout(ctx, p.timeout)
		var r []byte
		r, err = p.t.Request(rctx, p.subject, p.req)
		cancel()
		if err == nil {
			return r, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrCluster, p.subject, ctx.Err())
		}
		if errors.Is(err, ErrNoResponders) {
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("%w: %s: %w", ErrCluster, p.subject, ctx.Err())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	return nil, err
}
