package distributed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/cluster"
)

// ErrDistributed marks this package's errors: no live member, a member
// that answered with an error, a bad configuration.
var ErrDistributed = errors.New("distributed buffer")

// Config names a member and its group and sets its timing.
type Config struct {
	// Group is the buffer's name: members of one group share data.
	Group string
	// Member is this member's name, unique in the group.
	Member string
	// Heartbeat is how often a member with a shard announces itself;
	// default DefaultHeartbeat. A member not heard of for 10 heartbeats is
	// gone.
	Heartbeat time.Duration
	// Deadline bounds the wait for each member's share of a sample;
	// default DefaultDeadline.
	Deadline time.Duration
	// Journal, when set, makes a member's adds durable: Add publishes the
	// transitions to the journal and returns without waiting; the member
	// reads its own journal subject back into its shard, so the shard holds
	// what the journal acknowledged, and a member restarted under the same
	// name gets back the transitions the journal still keeps.
	Journal Journal
	// Acked, with a Journal, is called with each Batch given to Add once
	// the journal has stored it (err nil) or has given up (err). It runs on
	// another goroutine and must not block.
	Acked func(data *batch.Batch, err error)
}

// The defaults of Config.Heartbeat and Config.Deadline.
const (
	DefaultHeartbeat = 100 * time.Millisecond
	DefaultDeadline  = 2 * time.Second
)

func (c *Config) fill() error {
	if c.Group == "" || c.Member == "" {
		return fmt.Errorf("%w: Group and Member must be set", ErrDistributed)
	}
	for _, s := range []string{c.Group, c.Member} {
		for _, r := range s {
			if r == '.' || r == '*' || r == '>' || r <= ' ' {
				return fmt.Errorf("%w: name %q may not hold '.', '*', '>' or spaces", ErrDistributed, s)
			}
		}
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = DefaultHeartbeat
	}
	if c.Deadline <= 0 {
		c.Deadline = DefaultDeadline
	}
	return nil
}

// Handle names one sampled transition for UpdatePriority: the member that
// holds it, its index there and the slot's write generation.
type Handle struct {
	Member string
	Index  int
	Gen    uint64
}

// Sample is what Sample returns.
type Sample struct {
	// Batch holds the transitions in TakeTo's form; prioritized, with
	// "weight" computed with the global minimum priority.
	Batch *batch.Batch
	// Handles name each row's transition (prioritized buffers).
	Handles []Handle
	// Missing names the members that did not answer in time.
	Missing []string
}

// expireBeats is how many heartbeats a member may miss before the others
// drop it from their tables.
const expireBeats = 10

// peer is what a member knows of another.
type peer struct {
	size     int
	sum, min float64
	seen     time.Time
}

// member is the implementation shared by Buffer and Prioritized.
type member struct {
	t   cluster.Transport
	cfg Config

	mu       sync.Mutex // guards local, gens, scratch
	local    buffer.Buffer
	prio     *buffer.Prioritized
	gens     []uint64
	steps    []buffer.Step
	ids, idx []int // scratch of addLocal, kept zero
	take     batch.Batch

	pmu   sync.Mutex // guards peers
	peers map[string]*peer

	jmu     sync.Mutex // guards skipped, skipErr
	skipped int
	skipErr error

	wantPrio bool    // a prioritized buffer's member
	beta     float64 // importance-sampling exponent, prioritized

	stops []func() error
	quit  chan struct{}
	wg    sync.WaitGroup
}

func subject(group, name, op string) string { return "gorl." + group + ".buf." + name + "." + op }

