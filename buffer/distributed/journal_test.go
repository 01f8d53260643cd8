package distributed_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/buffer/distributed"
	"github.com/gorl/gorl/cluster"
	"github.com/gorl/gorl/internal/testrand"
)

// freePorts returns n loopback ports free at the time of the call (the
// route ports of a cluster must be known before its servers start).
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// jetStreamCluster starts n JetStream servers in this process, clustered
// over loopback routes, and returns them with their client URLs.
func jetStreamCluster(t testing.TB, n int) ([]*server.Server, []string) {
	t.Helper()
	ports := freePorts(t, n)
	var routes []*url.URL
	for _, p := range ports {
		routes = append(routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	var srvs []*server.Server
	var urls []string
	for i := range n {
		o := &server.Options{
			ServerName: fmt.Sprintf("n%d", i),
			Host:       "127.0.0.1",
			Port:       server.RANDOM_PORT,
			NoLog:      true,
			NoSigs:     true,
			JetStream:  true,
			StoreDir:   t.TempDir(),
			Cluster:    server.ClusterOpts{Name: "gorl-test", Host: "127.0.0.1", Port: ports[i]},
			Routes:     routes,
		}
		s, err := server.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		s.Start()
		t.Cleanup(s.Shutdown)
		if !s.ReadyForConnections(10 * time.Second) {
			t.Fatalf("server %d not ready", i)
		}
		srvs = append(srvs, s)
		urls = append(urls, s.ClientURL())
	}
	return srvs, urls
}

// Environment of a server process started by jetStreamProcesses.
const (
	nodeEnv    = "GORL_TEST_JETSTREAM_NODE" // the server's index
	portsEnv   = "GORL_TEST_JETSTREAM_PORTS"
	storeEnv   = "GORL_TEST_JETSTREAM_STORE"
	nodeMaxRun = 3 * time.Minute // a server process stops by itself after this
)

// jetStreamProcesses starts n JetStream servers as child processes (this
// test binary running TestJetStreamNodeProcess), clustered over loopback
// routes, and returns them with their client URLs. The processes are
// killed when the test ends, and stop by themselves after nodeMaxRun.
func jetStreamProcesses(t testing.TB, n int) ([]*exec.Cmd, []string) {
	t.Helper()
	ports := freePorts(t, 2*n) // client ports, then route ports
	var ps []string
	for _, p := range ports {
		ps = append(ps, strconv.Itoa(p))
	}
	var cmds []*exec.Cmd
	var urls []string
	for i := range n {
		c := exec.Command(os.Args[0], "-test.run=^TestJetStreamNodeProcess$", "-test.count=1")
		c.Env = append(os.Environ(), nodeEnv+"="+strconv.Itoa(i), portsEnv+"="+strings.Join(ps, ","), storeEnv+"="+t.TempDir())
		c.Stdout, c.Stderr = os.Stderr, os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			c.Process.Kill()
			c.Wait()
		})
		cmds = append(cmds, c)
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
	}
	for i, u := range urls {
		deadline := time.Now().Add(30 * time.Second)
		for {
			conn, err := net.Dial("tcp", strings.TrimPrefix(u, "nats://"))
			if err == nil {
				conn.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("server process %d not listening on %s: %v", i, u, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return cmds, urls
}

// TestJetStreamNodeProcess is a server of jetStreamProcesses when the
// environment names one, and is skipped otherwise: it serves until it is
// killed or nodeMaxRun has passed.
func TestJetStreamNodeProcess(t *testing.T) {
	idx := os.Getenv(nodeEnv)
	if idx == "" {
		t.Skip("a server process of TestJournalSurvivesNodeKill")
	}
	i, err := strconv.Atoi(idx)
	if err != nil {
		t.Fatal(err)
	}
	var ports []int
	for _, p := range strings.Split(os.Getenv(portsEnv), ",") {
		v, err := strconv.Atoi(p)
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, v)
	}
	n := len(ports) / 2
	var routes []*url.URL
	for _, p := range ports[n:] {
		routes = append(routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	s, err := server.NewServer(&server.Options{
		ServerName: fmt.Sprintf("n%d", i),
		Host:       "127.0.0.1",
		Port:       ports[i],
		NoLog:      true,
		NoSigs:     true,
		JetStream:  true,
		StoreDir:   os.Getenv(storeEnv),
		Cluster:    server.ClusterOpts{Name: "gorl-test", Host: "127.0.0.1", Port: ports[n+i]},
		Routes:     routes,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	defer s.Shutdown()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("not ready")
	}
	time.Sleep(nodeMaxRun)
}

// openStream retries OpenStream until the cluster has elected its
// JetStream leader.
func openStream(t testing.TB, n *cluster.Node, c cluster.StreamConfig, within time.Duration) *cluster.Stream {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		c.Timeout = 2 * time.Second
		s, err := cluster.OpenStream(n, c)
		if err == nil {
			t.Cleanup(func() { s.Close() })
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stream within %v: %v", within, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// ids returns the obs of every transition in a shard the test owns.
func ids(t testing.TB, b buffer.Buffer) []float64 {
	t.Helper()
	all := b.SampleIndices(0, nil)
	if len(all) == 0 {
		return nil
	}
	out := &batch.Batch{}
	if err := b.TakeTo(out, all); err != nil {
		t.Fatal(err)
	}
	return column(t, out, "obs")
}

// TestJournalSurvivesNodeLoss: an actor adds batches of 10 transitions
// through a stream replicated on a 3-server cluster, never waiting for
// acknowledgements, while a learner samples it; the server leading the
// stream is shut down mid-run. Adds go on being acknowledged after the
// election, the learner samples transitions added after it, and every
// transition whose add was acknowledged is in the actor's shard and in a
// shard rebuilt from the stream by a restarted member: none is lost.
func TestJournalSurvivesNodeLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-server cluster")
	}
	srvs, urls := jetStreamCluster(t, 3)
	journalSurvivesNodeLoss(t, urls, "shut down", func(leader string) bool {
		for _, s := range srvs {
			if s.Name() == leader {
				s.Shutdown()
				return true
			}
		}
		return false
	})
}

// TestJournalSurvivesNodeKill is TestJournalSurvivesNodeLoss with each
// server a child process (this test binary run again as
// TestJetStreamNodeProcess) and the stream's leader killed with SIGKILL:
// no shutdown, no chance to flush or hand over leadership.
func TestJournalSurvivesNodeKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-process cluster")
	}
	procs, urls := jetStreamProcesses(t, 3)
	journalSurvivesNodeLoss(t, urls, "killed (SIGKILL)", func(leader string) bool {
		for i, p := range procs {
			if fmt.Sprintf("n%d", i) == leader {
				if err := p.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				p.Wait()
				return true
			}
		}
		return false
	})
}

// journalSurvivesNodeLoss runs the scenario of TestJournalSurvivesNodeLoss
// on the cluster at urls; stop stops the server of the given name (the
// stream's leader), how says how, for the log.
func journalSurvivesNodeLoss(t *testing.T, urls []string, how string, stop func(leader string) bool) {
	actorNode, err := cluster.Start(cluster.Options{URLs: urls, Name: "actor"})
	if err != nil {
		t.Fatal(err)
	}
	defer actorNode.Close()
	learnerNode, err := cluster.Start(cluster.Options{URLs: []string{urls[2], urls[1], urls[0]}, Name: "learner"})
	if err != nil {
		t.Fatal(err)
	}
	defer learnerNode.Close()
	const group, streamName = "dur", "gorl-dur"
	stream := openStream(t, actorNode, cluster.StreamConfig{Name: streamName, Subjects: distributed.JournalSubjects(group),
		Replicas: 3, MaxPending: 256, AckWait: time.Second, Retries: 30}, 60*time.Second)

	var mu sync.Mutex
	acked := map[float64]bool{}
	var failed int
	onAck := func(b *batch.Batch, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			failed++
			return
		}
		for _, o := range column(t, b, "obs") {
			acked[o] = true
		}
	}
	nAcked := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(acked)
	}
	shard := replay(t, 1_000_000)
	actor, err := distributed.New(actorNode.Transport(), distributed.Config{Group: group, Member: "actor", Heartbeat: beat,
		Journal: stream, Acked: onAck}, shard)
	if err != nil {
		t.Fatal(err)
	}
	learner, err := distributed.New(learnerNode.Transport(), distributed.Config{Group: group, Member: "learner", Heartbeat: beat}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer learner.Close()

	var next atomic.Int64 // obs of the next transition added
	var refused atomic.Int64
	var slowest atomic.Int64
	stopAdds := make(chan struct{})
	addsDone := make(chan struct{})
	go func() {
		defer close(addsDone)
		for {
			select {
			case <-stopAdds:
				return
			case <-time.After(2 * time.Millisecond):
			}
			first := int(next.Load())
			start := time.Now()
			err := actor.Add(rows(first, 10))
			if d := int64(time.Since(start)); d > slowest.Load() {
				slowest.Store(d)
			}
			if err != nil {
				refused.Add(1) // back-pressure: the transitions are dropped
				continue
			}
			next.Add(10)
		}
	}()
	wait := func(what string, within time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(within)
		for !ok() {
			if time.Now().After(deadline) {
				close(stopAdds)
				<-addsDone
				t.Fatalf("timed out after %v waiting for %s", within, what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	wait("300 acknowledged transitions", 30*time.Second, func() bool { return nAcked() >= 300 })

	js, err := jetstream.New(actorNode.Conn())
	if err != nil {
		t.Fatal(err)
	}
	info, err := func() (*jetstream.StreamInfo, error) {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s, err := js.Stream(c, streamName)
		if err != nil {
			return nil, err
		}
		return s.Info(c)
	}()
	if err != nil || info.Cluster == nil {
		t.Fatalf("stream info: %v", err)
	}
	atKill := nAcked()
	obsAtKill := float64(next.Load())
	if !stop(info.Cluster.Leader) {
		t.Fatalf("stream leader %q is none of the servers", info.Cluster.Leader)
	}
	killedAt := time.Now()
	t.Logf("%s %s, the stream's leader, after %d acknowledged transitions", how, info.Cluster.Leader, atKill)

	wait("300 more acknowledged transitions after the election", 60*time.Second, func() bool { return nAcked() >= atKill+300 })
	t.Logf("acknowledgements resumed within %v of the loss", time.Since(killedAt).Round(time.Millisecond))
	rng := testrand.New(t, 5)
	wait("a sample holding a transition added after the shutdown", 30*time.Second, func() bool {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s, err := learner.Sample(c, 64, rng)
		if err != nil {
			return false
		}
		return slices.Max(column(t, s.Batch, "obs")) >= obsAtKill
	})
	close(stopAdds)
	<-addsDone
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := stream.Wait(c); err != nil {
		t.Fatal(err)
	}
	want := nAcked()
	mu.Lock()
	t.Logf("%d transitions acknowledged, %d batches failed, %d adds refused by back-pressure, slowest Add %v",
		want, failed, refused.Load(), time.Duration(slowest.Load()))
	mu.Unlock()

	// Every acknowledged transition reaches the actor's shard, and a member
	// restarted under the same name rebuilds a shard holding them all.
	wait("the actor's shard to hold every acknowledged transition", 30*time.Second, func() bool { return actor.Len() >= want })
	if err := actor.Close(); err != nil {
		t.Fatal(err)
	}
	// Opening the journal's reader can time out while the cluster that
	// lost a server settles: the restart is tried again, as a restarted
	// process would be, for up to 60 s.
	var restarted *buffer.Replay
	var again *distributed.Buffer
	for deadline := time.Now().Add(60 * time.Second); ; {
		restarted = replay(t, 1_000_000)
		again, err = distributed.New(actorNode.Transport(), distributed.Config{Group: group, Member: "actor", Heartbeat: beat, Journal: stream}, restarted)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		t.Logf("restarting the member: %v; again", err)
		time.Sleep(500 * time.Millisecond)
	}
	wait("the restarted member's shard", 30*time.Second, func() bool { return again.Len() >= want })
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*buffer.Replay{"actor's shard": shard, "rebuilt shard": restarted} {
		have := map[float64]bool{}
		for _, o := range ids(t, b) {
			have[o] = true
		}
		lost := 0
		mu.Lock()
		for o := range acked {
			if !have[o] {
				lost++
			}
		}
		mu.Unlock()
		if lost > 0 {
			t.Errorf("%s: %d of %d acknowledged transitions lost", name, lost, want)
		}
	}
	if n, err := learner.Skipped(); n > 0 {
		t.Errorf("%d journal records skipped: %v", n, err)
	}
}

// TestJournalRestartRebuildsShard: on one embedded server with JetStream,
// a prioritized member's adds (with priorities) come back, priorities
// included, into a new shard when the member restarts under its name.
func TestJournalRestartRebuildsShard(t *testing.T) {
	n, err := cluster.Start(cluster.Options{JetStream: true, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	stream, err := cluster.OpenStream(n, cluster.StreamConfig{Name: "gorl-rb", Subjects: distributed.JournalSubjects("rb"), Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	pcfg := buffer.DefaultPriorityConfig()
	mk := func() (*buffer.Prioritized, *distributed.Prioritized) {
		local, err := buffer.NewPrioritized(buffer.Config{Size: 100}, pcfg)
		if err != nil {
			t.Fatal(err)
		}
		m, err := distributed.NewPrioritized(n.Transport(), distributed.Config{Group: "rb", Member: "a", Heartbeat: beat, Journal: stream}, local, 0.4)
		if err != nil {
			t.Fatal(err)
		}
		return local, m
	}
	_, first := mk()
	hs, err := first.Add(rows(0, 4), []float64{1, 2, 3, 4})
	if err != nil || hs != nil {
		t.Fatalf("Add: handles %v, error %v; want none of either", hs, err)
	}
	if _, err := first.Add(rows(4, 2), []float64{1}); err == nil {
		t.Error("Add with 1 priority for 2 transitions succeeded")
	}
	if _, err := first.Add(rows(4, 2), nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the shard to take the journal's records", func() bool { return first.Len() == 6 })
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	local, again := mk()
	waitFor(t, "the rebuilt shard", func() bool { return again.Len() == 6 })
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	// The expected leaves are the local prioritized buffer's for the same
	// adds and priorities: the last two, added without priorities, take
	// the largest so far.
	ref, err := buffer.NewPrioritized(buffer.Config{Size: 100}, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := ref.Add(rows(0, 4), make([]int, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{0, 1, 2, 3, 4, 5}
	if err := ref.UpdateWeight(idx[:4], []float64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Add(rows(4, 2), make([]int, 2), steps); err != nil {
		t.Fatal(err)
	}
	got, want := make([]float64, 6), make([]float64, 6)
	local.PriorityTo(got, idx)
	ref.PriorityTo(want, idx)
	if !slices.Equal(got, want) {
		t.Errorf("rebuilt leaves %v, want %v", got, want)
	}
	if obs := ids(t, local); !slices.Equal(obs, []float64{0, 1, 2, 3, 4, 5}) {
		t.Errorf("rebuilt obs %v, want 0…5 in order", obs)
	}
}
