package algo

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/gorl/gorl/nn"
)

// Part is one named piece of a saved state: a network, an optimizer,
// counters, a random source. SaveParts writes a list of parts and LoadParts
// reads them back into the same list.
type Part struct {
	// Name identifies the part in the file; at most 255 bytes, not empty.
	Name string
	// Save writes the part's state.
	Save func(w io.Writer) error
	// Load restores the part from what Save wrote; r holds exactly those
	// bytes, already checked against their checksum.
	Load func(r io.Reader) error
}

// ParamsPart is the Part of a network's parameters, saved with nn.Save (the
// safetensors format) and loaded with nn.Load.
func ParamsPart(name string, ps nn.Params) Part {
	return Part{
		Name: name,
		Save: func(w io.Writer) error { return nn.Save(w, ps, nil) },
		Load: func(r io.Reader) error { _, err := nn.Load(r, ps); return err },
	}
}

// BinaryState is a value that saves and restores itself as bytes, such as
// math/rand/v2's *PCG and *ChaCha8 sources.
type BinaryState interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// BinaryPart is the Part of a value that marshals itself, such as a
// random source (*rand.PCG).
func BinaryPart(name string, v BinaryState) Part {
	return Part{
		Name: name,
		Save: func(w io.Writer) error {
			b, err := v.MarshalBinary()
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		},
		Load: func(r io.Reader) error {
			b, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			return v.UnmarshalBinary(b)
		},
	}
}

// JSONPart is the Part of a value saved as JSON (counters, schedules'
// positions): v must be a pointer, which Load decodes into, rejecting
// unknown fields.
func JSONPart(name string, v any) Part {
	return Part{
		Name: name,
		Save: func(w io.Writer) error { return json.NewEncoder(w).Encode(v) },
		Load: func(r io.Reader) error {
			d := json.NewDecoder(r)
			d.DisallowUnknownFields()
			if err := d.Decode(v); err != nil {
				return err
			}
			if d.More() {
				return errors.New("data after the JSON value")
			}
			return nil
		},
	}
}

// stateMagic starts every file SaveParts writes.
const (
	stateMagic   = "GRLS"
	stateVersion = 1
	maxChunk     = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// SaveParts writes parts to w in this format (uvarint is encoding/binary's
// variable-length integer):
//
//	file  = "GRLS" version:u8(=1) part* 0x00
//	part  = 0x01 nameLen:uvarint name chunk* 0x00 crc:u32le
//	chunk = len:uvarint(1…2²⁰) bytes
//
// where crc is the CRC-32C (Castagnoli) of the part's bytes. Each part's Save
// streams into chunks, so a large part (a replay buffer) is not held in
// memory twice. SaveParts returns the first error of a part, wrapped with
// its name, or of w.
func SaveParts(w io.Writer, parts ...Part) error {
	for _, p := range parts {
		if p.Name == "" || len(p.Name) > 255 {
			return fmt.Errorf("algo: part name %q: want 1 to 255 bytes", p.Name)
		}
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(stateMagic)
	bw.WriteByte(stateVersion)
	for _, p := range parts {
		bw.WriteByte(1)
		bw.Write(binary.AppendUvarint(nil, uint64(len(p.Name))))
		bw.WriteString(p.Name)
		cw := &chunkWriter{w: bw}
		if err := p.Save(cw); err != nil {
			return fmt.Errorf("algo: save %s: %w", p.Name, err)
		}
		if err := cw.flush(); err != nil {
			return fmt.Errorf("algo: save %s: %w", p.Name, err)
		}
		bw.WriteByte(0)
		bw.Write(binary.LittleEndian.AppendUint32(nil, cw.crc))
	}
	bw.WriteByte(0)
	return bw.Flush()
}

// chunkWriter frames what a part writes into chunks of at most maxChunk
// bytes and computes their CRC.
type chunkWriter struct {
	w   *bufio.Writer
	buf []byte
	crc uint32
	err error
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if c.err != nil {
			return 0, c.err
		}
		room := maxChunk - len(c.buf)
		take := min(room, len(p))
		c.buf = append(c.buf, p[:take]...)
		p = p[take:]
		if len(c.buf) == maxChunk {
			c.err = c.flush()
		}
	}
	return n, c.err
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return c.err
	}
	c.crc = crc32.Update(c.crc, castagnoli, c.buf)
	c.w.Write(binary.AppendUvarint(nil, uint64(len(c.buf))))
	_, err := c.w.Write(c.buf)
	c.buf = c.buf[:0]
	return err
}

