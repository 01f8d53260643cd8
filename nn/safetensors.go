package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/gorl/gorl/tensor"
)

// MaxHeaderSize is the largest safetensors header Load accepts, in bytes:
// 100,000,000, the limit of the reference implementation.
const MaxHeaderSize = 100_000_000

// metadataKey is the reserved header entry holding string metadata.
const metadataKey = "__metadata__"

// Save writes ps in the safetensors format: an 8-byte little-endian header
// length n, n bytes of JSON header (padded with spaces to a multiple of 8, so
// the data is aligned) mapping every tensor's name to
// {"dtype":"F32","shape":[…],"data_offsets":[begin,end]} plus "__metadata__"
// holding metadata (if any), then the tensors' float32 values, little-endian,
// one after another in the order of ps. PyTorch reads the file with
// safetensors.torch.load_file, and its state_dict names match the modules'
// parameter names.
//
// Save returns an error wrapping ErrConfig, before writing anything, if a name
// is empty, repeated or "__metadata__", and the writer's error otherwise.
func Save(w io.Writer, ps Params, metadata map[string]string) error {
	seen := make(map[string]bool, len(ps))
	for _, p := range ps {
		if p.Name == "" || p.Name == metadataKey || seen[p.Name] {
			return fmt.Errorf("%w: cannot save a tensor named %q (empty, reserved or repeated)", ErrConfig, p.Name)
		}
		seen[p.Name] = true
	}
	var h bytes.Buffer
	h.WriteByte('{')
	if len(metadata) > 0 {
		m, err := json.Marshal(metadata) // keys sorted
		if err != nil {
			return err
		}
		h.WriteString(`"` + metadataKey + `":`)
		h.Write(m)
	}
	var off int64
	for i, p := range ps {
		if i > 0 || len(metadata) > 0 {
			h.WriteByte(',')
		}
		name, err := json.Marshal(p.Name)
		if err != nil {
			return err
		}
		h.Write(name)
		h.WriteString(`:{"dtype":"F32","shape":[`)
		for j, d := range p.Tensor.Shape() {
			if j > 0 {
				h.WriteByte(',')
			}
			h.WriteString(strconv.Itoa(d))
		}
		end := off + 4*int64(p.Tensor.Len())
		fmt.Fprintf(&h, `],"data_offsets":[%d,%d]}`, off, end)
		off = end
	}
	h.WriteByte('}')
	for h.Len()%8 != 0 {
		h.WriteByte(' ')
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(h.Len()))
	if _, err := w.Write(buf[:]); err != nil {
		return err
	}
	if _, err := w.Write(h.Bytes()); err != nil {
		return err
	}
	chunk := make([]byte, 0, 1<<16)
	for _, p := range ps {
		for _, v := range p.Tensor.Data() {
			if len(chunk) == cap(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return err
				}
				chunk = chunk[:0]
			}
			chunk = binary.LittleEndian.AppendUint32(chunk, math.Float32bits(v))
		}
	}
	_, err := w.Write(chunk)
	return err
}

// entry is one tensor of a safetensors header.
type entry struct {
	name       string
	dtype      string
	shape      []int
	begin, end int64
}

// dtypeSizes lists the dtypes of the safetensors format with their sizes in
// bytes, so that Load can tell an unsupported dtype from an unknown one.
var dtypeSizes = map[string]int{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1,
	"I16": 2, "U16": 2, "F16": 2, "BF16": 2,
	"I32": 4, "U32": 4, "F32": 4,
	"I64": 8, "U64": 8, "F64": 8,
}

// Load reads a safetensors file written by Save or by PyTorch's safetensors
// into the tensors of ps, matched by name, and returns its metadata (nil if it
// has none).
//
// The file must hold exactly the tensors of ps, buffers included, each F32
// with the same shape, as PyTorch's strict load_state_dict requires. Before
// writing any tensor Load checks the whole file: the header length (at most
// MaxHeaderSize and within the file), the JSON (an object starting at the
// header's first byte, optionally followed by whitespace, no name twice), every entry's dtype, shape and data offsets (begin ≤ end, end − begin
// the shape's size in bytes, the entries covering the data section exactly, in
// any order, without overlap or gap), and the data's length. So on error ps is
// unchanged. Load allocates memory in proportion to what it has read and to
// the size of ps, never to a length the file merely claims.
//
// Load returns an error wrapping ErrFormat for a malformed file, ErrMismatch
// for a well-formed file whose tensors do not match ps (naming the first
// missing, unexpected or differently shaped tensor), and the reader's error
// otherwise.
func Load(r io.Reader, ps Params) (map[string]string, error) {
	var buf [8]byte
	if _, err := io.ReadFull(r, buf[:]); err != nil {
		return nil, formatErr("reading the header length: %v", err)
	}
	n := binary.LittleEndian.Uint64(buf[:])
	if n > MaxHeaderSize {
		return nil, formatErr("header length %d exceeds %d", n, MaxHeaderSize)
	}
	header, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil {
		return nil, err
	}
	if uint64(len(header)) < n {
		return nil, formatErr("header of %d bytes truncated at %d", n, len(header))
	}
	meta, entries, err := parseHeader(header)
	if err != nil {
		return nil, err
	}
	total, err := checkOffsets(entries)
	if err != nil {
		return nil, err
	}
	dst, err := matchEntries(entries, ps)
	if err != nil {
		return nil, err
	}
	// total is now the size of ps's tensors in bytes: reading it is justified.
	data := make([]byte, total)
	if k, err := io.ReadFull(r, data); err != nil {
		return nil, formatErr("data section of %d bytes truncated at %d", total, k)
	}
	if k, _ := r.Read(buf[:1]); k != 0 {
		return nil, formatErr("data beyond the %d bytes the header describes", total)
	}
	for i, e := range entries {
		d := dst[i].Data()
		src := data[e.begin:e.end]
		for j := range d {
			d[j] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*j:]))
		}
	}
	return meta, nil
}

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// parseHeader decodes the JSON header: an object whose members are tensor
// entries and at most one "__metadata__" object of strings.
func parseHeader(h []byte) (map[string]string, []entry, error) {
	if len(h) == 0 || h[0] != '{' {
		return nil, nil, formatErr("header does not start with '{'")
	}
	dec := json.NewDecoder(bytes.NewReader(h))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, formatErr("header is not a JSON object")
	}
	var meta map[string]string
	var entries []entry
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, formatErr("header JSON: %v", err)
		}
		name, _ := t.(string) // object keys are always strings
		if seen[name] {
			return nil, nil, formatErr("entry %q appears twice", name)
		}
		seen[name] = true
		if name == metadataKey {
			if err := dec.Decode(&meta); err != nil {
				return nil, nil, formatErr("__metadata__ is not an object of strings: %v", err)
			}
			continue
		}
		var raw struct {
			Dtype       *string  `json:"dtype"`
			Shape       []int64  `json:"shape"`
			DataOffsets []uint64 `json:"data_offsets"`
		}
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, formatErr("entry %q: %v", name, err)
		}
		e, err := checkEntry(name, raw.Dtype, raw.Shape, raw.DataOffsets)
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, e)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, formatErr("header JSON: %v", err)
	}
	if rest := bytes.TrimRight(h[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, nil, formatErr("%d bytes after the header's JSON object", len(rest))
	}
	return meta, entries, nil
}

