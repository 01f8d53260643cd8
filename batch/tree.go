package batch

import "github.com/gorl/gorl/nd"

// tree is the memory of a Batch tree that an operation builds from another
// tree of known structure (Index, Take, Split's pieces): all of its nodes
// come from one allocation, all of their entries from another, and its
// arrays from one nd.Block. It is used in two passes: count (reserveIndex)
// what the result needs, then build it (node and arrs.Index). A result
// with a single node takes one allocation for it and its entries, as
// newBatch makes it.
//
// Nodes and arrays of one result share these allocations: a sub-Batch or
// an array kept alive keeps the whole result's headers and small buffers
// allocated (the package documentation's Decisions give the trade-off).
type tree struct {
	nNodes, nEnts int // counted, not yet allocated
	nodes         []Batch
	ents          []entry
	arrs          nd.Block
}

// reserveIndex counts the nodes, entries and arrays of b indexed by idx.
func (t *tree) reserveIndex(b *Batch, idx []nd.Index) {
	t.nNodes++
	t.nEnts += len(b.ents)
	for i := range b.ents {
		switch x := b.ents[i].val.(type) {
		case *nd.Array:
			t.arrs.Reserve(x, idx...)
		case *Batch:
			t.reserveIndex(x, idx)
		}
	}
}

// node returns a Batch with n zero entries, for filling by position.
func (t *tree) node(n int) *Batch {
	if len(t.nodes) == 0 {
		if t.nNodes <= 1 {
			t.nNodes = 0
			return sized(n)
		}
		t.nodes, t.nNodes = make([]Batch, t.nNodes), 0
		t.ents, t.nEnts = make([]entry, t.nEnts), 0
	}
	b := &t.nodes[0]
	t.nodes = t.nodes[1:]
	if n > len(t.ents) {
		b.ents = make([]entry, n)
		return b
	}
	b.ents = t.ents[:n:n]
	t.ents = t.ents[n:]
	return b
}