func newMember(t cluster.Transport, cfg Config, local buffer.Buffer, prio *buffer.Prioritized, beta float64) (*member, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	m := &member{t: t, cfg: cfg, local: local, prio: prio, wantPrio: beta >= 0, beta: beta, peers: map[string]*peer{}, quit: make(chan struct{})}
	if local != nil {
		if local.BufferNum() != 1 {
			return nil, fmt.Errorf("%w: a shard must be one buffer, not %d sub-buffers", ErrDistributed, local.BufferNum())
		}
		m.gens = make([]uint64, local.Cap())
	}
	stop, err := t.Subscribe("gorl."+cfg.Group+".buf.hb", m.heard)
	if err != nil {
		return nil, err
	}
	m.stops = append(m.stops, stop)
	if local != nil {
		for op, h := range map[string]cluster.Handler{"sample": m.serveSample} {
			stop, err := t.Serve(subject(cfg.Group, cfg.Member, op), h)
			if err != nil {
				m.close()
				return nil, err
			}
			m.stops = append(m.stops, stop)
		}
		stop, err := t.Subscribe(subject(cfg.Group, cfg.Member, "prio"), m.servePriority)
		if err != nil {
			m.close()
			return nil, err
		}
		m.stops = append(m.stops, stop)
		if cfg.Journal != nil {
			stop, err := cfg.Journal.Read(journalSubject(cfg.Group, cfg.Member), m.replay)
			if err != nil {
				m.close()
				return nil, err
			}
			m.stops = append(m.stops, stop)
		}
		ctx, cancel := context.WithTimeout(context.Background(), cfg.Deadline)
		defer cancel()
		if err := t.Flush(ctx); err != nil {
			m.close()
			return nil, err
		}
		m.announce(false)
		m.wg.Add(1)
		go m.heartbeat()
	}
	return m, nil
}

// stats returns the shard's size, priority sum and minimum (size, size, 1
// for a plain shard: sampling in proportion to sizes).
func (m *member) stats() (size int, sum, mn float64) {
	size = m.local.Len()
	if m.prio == nil {
		return size, float64(size), 1
	}
	sum, mn = m.prio.PriorityStats()
	return size, sum, mn
}

func (m *member) announce(leaving bool) {
	m.mu.Lock()
	size, sum, mn := m.stats()
	m.mu.Unlock()
	msg := make([]byte, 25, 25+len(m.cfg.Member))
	if leaving {
		msg[0] = 1
	}
	binary.LittleEndian.PutUint64(msg[1:], uint64(size))
	binary.LittleEndian.PutUint64(msg[9:], math.Float64bits(sum))
	binary.LittleEndian.PutUint64(msg[17:], math.Float64bits(mn))
	m.t.Publish("gorl."+m.cfg.Group+".buf.hb", append(msg, m.cfg.Member...))
}

func (m *member) heartbeat() {
	defer m.wg.Done()
	tick := time.NewTicker(m.cfg.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-m.quit:
			return
		case <-tick.C:
			m.announce(false)
		}
	}
}

// heard records an announcement.
func (m *member) heard(msg []byte) {
	if len(msg) < 26 {
		return
	}
	name := string(msg[25:])
	if name == m.cfg.Member {
		return
	}
	m.pmu.Lock()
	defer m.pmu.Unlock()
	if msg[0] == 1 {
		delete(m.peers, name)
		return
	}
	m.peers[name] = &peer{
		size: int(binary.LittleEndian.Uint64(msg[1:])),
		sum:  math.Float64frombits(binary.LittleEndian.Uint64(msg[9:])),
		min:  math.Float64frombits(binary.LittleEndian.Uint64(msg[17:])),
		seen: time.Now(),
	}
}

// live returns the members other than this one heard of recently, in
// sorted order, with their figures.
func (m *member) live() ([]string, []peer) {
	m.pmu.Lock()
	defer m.pmu.Unlock()
	gone := time.Now().Add(-expireBeats * m.cfg.Heartbeat)
	names := make([]string, 0, len(m.peers))
	for name, p := range m.peers {
		if p.seen.Before(gone) {
			delete(m.peers, name)
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	ps := make([]peer, len(names))
	for i, name := range names {
		ps[i] = *m.peers[name]
	}
	return names, ps
}

// Members returns the names of the live members with data, this one
// included when it has a shard, sorted.
func (m *member) Members() []string {
	names, _ := m.live()
	if m.local != nil {
		names = append(names, m.cfg.Member)
		slices.Sort(names)
	}
	return names
}

// Len returns the number of transitions across the live members.
func (m *member) Len() int {
	_, ps := m.live()
	n := 0
	for _, p := range ps {
		n += p.size
	}
	if m.local != nil {
		m.mu.Lock()
		n += m.local.Len()
		m.mu.Unlock()
	}
	return n
}

// add stores data in the local shard and sets the new slots' priorities
// (prios nil: the largest given so far) and generations.
func (m *member) add(data *batch.Batch, prios []float64) ([]Handle, error) {
	if m.local == nil {
		return nil, fmt.Errorf("%w: member %s holds no shard", ErrDistributed, m.cfg.Member)
	}
	n, err := data.Len()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDistributed, err)
	}
	if prios != nil && len(prios) != n {
		return nil, fmt.Errorf("%w: %d priorities for %d transitions", ErrDistributed, len(prios), n)
	}
	if m.cfg.Journal != nil {
		return nil, m.publish(data, prios)
	}
	return m.addLocal(data, prios, n)
}

