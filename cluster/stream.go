package cluster

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrBackpressure is returned by Stream.Publish when MaxPending
// publications are still waiting for their acknowledgement: the caller
// drops the data or tries again later, it is never made to wait.
var ErrBackpressure = errors.New("too many unacknowledged publications")

// StreamConfig describes a JetStream stream and how a Stream publishes to
// it.
type StreamConfig struct {
	// Name of the stream (letters, digits, '-' and '_').
	Name string
	// Subjects the stream stores.
	Subjects []string
	// Replicas is the number of servers holding each message; default 1.
	// A cluster of 3 with Replicas 3 keeps every acknowledged message
	// when one server is lost.
	Replicas int
	// Memory stores the stream in memory instead of files.
	Memory bool
	// MaxBytes bounds the stream; the oldest messages go first. 0: no bound.
	MaxBytes int64
	// MaxMsgsPerSubject bounds the messages kept per subject, the oldest
	// going first. 0: no bound.
	MaxMsgsPerSubject int64
	// MaxPending bounds the publications waiting for an acknowledgement;
	// default DefaultMaxPending.
	MaxPending int
	// AckWait is how long one try waits for its acknowledgement; default
	// DefaultAckWait.
	AckWait time.Duration
	// Retries is how many times a publication that was not acknowledged is
	// sent again (with the same message id, so the stream keeps one copy);
	// default DefaultRetries.
	Retries int
	// Timeout bounds the calls that create the stream and its readers;
	// default DefaultTimeout.
	Timeout time.Duration
}

// The defaults of StreamConfig.
const (
	DefaultMaxPending = 4096
	DefaultAckWait    = 2 * time.Second
	DefaultRetries    = 15
)

// Stream publishes to a JetStream stream without waiting for the
// acknowledgements, and reads subjects of it back in order. Its methods
// are safe for concurrent use.
type Stream struct {
	js      jetstream.JetStream
	cfg     StreamConfig
	prefix  string
	seq     atomic.Uint64
	pending atomic.Int64
	quit    chan struct{}

	mu     sync.Mutex // orders Publish's wg.Add before Close's wg.Wait
	closed bool
	wg     sync.WaitGroup
}

// OpenStream creates the stream c describes on n's deployment, or updates
// it to c, and returns a Stream publishing to it. The servers must run
// JetStream (Options.JetStream, embedded).
func OpenStream(n *Node, c StreamConfig) (*Stream, error) {
	if c.Name == "" || len(c.Subjects) == 0 {
		return nil, fmt.Errorf("%w: a stream needs a name and subjects", ErrCluster)
	}
	if c.Replicas < 0 || c.MaxPending < 0 || c.Retries < 0 || c.MaxBytes < 0 || c.MaxMsgsPerSubject < 0 {
		return nil, fmt.Errorf("%w: stream %s: negative setting in %+v", ErrCluster, c.Name, c)
	}
	if c.Replicas == 0 {
		c.Replicas = 1
	}
	if c.MaxPending == 0 {
		c.MaxPending = DefaultMaxPending
	}
	if c.AckWait <= 0 {
		c.AckWait = DefaultAckWait
	}
	if c.Retries == 0 {
		c.Retries = DefaultRetries
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	// JetStream's own bound stays above ours, so its publish never stalls.
	js, err := jetstream.New(n.nc, jetstream.WithPublishAsyncMaxPending(2*c.MaxPending+1), jetstream.WithPublishAsyncTimeout(c.AckWait))
	if err != nil {
		return nil, fmt.Errorf("%w: jetstream: %v", ErrCluster, err)
	}
	sc := jetstream.StreamConfig{
		Name:              c.Name,
		Subjects:          c.Subjects,
		Replicas:          c.Replicas,
		Storage:           jetstream.FileStorage,
		Discard:           jetstream.DiscardOld,
		MaxBytes:          -1,
		MaxMsgsPerSubject: -1,
		// A publication sent again must fall in the window that removes
		// duplicates.
		Duplicates: max(2*time.Minute, time.Duration(c.Retries+1)*c.AckWait*2),
	}
	if c.Memory {
		sc.Storage = jetstream.MemoryStorage
	}
	if c.MaxBytes > 0 {
		sc.MaxBytes = c.MaxBytes
	}
	if c.MaxMsgsPerSubject > 0 {
		sc.MaxMsgsPerSubject = c.MaxMsgsPerSubject
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
	defer cancel()
	if _, err := js.CreateOrUpdateStream(ctx, sc); err != nil {
		return nil, fmt.Errorf("%w: stream %s: %v", ErrCluster, c.Name, err)
	}
	return &Stream{js: js, cfg: c, prefix: rand.Text() + ".", quit: make(chan struct{})}, nil
}

// Publish sends data to subject of the stream and returns at once; done,
// if not nil, is called from another goroutine once the stream has
// acknowledged the message (nil) or every try has failed. Publish returns
// an error wrapping ErrBackpressure, sending nothing, while MaxPending
// publications wait for their acknowledgement. Messages sent again after
// a failed try may be stored after later ones.
func (s *Stream) Publish(subject string, data []byte, done func(error)) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return fmt.Errorf("%w: stream %s is closed", ErrCluster, s.cfg.Name)
	}
	if s.pending.Add(1) > int64(s.cfg.MaxPending) {
		s.pending.Add(-1)
		s.mu.Unlock()
		return fmt.Errorf("%w: stream %s: %w", ErrCluster, s.cfg.Name, ErrBackpressure)
	}
	s.wg.Add(1)
	s.mu.Unlock()
	msg := &nats.Msg{Subject: subject, Data: data, Header: nats.Header{}}
	msg.Header.Set(jetstream.MsgIDHeader, s.prefix+strconv.FormatUint(s.seq.Add(1), 36))
	f, err := s.js.PublishMsgAsync(msg)
	go s.track(msg, f, err, done)
	return nil
}