// LoadParts reads a file written by SaveParts with the same part names in
// the same order and calls each part's Load with its bytes, after checking
// their checksum. It returns an error wrapping ErrState, naming the part,
// for a truncated or corrupt file, a file of another version, parts that
// are missing, extra or out of order, and a Load that fails or leaves
// bytes unread; errors of r are returned wrapped. Parts loaded before the
// failing one stay loaded.
//
// Memory grows with the bytes actually read, never with a length the file
// claims: chunks are at most 1 MiB.
func LoadParts(r io.Reader, parts ...Part) error {
	br := bufio.NewReader(r)
	head := make([]byte, len(stateMagic)+1)
	if _, err := io.ReadFull(br, head); err != nil {
		return stateErr("", "header", err)
	}
	if string(head[:len(stateMagic)]) != stateMagic {
		return stateErr("", fmt.Sprintf("not a saved state (starts with %q)", head[:len(stateMagic)]), nil)
	}
	if head[len(stateMagic)] != stateVersion {
		return stateErr("", fmt.Sprintf("version %d, want %d", head[len(stateMagic)], stateVersion), nil)
	}
	var data bytes.Buffer
	for _, p := range parts {
		tag, err := br.ReadByte()
		if err != nil {
			return stateErr(p.Name, "missing", err)
		}
		if tag != 1 {
			return stateErr(p.Name, "missing (the file ends)", nil)
		}
		n, err := binary.ReadUvarint(br)
		if err != nil || n == 0 || n > 255 {
			return stateErr(p.Name, "bad name length", err)
		}
		name := make([]byte, n)
		if _, err := io.ReadFull(br, name); err != nil {
			return stateErr(p.Name, "name", err)
		}
		if string(name) != p.Name {
			return stateErr(p.Name, fmt.Sprintf("found part %q instead", name), nil)
		}
		data.Reset()
		var crc uint32
		for {
			n, err := binary.ReadUvarint(br)
			if err != nil {
				return stateErr(p.Name, "chunk length", err)
			}
			if n == 0 {
				break
			}
			if n > maxChunk {
				return stateErr(p.Name, fmt.Sprintf("chunk of %d bytes", n), nil)
			}
			start := data.Len()
			if _, err := io.CopyN(&data, br, int64(n)); err != nil {
				return stateErr(p.Name, "chunk", err)
			}
			crc = crc32.Update(crc, castagnoli, data.Bytes()[start:])
		}
		var sum [4]byte
		if _, err := io.ReadFull(br, sum[:]); err != nil {
			return stateErr(p.Name, "checksum", err)
		}
		if binary.LittleEndian.Uint32(sum[:]) != crc {
			return stateErr(p.Name, "checksum mismatch", nil)
		}
		rd := bytes.NewReader(data.Bytes())
		if err := p.Load(rd); err != nil {
			return stateErr(p.Name, "load", err)
		}
		if rd.Len() != 0 {
			return stateErr(p.Name, fmt.Sprintf("%d bytes left unread", rd.Len()), nil)
		}
	}
	tag, err := br.ReadByte()
	if err != nil {
		return stateErr("", "end mark", err)
	}
	if tag != 0 {
		return stateErr("", "more parts than expected", nil)
	}
	return nil
}

func stateErr(part, msg string, err error) error {
	if part != "" {
		msg = part + ": " + msg
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		if errors.Is(err, ErrState) {
			// A nested state (an algorithm's parts inside a checkpoint's)
			// names the outer part without repeating ErrState's words.
			return &nestedStateError{msg: msg, err: err}
		}
		return fmt.Errorf("%w: %s: %w", ErrState, msg, err)
	}
	return fmt.Errorf("%w: %s", ErrState, msg)
}

// nestedStateError is the error of a part whose own state is bad: it reads
// "algo: bad saved state: outer: inner…" and wraps the inner error (and so
// ErrState).
type nestedStateError struct {
	msg string
	err error
}

func (e *nestedStateError) Error() string {
	return ErrState.Error() + ": " + e.msg + ": " + strings.TrimPrefix(e.err.Error(), ErrState.Error()+": ")
}

func (e *nestedStateError) Unwrap() error { return e.err }