// addLocal stores n transitions in the local shard.
func (m *member) addLocal(data *batch.Batch, prios []float64, n int) ([]Handle, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ids = slices.Grow(m.ids[:0], n)[:n] // all 0: the shard's one buffer
	steps, err := m.local.Add(data, m.ids, m.steps[:0])
	m.steps = steps
	if err != nil {
		return nil, err
	}
	m.idx = slices.Grow(m.idx[:0], len(steps))[:len(steps)]
	for k, s := range steps {
		m.gens[s.Index]++
		m.idx[k] = s.Index
	}
	if m.prio == nil {
		return nil, nil // a plain buffer's Add returns no handles
	}
	if prios != nil {
		if err := m.prio.UpdateWeight(m.idx, prios); err != nil {
			return nil, err
		}
	}
	hs := make([]Handle, len(steps))
	for k, i := range m.idx {
		hs[k] = Handle{Member: m.cfg.Member, Index: i, Gen: m.gens[i]}
	}
	return hs, nil
}

// shard is one member's answer to a sample request.
type shard struct {
	name     string
	size     int
	sum, min float64
	idx      []int
	gens     []uint64
	leaves   []float64
	b        *batch.Batch
}

const (
	replyOK  = 0
	replyErr = 1
)

// takeLocal samples n transitions of the local shard by method with a
// source seeded by seed.
func (m *member) takeLocal(n int, seed uint64, method Method) (*shard, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	size, sum, mn := m.stats()
	sh := &shard{name: m.cfg.Member, size: size, sum: sum, min: mn}
	if n == 0 || size == 0 {
		return sh, nil
	}
	rng := rand.New(rand.NewPCG(seed, nameHash(m.cfg.Member)))
	switch method {
	case sampleShard:
		sh.idx = m.local.SampleIndices(n, rng)
	case SampleRandom:
		all := m.local.SampleIndices(0, rng)
		sh.idx = make([]int, n)
		for k := range sh.idx {
			sh.idx[k] = all[rng.IntN(len(all))]
		}
	case SampleRandomUnique:
		all := m.local.SampleIndices(0, rng)
		perm := rng.Perm(len(all))[:min(n, len(all))]
		sh.idx = make([]int, len(perm))
		for k, p := range perm {
			sh.idx[k] = all[p]
		}
	case SampleAll:
		sh.idx = m.local.SampleIndices(0, rng)
	default:
		return nil, fmt.Errorf("%w: sample method %d", ErrDistributed, method)
	}
	if len(sh.idx) == 0 {
		return sh, nil
	}
	b := &batch.Batch{}
	if err := m.local.TakeTo(b, sh.idx); err != nil {
		return nil, err
	}
	b.Delete(batch.KeyWeight)
	sh.b = b
	sh.gens = make([]uint64, len(sh.idx))
	for k, i := range sh.idx {
		sh.gens[k] = m.gens[i]
	}
	if m.prio != nil {
		sh.leaves = make([]float64, len(sh.idx))
		m.prio.PriorityTo(sh.leaves, sh.idx)
	}
	return sh, nil
}

func nameHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// serveSample answers a request: n (uint32), seed (uint64), method (u8).
func (m *member) serveSample(req []byte, reply func([]byte) error) {
	if len(req) != 13 {
		reply(append([]byte{replyErr}, "malformed sample request"...))
		return
	}
	n := int(binary.LittleEndian.Uint32(req))
	sh, err := m.takeLocal(n, binary.LittleEndian.Uint64(req[4:]), Method(req[12]))
	if err != nil {
		reply(append([]byte{replyErr}, err.Error()...))
		return
	}
	out, err := encodeShard(sh)
	if err != nil {
		reply(append([]byte{replyErr}, err.Error()...))
		return
	}
	reply(out)
}

func encodeShard(sh *shard) ([]byte, error) {
	k := len(sh.idx)
	out := make([]byte, 1+8+8+8+4, 29+k*24)
	out[0] = replyOK
	binary.LittleEndian.PutUint64(out[1:], uint64(sh.size))
	binary.LittleEndian.PutUint64(out[9:], math.Float64bits(sh.sum))
	binary.LittleEndian.PutUint64(out[17:], math.Float64bits(sh.min))
	binary.LittleEndian.PutUint32(out[25:], uint32(k))
	for i := range k {
		out = binary.LittleEndian.AppendUint64(out, uint64(sh.idx[i]))
		out = binary.LittleEndian.AppendUint64(out, sh.gens[i])
		leaf := 1.0
		if sh.leaves != nil {
			leaf = sh.leaves[i]
		}
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(leaf))
	}
	if k > 0 {
		b, err := sh.b.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

func decodeShard(name string, p []byte, prioritized bool) (*shard, error) {
	if len(p) >= 1 && p[0] == replyErr {
		return nil, fmt.Errorf("%w: member %s: %s", ErrDistributed, name, p[1:])
	}
	if len(p) < 29 || p[0] != replyOK {
		return nil, fmt.Errorf("%w: member %s: malformed reply", ErrDistributed, name)
	}
	sh := &shard{
		name: name,
		size: int(binary.LittleEndian.Uint64(p[1:])),
		sum:  math.Float64frombits(binary.LittleEndian.Uint64(p[9:])),
		min:  math.Float64frombits(binary.LittleEndian.Uint64(p[17:])),
	}
	k := int(binary.LittleEndian.Uint32(p[25:]))
	p = p[29:]
	if k > len(p)/24 {
		return nil, fmt.Errorf("%w: member %s: reply too short for %d rows", ErrDistributed, name, k)
	}
	if k == 0 {
		return sh, nil
	}
	sh.idx, sh.gens = make([]int, k), make([]uint64, k)
	if prioritized {
		sh.leaves = make([]float64, k)
	}
	for i := range k {
		sh.idx[i] = int(binary.LittleEndian.Uint64(p))
		sh.gens[i] = binary.LittleEndian.Uint64(p[8:])
		if prioritized {
			sh.leaves[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[16:]))
		}
		p = p[24:]
	}
	sh.b = &batch.Batch{}
	if err := sh.b.UnmarshalBinary(p); err != nil {
		return nil, fmt.Errorf("%w: member %s: %v", ErrDistributed, name, err)
	}
	if got, err := sh.b.Len(); err != nil || got != k {
		return nil, fmt.Errorf("%w: member %s: %d rows announced, batch of %d", ErrDistributed, name, k, got)
	}
	return sh, nil
}

// split draws how many of n transitions each weight's member gives: a
// multinomial draw in proportion to weights.
func split(n int, weights []float64, rng *rand.Rand) []int {
	counts := make([]int, len(weights))
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if total <= 0 {
		return counts
	}
	for range n {
		x := rng.Float64() * total
		k := 0
		for k < len(weights)-1 && x >= weights[k] {
			x -= weights[k]
			k++
		}
		for weights[k] <= 0 && k > 0 {
			k--
		}
		counts[k]++
	}
	return counts
}

// splitUnique draws how many of min(n, Σ sizes) distinct transitions each
// member gives, as drawing them one by one without replacement from the
// union would.
func splitUnique(n int, sizes []int, rng *rand.Rand) []int {
	left := slices.Clone(sizes)
	total := 0
	for _, s := range sizes {
		total += s
	}
	counts := make([]int, len(sizes))
	for n = min(n, total); n > 0; n-- {
		x := rng.IntN(total)
		k := 0
		for x >= left[k] {
			x -= left[k]
			k++
		}
		counts[k]++
		left[k]--
		total--
	}
	return counts
}

