package cluster

import (
	"encoding/binary"
	"math"
	"sync/atomic"
)

// Report is what an actor in another process tells the learner after a
// batch of work: the env steps, episodes and unrolls since its last report
// and the return of its newest finished episode. Reports go over core NATS
// and may be lost; a lost report only lowers the learner's counts.
type Report struct {
	Actor                    int
	Steps, Episodes, Unrolls int64
	// LastReturn is the newest episode's return; meaningful when Episodes
	// is above 0.
	LastReturn float64
}

// Status is what a learner tells its actors: its number of updates, the
// env steps reported to it, whether it is waiting for data (actors that
// hold back to keep a ratio of steps to updates then run), and whether the
// run is over (actors then stop).
type Status struct {
	Updates, Steps int64
	Waiting, Done  bool
}

const (
	reportLen = 4 + 3*8 + 8
	statusLen = 2*8 + 1
)

func reportSubject(group string) string { return "gorl." + group + ".report" }
func statusSubject(group string) string { return "gorl." + group + ".status" }

// PublishReport sends r to group's learner without waiting.
func PublishReport(t Transport, group string, r Report) error {
	var b [reportLen]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(r.Actor))
	binary.LittleEndian.PutUint64(b[4:], uint64(r.Steps))
	binary.LittleEndian.PutUint64(b[12:], uint64(r.Episodes))
	binary.LittleEndian.PutUint64(b[20:], uint64(r.Unrolls))
	binary.LittleEndian.PutUint64(b[28:], math.Float64bits(r.LastReturn))
	return t.Publish(reportSubject(group), b[:])
}

// SubscribeReports calls f with every report sent to group, one at a time,
// until stop is called. Malformed messages are skipped.
func SubscribeReports(t Transport, group string, f func(Report)) (stop func() error, err error) {
	return t.Subscribe(reportSubject(group), func(b []byte) {
		if len(b) != reportLen {
			return
		}
		f(Report{
			Actor:      int(binary.LittleEndian.Uint32(b[0:])),
			Steps:      int64(binary.LittleEndian.Uint64(b[4:])),
			Episodes:   int64(binary.LittleEndian.Uint64(b[12:])),
			Unrolls:    int64(binary.LittleEndian.Uint64(b[20:])),
			LastReturn: math.Float64frombits(binary.LittleEndian.Uint64(b[28:])),
		})
	})
}

// PublishStatus sends s to group's actors without waiting.
func PublishStatus(t Transport, group string, s Status) error {
	var b [statusLen]byte
	binary.LittleEndian.PutUint64(b[0:], uint64(s.Updates))
	binary.LittleEndian.PutUint64(b[8:], uint64(s.Steps))
	if s.Waiting {
		b[16] |= 1
	}
	if s.Done {
		b[16] |= 2
	}
	return t.Publish(statusSubject(group), b[:])
}

// StatusFollower keeps the newest Status of a learner.
type StatusFollower struct {
	latest atomic.Pointer[Status]
	stop   func() error
}

// FollowStatus keeps the newest status of group's learner until Close.
func FollowStatus(t Transport, group string) (*StatusFollower, error) {
	f := &StatusFollower{}
	stop, err := t.Subscribe(statusSubject(group), func(b []byte) {
		if len(b) != statusLen {
			return
		}
		f.latest.Store(&Status{
			Updates: int64(binary.LittleEndian.Uint64(b[0:])),
			Steps:   int64(binary.LittleEndian.Uint64(b[8:])),
			Waiting: b[16]&1 != 0,
			Done:    b[16]&2 != 0,
		})
	})
	if err != nil {
		return nil, err
	}
	f.stop = stop
	return f, nil
}

// Latest returns the newest status heard, nil before the first.
func (f *StatusFollower) Latest() *Status { return f.latest.Load() }

// Close stops following.
func (f *StatusFollower) Close() error { return f.stop() }
