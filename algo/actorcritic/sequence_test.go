package actorcritic_test

import (
	"slices"
	"testing"

	"github.com/gorl/gorl/algo/actorcritic"
)

// TestChunksSplit checks the chunk boundaries worked out by hand for each
// case: episode ends (next index = the index itself), sub-buffers (the
// newest step of sub-buffer 0 at index 1 ends in itself, and index 2 starts
// sub-buffer 1, adjacent but another env's), the ring's wrap (index 9 is
// followed by 0) and the length limit.
func TestChunksSplit(t *testing.T) {
	cases := []struct {
		name          string
		indices, next []int
		length        int
		start, len    []int
	}{
		{"one episode", []int{0, 1, 2, 3, 4}, []int{1, 2, 3, 4, 4}, 2, []int{0, 2, 4}, []int{2, 2, 1}},
		{"episode ends", []int{0, 1, 2, 3, 4}, []int{1, 1, 3, 4, 4}, 8, []int{0, 2}, []int{2, 3}},
		{"sub-buffers", []int{0, 1, 2, 3}, []int{1, 1, 3, 3}, 8, []int{0, 2}, []int{2, 2}},
		{"ring wrap", []int{8, 9, 0}, []int{9, 0, 0}, 8, []int{0}, []int{3}},
		{"all ends", []int{0, 1, 2}, []int{0, 1, 2}, 4, []int{0, 1, 2}, []int{1, 1, 1}},
	}
	for _, c := range cases {
		var ch actorcritic.Chunks
		ch.Split(c.indices, c.next, c.length)
		if !slices.Equal(ch.Start, c.start) || !slices.Equal(ch.Len, c.len) {
			t.Errorf("%s: starts %v lens %v; want %v %v", c.name, ch.Start, ch.Len, c.start, c.len)
		}
	}
}

// TestChunksNeverCrossEpisodes splits random collections and checks, in the
// packed and in the padded (masked) layouts, that every unmasked step of a
// chunk belongs to the episode of its first step: no row before a chunk's
// last ends an episode, and rows follow each other in the buffer.
func TestChunksNeverCrossEpisodes(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		x := seed * 2654435761
		next := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
		n := 40 + int(next()%60)
		// Rows of sub-buffers of random lengths, one after the other in
		// the index space, with random episode ends.
		done, indices, nexts := make([]bool, n), make([]int, n), make([]int, n)
		for i := range n {
			done[i] = next()%7 == 0
			indices[i] = i
		}
		for i := range n {
			nexts[i] = i + 1
			if done[i] || i == n-1 || next()%23 == 0 { // an end, or a sub-buffer's newest step
				nexts[i] = i
			}
		}
		length := 1 + int(next()%9)
		var ch actorcritic.Chunks
		ch.Split(indices, nexts, length)
		covered := 0
		for k := range ch.Count() {
			s, l := ch.Start[k], ch.Len[k]
			if s != covered || l < 1 || l > length {
				t.Fatalf("seed %d: chunk %d = [%d, +%d) after %d rows covered", seed, k, s, l, covered)
			}
			covered += l
		}
		if covered != n {
			t.Fatalf("seed %d: chunks cover %d of %d rows", seed, covered, n)
		}
		sel := make([]int, ch.Count())
		for i := range sel {
			sel[i] = len(sel) - 1 - i
		}
		var p actorcritic.Packed
		p.Pack(&ch, sel)
		T := len(p.Steps) + int(next()%3) // padded past the longest chunk too
		m := len(p.Order)
		mask := make([]float32, T*m)
		p.MaskTo(mask)
		padded := p.PaddedRows(nil, T)
		for i, row := range padded {
			tt, j := i/m, i%m
			if mask[i] == 1 && row != p.Starts[j]+tt || mask[i] == 0 && row != p.Starts[j] {
				t.Fatalf("seed %d: padded row %d at step %d chunk %d", seed, row, tt, j)
			}
		}
		for tt := len(p.Steps); tt < T; tt++ {
			for j := range m {
				if mask[tt*m+j] != 0 {
					t.Fatalf("seed %d: step %d past every chunk unmasked", seed, tt)
				}
			}
		}
		seen := make([]bool, n)
		pos := 0
		for tt, steps := range p.Steps {
			for j := range m {
				valid := mask[tt*m+j] == 1
				if valid != (j < steps) {
					t.Fatalf("seed %d: mask and Steps disagree at step %d chunk %d", seed, tt, j)
				}
				if !valid {
					continue
				}
				row := p.Rows[pos]
				pos++
				if row != p.Starts[j]+tt || seen[row] {
					t.Fatalf("seed %d: packed row %d at step %d chunk %d", seed, row, tt, j)
				}
				seen[row] = true
				if tt > 0 && nexts[row-1] != indices[row] {
					t.Fatalf("seed %d: row %d continues a chunk across an episode end or a gap", seed, row)
				}
			}
		}
		if pos != n || slices.Contains(seen, false) {
			t.Fatalf("seed %d: %d packed rows for %d", seed, pos, n)
		}
		for j := 1; j < m; j++ {
			if ch.Len[p.Order[j]] > ch.Len[p.Order[j-1]] {
				t.Fatalf("seed %d: Order not longest first", seed)
			}
		}
	}
}

func TestPackedAllocs(t *testing.T) {
	indices, nexts := make([]int, 64), make([]int, 64)
	for i := range indices {
		indices[i], nexts[i] = i, i+1
		if i%11 == 10 || i == 63 {
			nexts[i] = i
		}
	}
	var ch actorcritic.Chunks
	var p actorcritic.Packed
	sel := []int{3, 1, 2, 0}
	ch.Split(indices, nexts, 8)
	p.Pack(&ch, sel)
	if n := testing.AllocsPerRun(50, func() { ch.Split(indices, nexts, 8); p.Pack(&ch, sel) }); n != 0 {
		t.Errorf("Split and Pack allocate %v times; want 0", n)
	}
}