// sample gathers n transitions from the live members by method.
func (m *member) sample(ctx context.Context, n int, method Method, rng *rand.Rand) (*Sample, error) {
	if n <= 0 && method != SampleAll {
		return nil, fmt.Errorf("%w: sample of %d transitions", ErrDistributed, n)
	}
	if rng == nil {
		return nil, fmt.Errorf("%w: nil random source", ErrDistributed)
	}
	names, ps := m.live()
	var weights []float64
	var sizes []int
	for _, p := range ps {
		weights = append(weights, p.sum)
		sizes = append(sizes, p.size)
	}
	if m.local != nil {
		m.mu.Lock()
		size, sum, _ := m.stats()
		m.mu.Unlock()
		names = append(names, m.cfg.Member)
		weights = append(weights, sum)
		sizes = append(sizes, size)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: group %s has no live member with data", ErrDistributed, m.cfg.Group)
	}
	var counts []int
	switch method {
	case SampleRandomUnique:
		counts = splitUnique(n, sizes, rng)
	case SampleAll:
		counts = sizes // each member answers with all it holds
	case SampleRandom:
		w := make([]float64, len(sizes))
		for i, s := range sizes {
			w[i] = float64(s)
		}
		counts = split(n, w, rng)
	default:
		counts = split(n, weights, rng)
	}
	seeds := make([]uint64, len(names))
	for i := range seeds {
		seeds[i] = rng.Uint64()
	}
	shards, missing := m.gather(ctx, names, counts, seeds, method)
	got := 0
	for _, sh := range shards {
		got += len(sh.idx)
	}
	// Distinct draws and whole shards cannot be topped up from the members
	// that answered without repeating what they gave.
	if got < n && len(shards) > 0 && (method == sampleShard || method == SampleRandom) {
		// Draw the missing members' share (and any shortfall) again from
		// the members that answered, in proportion to their figures now.
		var rn []string
		var rw []float64
		for _, sh := range shards {
			if sh.size > 0 {
				rn = append(rn, sh.name)
				rw = append(rw, sh.sum)
			}
		}
		rc := split(n-got, rw, rng)
		rs := make([]uint64, len(rn))
		for i := range rs {
			rs[i] = rng.Uint64()
		}
		more, miss2 := m.gather(ctx, rn, rc, rs, method)
		shards = append(shards, more...)
		missing = append(missing, miss2...)
	}
	return m.assemble(shards, missing, n)
}

// gather asks each named member for its count in parallel.
func (m *member) gather(ctx context.Context, names []string, counts []int, seeds []uint64, method Method) ([]*shard, []string) {
	out := make([]*shard, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		if counts[i] == 0 {
			continue
		}
		if name == m.cfg.Member && m.local != nil {
			out[i], errs[i] = m.takeLocal(counts[i], seeds[i], method)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cancel := context.WithTimeout(ctx, m.cfg.Deadline)
			defer cancel()
			req := make([]byte, 13)
			binary.LittleEndian.PutUint32(req, uint32(counts[i]))
			binary.LittleEndian.PutUint64(req[4:], seeds[i])
			req[12] = byte(method)
			p, err := m.t.Request(c, subject(m.cfg.Group, name, "sample"), req)
			if err != nil {
				errs[i] = err
				return
			}
			out[i], errs[i] = decodeShard(name, p, m.wantPrio)
		}()
	}
	wg.Wait()
	var shards []*shard
	var missing []string
	for i, sh := range out {
		if counts[i] == 0 {
			continue
		}
		if errs[i] != nil || sh == nil {
			missing = append(missing, names[i])
			m.pmu.Lock()
			delete(m.peers, names[i])
			m.pmu.Unlock()
			continue
		}
		shards = append(shards, sh)
		if sh.name != m.cfg.Member {
			m.pmu.Lock()
			if p := m.peers[sh.name]; p != nil {
				p.size, p.sum, p.min = sh.size, sh.sum, sh.min
			}
			m.pmu.Unlock()
		}
	}
	return shards, missing
}

