package cluster_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorl/gorl/cluster"
)

func jetStreamNode(t testing.TB) *cluster.Node {
	t.Helper()
	return startNode(t, cluster.Options{JetStream: true, StoreDir: t.TempDir()})
}

// TestStreamPublishAckRead: 50 messages published without waiting are all
// acknowledged and read back in publication order by a reader started
// before, and by one started after (which begins at the oldest).
func TestStreamPublishAckRead(t *testing.T) {
	n := jetStreamNode(t)
	s, err := cluster.OpenStream(n, cluster.StreamConfig{Name: "t-acks", Subjects: []string{"gorl.t.add.>"}, Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	var early []string
	stop, err := s.Read("gorl.t.add.a", func(d []byte) {
		mu.Lock()
		early = append(early, string(d))
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	const total = 50
	acks := make(chan error, total)
	var want []string
	for i := range total {
		m := fmt.Sprint("m", i)
		want = append(want, m)
		if err := s.Publish("gorl.t.add.a", []byte(m), func(err error) { acks <- err }); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Publish("gorl.t.add.b", []byte("other subject"), nil); err != nil {
		t.Fatal(err)
	}
	for range total {
		if err := <-acks; err != nil {
			t.Fatalf("acknowledgement: %v", err)
		}
	}
	if err := s.Wait(ctxFor(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	var late []string
	stop2, err := s.Read("gorl.t.add.a", func(d []byte) {
		mu.Lock()
		late = append(late, string(d))
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		done := len(early) >= total && len(late) >= total
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, got := range [][]string{early, late} {
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("read %v, want %v", got, want)
		}
	}
}

// TestStreamBackpressure: with MaxPending 1 and a first publication that
// no stream takes (its subject is not the stream's), a second publication
// is refused at once with ErrBackpressure, and the first is reported as
// failed after its tries.
func TestStreamBackpressure(t *testing.T) {
	n := jetStreamNode(t)
	s, err := cluster.OpenStream(n, cluster.StreamConfig{Name: "t-bp", Subjects: []string{"gorl.t.bp"}, Memory: true,
		MaxPending: 1, Retries: 1, AckWait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	if err := s.Publish("gorl.t.elsewhere", []byte("x"), func(err error) { done <- err }); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = s.Publish("gorl.t.bp", []byte("y"), nil)
	if !errors.Is(err, cluster.ErrBackpressure) {
		t.Fatalf("second Publish: %v, want ErrBackpressure", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusal took %v: Publish must not wait for acknowledgements", d)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a publication no stream holds was acknowledged")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the failed publication was never reported")
	}
	if err := s.Wait(ctxFor(t, 5*time.Second)); err != nil {
		t.Errorf("Pending = %d after the report: %v", s.Pending(), err)
	}
	if err := s.Publish("gorl.t.bp", []byte("z"), nil); err != nil {
		t.Errorf("Publish after the failure: %v", err)
	}
}

func TestStreamBadConfig(t *testing.T) {
	n := jetStreamNode(t)
	for _, tc := range []struct {
		name string
		c    cluster.StreamConfig
		want string
	}{
		{"no name", cluster.StreamConfig{Subjects: []string{"a"}}, "needs a name and subjects"},
		{"no subjects", cluster.StreamConfig{Name: "a"}, "needs a name and subjects"},
		{"negative replicas", cluster.StreamConfig{Name: "a", Subjects: []string{"a"}, Replicas: -1}, "negative setting"},
		{"negative pending", cluster.StreamConfig{Name: "a", Subjects: []string{"a"}, MaxPending: -1}, "negative setting"},
		{"3 replicas on 1 server", cluster.StreamConfig{Name: "a", Subjects: []string{"a"}, Replicas: 3, Timeout: 2 * time.Second}, "stream a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := cluster.OpenStream(n, tc.c)
			if err == nil {
				s.Close()
				t.Fatal("OpenStream succeeded")
			}
			if !errors.Is(err, cluster.ErrCluster) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want ErrCluster mentioning %q", err, tc.want)
			}
		})
	}
}

// TestStreamNeedsJetStream: the default embedded server runs no JetStream.
func TestStreamNeedsJetStream(t *testing.T) {
	n := startNode(t, cluster.Options{})
	if s, err := cluster.OpenStream(n, cluster.StreamConfig{Name: "a", Subjects: []string{"a"}, Timeout: 2 * time.Second}); err == nil {
		s.Close()
		t.Fatal("OpenStream succeeded without JetStream")
	}
}
