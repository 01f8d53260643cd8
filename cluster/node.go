package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ErrCluster marks errors of this package: a server that does not start, a
// connection refused, a bad option.
var ErrCluster = errors.New("cluster")

// Options say how a Node joins NATS. The zero value embeds a server that
// opens no port.
type Options struct {
	// URLs of existing NATS servers ("nats://host:4222"). Empty: embed a
	// server in this process.
	URLs []string
	// Listen lets other processes connect to the embedded server, on Host
	// and Port.
	Listen bool
	// Host of the embedded server's client port; default 127.0.0.1.
	Host string
	// Port of the embedded server; 0 picks a free one.
	Port int
	// MaxPayload of the embedded server in bytes; 0 keeps NATS's 1 MiB.
	MaxPayload int32
	// User and Password authenticate the client (and, embedded, are the
	// server's only account when set).
	User, Password string
	// CredsFile is a NATS creds file (JWT and NKey seed) for the client.
	CredsFile string
	// NKeyFile is an NKey seed file for the client.
	NKeyFile string
	// CAFile is a PEM CA bundle that the servers' TLS certificates must
	// chain to.
	CAFile string
	// Name is the client's connection name, shown by the server.
	Name string
	// Timeout bounds the embedded server's start and the connection;
	// default DefaultTimeout.
	Timeout time.Duration
	// JetStream enables JetStream on the embedded server (OpenStream needs
	// it), storing in StoreDir (empty: a directory under the system's
	// temporary directory).
	JetStream bool
	StoreDir  string
}

// DefaultTimeout is Options.Timeout's default.
const DefaultTimeout = 10 * time.Second

// Node is one process's place in a NATS deployment: a connection and, when
// embedded, the server it runs.
type Node struct {
	srv *server.Server
	nc  *nats.Conn
	url string
}

// Start joins NATS as o says: connects to o.URLs, or starts an embedded
// server and connects to it.
func Start(o Options) (*Node, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	copts := []nats.Option{nats.Timeout(o.Timeout), nats.MaxReconnects(-1), nats.ReconnectWait(100 * time.Millisecond)}
	if o.Name != "" {
		copts = append(copts, nats.Name(o.Name))
	}
	if o.User != "" {
		copts = append(copts, nats.UserInfo(o.User, o.Password))
	}
	if o.CredsFile != "" {
		copts = append(copts, nats.UserCredentials(o.CredsFile))
	}
	if o.NKeyFile != "" {
		opt, err := nats.NkeyOptionFromSeed(o.NKeyFile)
		if err != nil {
			return nil, fmt.Errorf("%w: nkey seed file: %v", ErrCluster, err)
		}
		copts = append(copts, opt)
	}
	if o.CAFile != "" {
		copts = append(copts, nats.RootCAs(o.CAFile))
	}
	n := &Node{}
	if len(o.URLs) > 0 {
		if o.Listen {
			return nil, fmt.Errorf("%w: Listen applies to an embedded server, not to one reached by URL", ErrCluster)
		}
		nc, err := nats.Connect(strings.Join(o.URLs, ","), copts...)
		if err != nil {
			return nil, fmt.Errorf("%w: connect to %s: %v", ErrCluster, strings.Join(o.URLs, ","), err)
		}
		n.nc = nc
		return n, nil
	}
	host := o.Host
	if host == "" {
		host = "127.0.0.1"
	}
	port := o.Port
	if port == 0 {
		port = server.RANDOM_PORT
	}
	sopts := &server.Options{
		Host:       host,
		Port:       port,
		DontListen: !o.Listen,
		NoSigs:     true,
		NoLog:      true,
		MaxPayload: o.MaxPayload,
		Username:   o.User,
		Password:   o.Password,
		JetStream:  o.JetStream,
		StoreDir:   o.StoreDir,
	}
	srv, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("%w: embedded server: %v", ErrCluster, err)
	}
	srv.Start()
	if !srv.ReadyForConnections(o.Timeout) {
		srv.Shutdown()
		return nil, fmt.Errorf("%w: embedded server not ready within %v", ErrCluster, o.Timeout)
	}
	copts = append(copts, nats.InProcessServer(srv))
	nc, err := nats.Connect("", copts...)
	if err != nil {
		srv.Shutdown()
		return nil, fmt.Errorf("%w: connect to the embedded server: %v", ErrCluster, err)
	}
	n.srv, n.nc = srv, nc
	if o.Listen {
		if addr, ok := srv.Addr().(*net.TCPAddr); ok {
			n.url = "nats://" + net.JoinHostPort(host, strconv.Itoa(addr.Port))
		}
	}
	return n, nil
}

// URL is the address other processes connect to: the embedded server's
// when it listens, else the connected server's.
func (n *Node) URL() string {
	if n.srv != nil {
		return n.url
	}
	return n.nc.ConnectedUrl()
}

// Conn is the node's NATS connection, for callers that need NATS itself
// (JetStream, the Object Store).
func (n *Node) Conn() *nats.Conn { return n.nc }

// MaxPayload is the largest message the connected server accepts.
func (n *Node) MaxPayload() int { return int(n.nc.MaxPayload()) }

// Transport returns the node's connection as a Transport.
func (n *Node) Transport() Transport { return &natsTransport{nc: n.nc} }

// Close drains the connection and stops the embedded server.
func (n *Node) Close() error {
	err := n.nc.Drain()
	deadline := time.Now().Add(5 * time.Second)
	for !n.nc.IsClosed() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	n.nc.Close()
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	}
	if err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		return fmt.Errorf("%w: drain: %v", ErrCluster, err)
	}
	return nil
}

// natsTransport is Transport over a NATS connection.
type natsTransport struct{ nc *nats.Conn }

func (t *natsTransport) Publish(subject string, data []byte) error {
	if err := t.nc.Publish(subject, data); err != nil {
		return fmt.Errorf("%w: publish %s: %v", ErrCluster, subject, err)
	}
	return nil
}

func (t *natsTransport) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	msg, err := t.nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("%w: request %s: %w", ErrCluster, subject, ErrNoResponders)
		}
		return nil, fmt.Errorf("%w: request %s: %w", ErrCluster, subject, err)
	}
	return msg.Data, nil
}

func (t *natsTransport) Subscribe(subject string, f func(data []byte)) (func() error, error) {
	sub, err := t.nc.Subscribe(subject, func(m *nats.Msg) { f(m.Data) })
	if err != nil {
		return nil, fmt.Errorf("%w: subscribe %s: %v", ErrCluster, subject, err)
	}
	return sub.Unsubscribe, nil
}

func (t *natsTransport) Serve(subject string, h Handler) (func() error, error) {
	sub, err := t.nc.QueueSubscribe(subject, "serve", func(m *nats.Msg) {
		reply := m.Reply
		h(m.Data, func(data []byte) error {
			if reply == "" {
				return nil
			}
			return t.nc.Publish(reply, data)
		})
	})
	if err != nil {
		return nil, fmt.Errorf("%w: serve %s: %v", ErrCluster, subject, err)
	}
	return sub.Unsubscribe, nil
}

func (t *natsTransport) Flush(ctx context.Context) error {
	return t.nc.FlushWithContext(ctx)
}