// assemble concatenates the shards' batches and, prioritized, computes the
// importance weights with the global minimum.
func (m *member) assemble(shards []*shard, missing []string, n int) (*Sample, error) {
	var bs []*batch.Batch
	s := &Sample{Missing: missing}
	var leaves []float64
	for _, sh := range shards {
		if sh.b == nil {
			continue
		}
		bs = append(bs, sh.b)
		for k, i := range sh.idx {
			s.Handles = append(s.Handles, Handle{Member: sh.name, Index: i, Gen: sh.gens[k]})
		}
		leaves = append(leaves, sh.leaves...)
	}
	if len(bs) == 0 {
		return nil, fmt.Errorf("%w: no member of group %s returned data (missing: %v)", ErrDistributed, m.cfg.Group, missing)
	}
	b, err := batch.Cat(bs...)
	if err != nil {
		return nil, fmt.Errorf("%w: joining the members' transitions: %v", ErrDistributed, err)
	}
	s.Batch = b
	if m.wantPrio {
		lo := m.globalMin(shards)
		w := make([]float32, len(leaves))
		for k, leaf := range leaves {
			w[k] = float32(math.Exp(-m.beta * (math.Log(leaf) - math.Log(lo))))
		}
		if err := b.Set(batch.KeyWeight, w); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// globalMin is the smallest priority^α across the live members.
func (m *member) globalMin(shards []*shard) float64 {
	lo := math.Inf(1)
	for _, sh := range shards {
		if sh.size > 0 {
			lo = min(lo, sh.min)
		}
	}
	_, ps := m.live()
	for _, p := range ps {
		if p.size > 0 {
			lo = min(lo, p.min)
		}
	}
	return lo
}

// updatePriority routes new priorities to the members holding the
// transitions.
func (m *member) updatePriority(hs []Handle, prios []float64) error {
	if len(hs) != len(prios) {
		return fmt.Errorf("%w: %d handles and %d priorities", ErrDistributed, len(hs), len(prios))
	}
	for _, x := range prios {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: priority %g is not finite", ErrDistributed, x)
		}
	}
	by := map[string][]byte{}
	var order []string
	for k, h := range hs {
		msg, ok := by[h.Member]
		if !ok {
			order = append(order, h.Member)
		}
		msg = binary.LittleEndian.AppendUint64(msg, uint64(h.Index))
		msg = binary.LittleEndian.AppendUint64(msg, h.Gen)
		msg = binary.LittleEndian.AppendUint64(msg, math.Float64bits(prios[k]))
		by[h.Member] = msg
	}
	for _, name := range order {
		if name == m.cfg.Member && m.local != nil {
			m.servePriority(by[name])
			continue
		}
		if err := m.t.Publish(subject(m.cfg.Group, name, "prio"), by[name]); err != nil {
			return err
		}
	}
	return nil
}

// servePriority applies an update: (index, generation, priority) triples;
// a slot rewritten since its handle was taken keeps its priority.
func (m *member) servePriority(msg []byte) {
	if m.prio == nil || len(msg)%24 != 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var idx []int
	var ps []float64
	for ; len(msg) > 0; msg = msg[24:] {
		i := int(binary.LittleEndian.Uint64(msg))
		g := binary.LittleEndian.Uint64(msg[8:])
		if i < 0 || i >= len(m.gens) || m.gens[i] != g {
			continue
		}
		idx = append(idx, i)
		ps = append(ps, math.Float64frombits(binary.LittleEndian.Uint64(msg[16:])))
	}
	if len(idx) > 0 {
		m.prio.UpdateWeight(idx, ps)
	}
}

func (m *member) close() error {
	select {
	case <-m.quit:
		return nil
	default:
	}
	close(m.quit)
	m.wg.Wait()
	var errs []error
	for _, stop := range slices.Backward(m.stops) {
		errs = append(errs, stop())
	}
	if m.local != nil {
		m.announce(true)
	}
	return errors.Join(errs...)
}
