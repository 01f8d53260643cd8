package cluster

import (
	"context"
	"errors"
)

// ErrNoResponders is wrapped by Request when no member serves the subject.
var ErrNoResponders = errors.New("no responders")

// Handler serves one request: req is its body, reply sends the answer and
// may be called later, from another goroutine, or not at all (the
// requester's context then ends its wait).
type Handler func(req []byte, reply func([]byte) error)

// Transport is what the distributed buffers, the parameter server and the
// distributed algorithms need from the messaging layer. Node.Transport
// gives one over NATS.
type Transport interface {
	// Publish sends data to every current subscriber of subject, at most
	// once, without waiting.
	Publish(subject string, data []byte) error
	// Subscribe calls f with every message on subject, one at a time, until
	// the returned stop is called.
	Subscribe(subject string, f func(data []byte)) (stop func() error, err error)
	// Request sends data to one server of subject and waits for its reply
	// or the end of ctx.
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
	// Serve answers requests on subject with h until stop is called. Several
	// servers of one subject share its requests.
	Serve(subject string, h Handler) (stop func() error, err error)
	// Flush returns once the server has seen everything published so far.
	Flush(ctx context.Context) error
}
