package actorcritic

import "fmt"

// Chunks cuts an on-policy collection, its rows in time order as
// buffer.SampleIndices lists them, into the fixed-length sequences a
// recurrent network learns from. A chunk never crosses an episode boundary:
// a new chunk starts at row 0, where a row's transition is not the one the
// buffer holds after the previous row's in its episode (the previous ended
// an episode, by termination or truncation, or was the newest step of its
// sub-buffer, or the rows belong to other envs' sub-buffers), and after
// Length rows of one chunk. The hidden state at a chunk's start is
// therefore either zero (an episode's first step) or the state stored at
// collection for that row; no gradient flows from one chunk into another.
//
// The zero Chunks is ready to use; Split reuses its memory.
type Chunks struct {
	// Start and Len are the first row and the number of rows of each
	// chunk, in row order; Len is in [1, Length].
	Start, Len []int
}

// Split sets c to the chunks of the rows whose transitions sit at the
// buffer indices indices, with at most length rows each; next holds the
// buffer's next index of each (buffer.Buffer.NextTo: the index itself at
// an episode's end or at the newest step of an unfinished one). It panics
// if length < 1 or next and indices differ in length.
func (c *Chunks) Split(indices, next []int, length int) {
	if length < 1 || len(next) != len(indices) {
		panic(fmt.Sprintf("actorcritic: Chunks.Split: length %d, %d indices, %d next indices", length, len(indices), len(next)))
	}
	c.Start, c.Len = c.Start[:0], c.Len[:0]
	for i := range indices {
		k := len(c.Len) - 1
		if i == 0 || next[i-1] == indices[i-1] || next[i-1] != indices[i] || c.Len[k] == length {
			c.Start, c.Len = append(c.Start, i), append(c.Len, 1)
			continue
		}
		c.Len[k]++
	}
}

// Count returns the number of chunks.
func (c *Chunks) Count() int { return len(c.Start) }

// Packed lays out a minibatch of chunks for a recurrent network stepped
// through time, PyTorch's packed sequences: the chunks ordered longest
// first, so that at step t the chunks still running are the first Steps[t]
// of Order, and the rows fed at step t follow those of the earlier steps in
// Rows. A network steps its hidden state [m, h] (the state of chunk
// Order[j] in row j), keeps its first Steps[t] rows at step t, and gathers
// its outputs in the order of Rows: every valid step once and no padding,
// so the losses need no mask.
//
// The zero Packed is ready to use; Pack reuses its memory.
type Packed struct {
	// Order lists the chunks, longest first (ties in the given order).
	Order []int
	// Starts holds the first row of each chunk of Order.
	Starts []int
	// Steps[t] is the number of chunks longer than t.
	Steps []int
	// Rows lists the rows, step after step: for each t, Starts[j] + t for
	// j < Steps[t].
	Rows []int
}

// Pack lays out the chunks sel (indices into c) in p. It panics if sel is
// empty or holds an index out of range.
func (p *Packed) Pack(c *Chunks, sel []int) {
	if len(sel) == 0 {
		panic("actorcritic: Packed.Pack of no chunk")
	}
	p.Order = append(p.Order[:0], sel...)
	// Insertion sort, longest first and stable: minibatches hold few
	// chunks, and it allocates nothing.
	for i := 1; i < len(p.Order); i++ {
		for j := i; j > 0 && c.Len[p.Order[j]] > c.Len[p.Order[j-1]]; j-- {
			p.Order[j], p.Order[j-1] = p.Order[j-1], p.Order[j]
		}
	}
	p.Starts = p.Starts[:0]
	for _, k := range p.Order {
		p.Starts = append(p.Starts, c.Start[k])
	}
	p.Steps, p.Rows = p.Steps[:0], p.Rows[:0]
	for t := 0; t < c.Len[p.Order[0]]; t++ {
		n := 0
		for n < len(p.Order) && c.Len[p.Order[n]] > t {
			p.Rows = append(p.Rows, p.Starts[n]+t)
			n++
		}
		p.Steps = append(p.Steps, n)
	}
}

// PaddedRows returns dst (grown as needed) holding the rows of the padded
// time-major layout [T, m] for T ≥ len(Steps) steps and the m chunks of
// Order: row j of step t is Starts[j] + t while chunk Order[j] runs, and
// Starts[j] (a placeholder that MaskTo masks) after its end. A network run
// on it takes the same shapes for every minibatch of m chunks. It panics if
// T < len(Steps).
func (p *Packed) PaddedRows(dst []int, T int) []int {
	if T < len(p.Steps) {
		panic(fmt.Sprintf("actorcritic: Packed.PaddedRows: %d steps for chunks of %d", T, len(p.Steps)))
	}
	dst = dst[:0]
	for t := range T {
		for j, s := range p.Starts {
			if t < len(p.Steps) && j < p.Steps[t] {
				dst = append(dst, s+t)
			} else {
				dst = append(dst, s)
			}
		}
	}
	return dst
}

// MaskTo writes into dst, of T·len(Order) values in the padded time-major
// layout of PaddedRows, 1 for the steps a chunk has and 0 for the padding
// past its end. It panics if dst's length is not a multiple of len(Order)
// at least len(Steps)·len(Order).
func (p *Packed) MaskTo(dst []float32) {
	m := len(p.Order)
	if len(dst)%m != 0 || len(dst) < len(p.Steps)*m {
		panic(fmt.Sprintf("actorcritic: Packed.MaskTo: %d values for %d steps of %d chunks", len(dst), len(p.Steps), m))
	}
	for i := range dst {
		t, j := i/m, i%m
		dst[i] = 0
		if t < len(p.Steps) && j < p.Steps[t] {
			dst[i] = 1
		}
	}
}
