package distributed

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gorl/gorl/batch"
)

// Journal is a durable log of adds, one subject per member: what
// Config.Journal needs. cluster.Stream, over a replicated JetStream
// stream, is one.
type Journal interface {
	// Publish stores data under subject without waiting and calls done
	// once it is stored (nil) or given up (an error). It returns an error,
	// storing nothing, when too many publications wait.
	Publish(subject string, data []byte, done func(error)) error
	// Read calls f with every stored message of subject, oldest first,
	// then with each new one, until stop is called.
	Read(subject string, f func(data []byte)) (stop func() error, err error)
}

// JournalSubjects returns the subjects a journal stream must hold for the
// members of group.
func JournalSubjects(group string) []string { return []string{"gorl." + group + ".add.>"} }

func journalSubject(group, member string) string { return "gorl." + group + ".add." + member }

// A journal record is the number of priorities k (uint32; 0: none given),
// k float64 priorities and the Batch's binary form.

// publish sends data and prios to the member's journal subject.
func (m *member) publish(data *batch.Batch, prios []float64) error {
	body, err := data.MarshalBinary()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDistributed, err)
	}
	rec := make([]byte, 4, 4+8*len(prios)+len(body))
	binary.LittleEndian.PutUint32(rec, uint32(len(prios)))
	for _, p := range prios {
		rec = binary.LittleEndian.AppendUint64(rec, math.Float64bits(p))
	}
	rec = append(rec, body...)
	var done func(error)
	if f := m.cfg.Acked; f != nil {
		done = func(err error) { f(data, err) }
	}
	if err := m.cfg.Journal.Publish(journalSubject(m.cfg.Group, m.cfg.Member), rec, done); err != nil {
		return fmt.Errorf("%w: member %s: %w", ErrDistributed, m.cfg.Member, err)
	}
	return nil
}

// replay stores a journal record in the local shard. A record that does not
// decode or fit the shard can no longer be refused to its sender: it is
// counted and skipped (Skipped reports it).
func (m *member) replay(rec []byte) {
	if err := m.replayRecord(rec); err != nil {
		m.jmu.Lock()
		m.skipped++
		m.skipErr = err
		m.jmu.Unlock()
	}
}

// skippedRecords returns the number of journal records skipped and the
// last one's error.
func (m *member) skippedRecords() (int, error) {
	m.jmu.Lock()
	defer m.jmu.Unlock()
	return m.skipped, m.skipErr
}

func (m *member) replayRecord(rec []byte) error {
	if len(rec) < 4 {
		return fmt.Errorf("%w: journal record of %d bytes", ErrDistributed, len(rec))
	}
	k := int(binary.LittleEndian.Uint32(rec))
	rec = rec[4:]
	if k > len(rec)/8 {
		return fmt.Errorf("%w: journal record too short for %d priorities", ErrDistributed, k)
	}
	var prios []float64
	if k > 0 {
		prios = make([]float64, k)
		for i := range prios {
			prios[i] = math.Float64frombits(binary.LittleEndian.Uint64(rec[8*i:]))
		}
	}
	data := &batch.Batch{}
	if err := data.UnmarshalBinary(rec[8*k:]); err != nil {
		return fmt.Errorf("%w: journal record: %v", ErrDistributed, err)
	}
	n, err := data.Len()
	if err != nil {
		return fmt.Errorf("%w: journal record: %v", ErrDistributed, err)
	}
	if prios != nil && len(prios) != n {
		return fmt.Errorf("%w: journal record: %d priorities for %d transitions", ErrDistributed, len(prios), n)
	}
	_, err = m.addLocal(data, prios, n)
	return err
}
