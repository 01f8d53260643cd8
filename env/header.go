package env

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
)

// EpisodeState is the start of the saved state of an env that draws from
// its own random source and tracks where it is in an episode (the
// classic-control and MuJoCo envs):
//
//	tag     the env's kind, format version and id, as given
//	flags   one byte: 1 seeded, 2 has a state, 4 episode running
//	source  uvarint length + the PCG source's MarshalBinary
//
// The env's own fields follow.
type EpisodeState struct {
	// Seeded, HasState and Running are the env's flags: it was reset
	// with a seed, it holds a physical state, an episode is running
	// (which needs a state).
	Seeded, HasState, Running bool
	// Source is the env's random source.
	Source rand.PCG
}

const (
	flagSeeded = 1 << iota
	flagHasState
	flagRunning
)

// AppendEpisodeState appends tag and h to b.
func AppendEpisodeState(b []byte, tag string, h *EpisodeState) ([]byte, error) {
	src, err := h.Source.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var flags byte
	for _, f := range []struct {
		set bool
		bit byte
	}{{h.Seeded, flagSeeded}, {h.HasState, flagHasState}, {h.Running, flagRunning}} {
		if f.set {
			flags |= f.bit
		}
	}
	b = append(append(b, tag...), flags)
	b = binary.AppendUvarint(b, uint64(len(src)))
	return append(b, src...), nil
}

// ParseEpisodeState reads what AppendEpisodeState wrote with the same tag
// from the start of data and returns the rest. Its error (not wrapped, for
// the env to name itself and wrap ErrState) says what is wrong: another
// tag, unknown flags, a running episode without a state, or a truncated or
// invalid random source.
func ParseEpisodeState(data []byte, tag string) (EpisodeState, []byte, error) {
	var h EpisodeState
	if len(data) < len(tag)+1 || string(data[:len(tag)]) != tag {
		return h, nil, fmt.Errorf("not a saved state of %q", tag)
	}
	flags := data[len(tag)]
	data = data[len(tag)+1:]
	if flags&^(flagSeeded|flagHasState|flagRunning) != 0 || (flags&flagRunning != 0 && flags&flagHasState == 0) {
		return h, nil, fmt.Errorf("flags %#x", flags)
	}
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return h, nil, fmt.Errorf("truncated random source")
	}
	if err := h.Source.UnmarshalBinary(data[k : k+int(n)]); err != nil {
		return h, nil, err
	}
	h.Seeded, h.HasState, h.Running = flags&flagSeeded != 0, flags&flagHasState != 0, flags&flagRunning != 0
	return h, data[k+int(n):], nil
}