// checkEntry validates one tensor entry on its own.
func checkEntry(name string, dtype *string, shape []int64, offsets []uint64) (entry, error) {
	if dtype == nil || shape == nil || offsets == nil {
		return entry{}, formatErr("entry %q lacks dtype, shape or data_offsets", name)
	}
	size, ok := dtypeSizes[*dtype]
	if !ok {
		return entry{}, formatErr("entry %q has unknown dtype %q", name, *dtype)
	}
	if len(offsets) != 2 || offsets[0] > offsets[1] || offsets[1] > math.MaxInt64 {
		return entry{}, formatErr("entry %q has data_offsets %v", name, offsets)
	}
	e := entry{name: name, dtype: *dtype, begin: int64(offsets[0]), end: int64(offsets[1])}
	bytes := uint64(size)
	for _, d := range shape {
		if d < 0 || d > math.MaxInt32 {
			return entry{}, formatErr("entry %q has shape %v", name, shape)
		}
		e.shape = append(e.shape, int(d))
		hi, lo := bits.Mul64(bytes, uint64(d))
		if bytes = lo; hi != 0 || lo > math.MaxInt64 {
			return entry{}, formatErr("entry %q of shape %v is too large", name, shape)
		}
	}
	if bytes != offsets[1]-offsets[0] {
		return entry{}, formatErr("entry %q of dtype %s and shape %v spans %d bytes, not %d", name, *dtype, shape, offsets[1]-offsets[0], bytes)
	}
	return e, nil
}

// checkOffsets checks that the entries tile [0, total) without gap or
// overlap, and returns total.
func checkOffsets(entries []entry) (int64, error) {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := entries[a].begin - entries[b].begin; c != 0 {
			return int(max(-1, min(1, c)))
		}
		return int(max(-1, min(1, entries[a].end-entries[b].end)))
	})
	var end int64
	for _, i := range order {
		e := entries[i]
		if e.begin != end {
			kind := "a gap"
			if e.begin < end {
				kind = "an overlap"
			}
			return 0, formatErr("entry %q starts at byte %d, leaving %s after byte %d", e.name, e.begin, kind, end)
		}
		end = e.end
	}
	return end, nil
}

// matchEntries pairs the entries with the tensors of ps, in the entries'
// order.
func matchEntries(entries []entry, ps Params) ([]*tensor.Tensor, error) {
	byName := make(map[string]int, len(ps))
	for i, p := range ps {
		if _, dup := byName[p.Name]; dup {
			return nil, fmt.Errorf("%w: two tensors named %q to load into", ErrConfig, p.Name)
		}
		byName[p.Name] = i
	}
	dst := make([]*tensor.Tensor, len(entries))
	found := make([]bool, len(ps))
	for i, e := range entries {
		k, ok := byName[e.name]
		if !ok {
			return nil, fmt.Errorf("%w: unexpected tensor %q in the file", ErrMismatch, e.name)
		}
		if e.dtype != "F32" {
			return nil, fmt.Errorf("%w: tensor %q has dtype %s, want F32", ErrMismatch, e.name, e.dtype)
		}
		if t := ps[k].Tensor; !sameShape(t.Shape(), e.shape) {
			return nil, fmt.Errorf("%w: tensor %q has shape %v in the file, %v in the model", ErrMismatch, e.name, e.shape, t.Shape())
		}
		found[k] = true
		dst[i] = ps[k].Tensor
	}
	for k, ok := range found {
		if !ok {
			return nil, fmt.Errorf("%w: tensor %q missing from the file", ErrMismatch, ps[k].Name)
		}
	}
	return dst, nil
}
