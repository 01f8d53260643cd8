package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorl/gorl/cluster"
)

func startNode(t testing.TB, o cluster.Options) *cluster.Node {
	t.Helper()
	n, err := cluster.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func ctxFor(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestEmbeddedOpensNoPortByDefault(t *testing.T) {
	n := startNode(t, cluster.Options{})
	if u := n.URL(); u != "" {
		t.Fatalf("URL = %q, want none: the default embedded server must not listen", u)
	}
	if n.MaxPayload() != 1<<20 {
		t.Errorf("MaxPayload = %d, want NATS's default 1 MiB", n.MaxPayload())
	}
}

func TestListenOnLoopbackAndJoinByURL(t *testing.T) {
	a := startNode(t, cluster.Options{Listen: true})
	u := a.URL()
	if !strings.HasPrefix(u, "nats://127.0.0.1:") {
		t.Fatalf("URL = %q, want a loopback address", u)
	}
	b := startNode(t, cluster.Options{URLs: []string{u}, Name: "joiner"})
	stop, err := a.Transport().Serve("gorl.t.echo", func(req []byte, reply func([]byte) error) {
		reply(append([]byte("echo:"), req...))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := a.Transport().Flush(ctxFor(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	got, err := b.Transport().Request(ctxFor(t, 5*time.Second), "gorl.t.echo", []byte("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "echo:hi" {
		t.Fatalf("reply %q, want %q", got, "echo:hi")
	}
}

func TestBadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    cluster.Options
		want string
	}{
		{"listen with URLs", cluster.Options{URLs: []string{"nats://127.0.0.1:1"}, Listen: true}, "Listen applies to an embedded server"},
		{"nobody at URL", cluster.Options{URLs: []string{"nats://127.0.0.1:1"}, Timeout: 200 * time.Millisecond}, "connect to nats://127.0.0.1:1"},
		{"missing nkey file", cluster.Options{NKeyFile: "does-not-exist.nk"}, "nkey seed file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := cluster.Start(tc.o)
			if err == nil {
				n.Close()
				t.Fatal("Start succeeded")
			}
			if !errors.Is(err, cluster.ErrCluster) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want ErrCluster naming %q", err, tc.want)
			}
		})
	}
}

func TestUserPasswordIsEnforced(t *testing.T) {
	a := startNode(t, cluster.Options{Listen: true, User: "learner", Password: "s3cret"})
	if _, err := cluster.Start(cluster.Options{URLs: []string{a.URL()}, User: "learner", Password: "wrong", Timeout: time.Second}); err == nil {
		t.Fatal("a wrong password connected")
	}
	startNode(t, cluster.Options{URLs: []string{a.URL()}, User: "learner", Password: "s3cret"})
}

func TestRequestWithoutServer(t *testing.T) {
	n := startNode(t, cluster.Options{})
	_, err := n.Transport().Request(ctxFor(t, 2*time.Second), "gorl.t.nobody", nil)
	if !errors.Is(err, cluster.ErrNoResponders) {
		t.Fatalf("error %v, want ErrNoResponders", err)
	}
}

func TestParamsChunkedRoundTrip(t *testing.T) {
	n := startNode(t, cluster.Options{})
	tr := n.Transport()
	ps, err := cluster.ServeParams(tr, "g", "w", 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	for _, size := range []int{0, 1, 999, 1000, 1001, 25_000} {
		blob := make([]byte, size)
		for i := range blob {
			blob[i] = byte(i*7 + size)
		}
		v := ps.Version() + 1
		if err := ps.Publish(v, blob); err != nil {
			t.Fatal(err)
		}
		gotV, got, err := cluster.FetchParams(ctxFor(t, 5*time.Second), tr, "g", "w", v-1)
		if err != nil {
			t.Fatal(err)
		}
		if gotV != v || !bytes.Equal(got, blob) {
			t.Fatalf("size %d: got version %d and %d bytes, want %d and the blob", size, gotV, len(got), v)
		}
	}
	if err := ps.Publish(1, nil); err == nil {
		t.Fatal("publishing an older version succeeded")
	}
}

func TestParamsWaitForNewer(t *testing.T) {
	n := startNode(t, cluster.Options{})
	tr := n.Transport()
	ps, err := cluster.ServeParams(tr, "g", "w", 64)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	if err := ps.Publish(1, []byte("one")); err != nil {
		t.Fatal(err)
	}
	type result struct {
		v    uint64
		blob []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		v, b, err := cluster.FetchParams(ctxFor(t, 5*time.Second), tr, "g", "w", 1)
		done <- result{v, b, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("a fetch after version 1 returned before version 2 existed: %+v", r)
	case <-time.After(100 * time.Millisecond):
	}
	if err := ps.Publish(2, bytes.Repeat([]byte("two"), 100)); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.v != 2 || !bytes.Equal(r.blob, bytes.Repeat([]byte("two"), 100)) {
		t.Fatalf("got %d, %d bytes, %v; want version 2", r.v, len(r.blob), r.err)
	}
	// Nothing newer: the wait ends with the context.
	_, _, err = cluster.FetchParams(ctxFor(t, 150*time.Millisecond), tr, "g", "w", 2)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the context's deadline", err)
	}
}

func TestParamsBeforeTheServerStarts(t *testing.T) {
	n := startNode(t, cluster.Options{})
	tr := n.Transport()
	done := make(chan error, 1)
	go func() {
		_, b, err := cluster.FetchParams(ctxFor(t, 5*time.Second), tr, "g", "late", 0)
		if err == nil && string(b) != "w" {
			err = errors.New("wrong blob " + string(b))
		}
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	ps, err := cluster.ServeParams(tr, "g", "late", 64)
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	if err := ps.Publish(1, []byte("w")); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