// track waits for msg's acknowledgement, sending it again after a failed
// try, and reports the outcome to done.
func (s *Stream) track(msg *nats.Msg, f jetstream.PubAckFuture, err error, done func(error)) {
	defer s.wg.Done()
	defer s.pending.Add(-1)
	for try := 0; ; try++ {
		if err == nil {
			select {
			case <-f.Ok():
			case err = <-f.Err():
			}
		}
		if err == nil {
			break
		}
		if errors.Is(err, nats.ErrConnectionClosed) {
			err = fmt.Errorf("%w: stream %s: %v", ErrCluster, s.cfg.Name, err)
			break
		}
		if try == s.cfg.Retries {
			err = fmt.Errorf("%w: stream %s: no acknowledgement after %d tries: %v", ErrCluster, s.cfg.Name, try+1, err)
			break
		}
		select {
		case <-s.quit:
			err = fmt.Errorf("%w: stream %s closed before the acknowledgement: %v", ErrCluster, s.cfg.Name, err)
		case <-time.After(s.cfg.AckWait / 4):
			f, err = s.js.PublishMsgAsync(&nats.Msg{Subject: msg.Subject, Data: msg.Data, Header: msg.Header})
			continue
		}
		break
	}
	if done != nil {
		done(err)
	}
}

// Pending returns the number of publications waiting for their
// acknowledgement or for their done call to return.
func (s *Stream) Pending() int { return int(s.pending.Load()) }

// Wait returns once every publication has been reported to its done, or
// with ctx's error.
func (s *Stream) Wait(ctx context.Context) error {
	for s.pending.Load() > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: stream %s: %d publications pending: %w", ErrCluster, s.cfg.Name, s.pending.Load(), ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// Read calls f, one at a time, with every stored message of subject in
// the stream's order, from the oldest kept, then with each new one, until
// stop is called. A reader survives the loss of a server: it resumes after
// the last message it delivered. Once stop returns, f is not running.
func (s *Stream) Read(subject string, f func(data []byte)) (stop func() error, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout)
	defer cancel()
	c, err := s.js.OrderedConsumer(ctx, s.cfg.Name, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		return nil, fmt.Errorf("%w: stream %s: reader of %s: %v", ErrCluster, s.cfg.Name, subject, err)
	}
	// mu makes stop and f exclusive: once stop returns, f is not running
	// and will not run again.
	var mu sync.Mutex
	stopped := false
	cc, err := c.Consume(func(m jetstream.Msg) {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			f(m.Data())
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%w: stream %s: reader of %s: %v", ErrCluster, s.cfg.Name, subject, err)
	}
	return func() error {
		cc.Stop()
		mu.Lock()
		stopped = true
		mu.Unlock()
		return nil
	}, nil
}

// Close stops sending publications again and waits for the trackers to
// report; publications still unacknowledged are reported as failed.
func (s *Stream) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.quit)
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}
