package nd

import (
	"bytes"
	"unsafe"
)

// joinMinBytes is the size from which a new buffer that a gather fills
// completely (Take, Stack and Concatenate along axis 0, Copy) is made with
// bytes.Join instead of make: Join's allocation is not zeroed first (make's
// always is), which for large buffers costs as much as the copy itself.
// Buffers of this size are large objects in Go's allocator, so they start on
// a page boundary and are aligned for every dtype.
const joinMinBytes = 32 << 10

// segBuf is the number of segments a gather collects on the stack.
const segBuf = 64

// rawBytes returns n elements of a's buffer from position off as bytes. a's
// dtype must not be Object.
func rawBytes(a *Array, off, n int) []byte {
	sz := a.dt.Size()
	return unsafe.Slice((*byte)(unsafe.Add(a.ptr, off*sz)), n*sz)
}

// appendSeg appends seg to segs, extending the last segment instead when
// seg continues it in memory (consecutive rows of one buffer; segments of
// different allocations must not be merged).
func appendSeg(segs [][]byte, seg []byte) [][]byte {
	if len(seg) == 0 {
		return segs
	}
	if k := len(segs) - 1; k >= 0 {
		last := segs[k]
		if unsafe.Add(unsafe.Pointer(unsafe.SliceData(last)), len(last)) == unsafe.Pointer(unsafe.SliceData(seg)) {
			segs[k] = unsafe.Slice(unsafe.SliceData(last), len(last)+len(seg))
			return segs
		}
	}
	return append(segs, seg)
}

// joinBuffer gives dst, a header with its shape set and no buffer, a new
// buffer holding the bytes of segs in order, which must add up to dst's
// size. It reports false, leaving dst without a buffer, when the joined
// memory is not aligned for dst's dtype (not expected: see joinMinBytes).
func joinBuffer(dst *Array, segs [][]byte) bool {
	b := bytes.Join(segs, nil)
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%uintptr(dst.dt.Size()) != 0 {
		return false
	}
	dst.ptr, dst.n = p, dst.size
	return true
}

// joinable reports whether dst, a new header of the given dtype and size,
// should receive its buffer from joinBuffer.
func joinable(dt DType, size int) bool {
	return dt != Object && size*dt.Size() >= joinMinBytes
}

// takeJoin gives dst (a new contiguous header of a's dtype and the taken
// shape) a buffer holding rows of a, gathered with joinBuffer. rows have
// been checked. It reports false when a's rows are not contiguous or the
// result is small, so that the caller allocates and uses TakeTo.
func takeJoin(dst, a *Array, rows []int) bool {
	if !joinable(a.dt, dst.size) || !rowsContiguous(a) || len(rows) == 0 {
		return false
	}
	var buf [segBuf][]byte
	segs := buf[:0]
	if len(rows) > segBuf {
		segs = make([][]byte, 0, len(rows))
	}
	n, rowLen := a.shape[0], dst.size/len(rows)
	for _, r := range rows {
		if r < 0 {
			r += n
		}
		segs = appendSeg(segs, rawBytes(a, a.off+r*a.strides[0], rowLen))
	}
	return joinBuffer(dst, segs)
}

// joinArrays gives dst (a new contiguous header) a buffer holding the
// elements of arrs one after the other, which is Stack or Concatenate along
// axis 0 when each input is contiguous and of dst's dtype. It reports false
// when that does not hold or the result is small.
func joinArrays(dst *Array, arrs []*Array) bool {
	if !joinable(dst.dt, dst.size) {
		return false
	}
	for _, a := range arrs {
		if a.dt != dst.dt || !a.IsContiguous() {
			return false
		}
	}
	var buf [segBuf][]byte
	segs := buf[:0]
	if len(arrs) > segBuf {
		segs = make([][]byte, 0, len(arrs))
	}
	for _, a := range arrs {
		// Not appendSeg: two arrays adjacent in memory are still two
		// allocations, which one slice must not span.
		if a.size > 0 {
			segs = append(segs, rawBytes(a, a.off, a.size))
		}
	}
	return joinBuffer(dst, segs)
}

// Block is memory for the arrays of an operation that makes many at once,
// such as indexing every array of a Batch: their headers come from one
// allocation, their shapes and strides from another, and the elements of
// the small ones from one more (one for bool and numeric dtypes, one for
// Object), instead of two allocations per array.
//
// Use it in two steps: Reserve each array, then make the arrays with Index.
// The reserved memory is allocated when Index first needs it. An array that
// does not fit what is left of the reservation is allocated on its own, so
// a reservation that is too small costs speed, not correctness. The rows
// given to Index (nd.Ints) must not change while the Block is in use: the
// Block checks them once for all arrays of the same length. Arrays
// whose elements take 32 KiB or more always get memory of their own, not
// zeroed before it is filled (see the package documentation's Decisions).
//
// Arrays made from one Block share its allocations: while one of them is
// reachable, the headers and small buffers of all of them stay allocated
// (Copy an array to keep it alone). The zero Block is ready to use. A
// Block must not be copied after its first use: a copy would hand out the
// same memory twice (go vet's copylocks check reports copies). A Block is
// not safe for concurrent use.
type Block struct {
	_ noCopy

	// Reserved and not yet allocated.
	nHeaders, nInts, nWords, nObjects int

	// Allocated and not yet handed out.
	headers []Array
	ints    []int    // shapes and strides
	words   []uint64 // element memory of bool and numeric dtypes
	objects []any

	// The rows last checked by Index (their first element's address and
	// their number), the axis length they fit and whether one is negative:
	// a Batch gathers the same rows from arrays of the same length.
	rowsAt       *int
	nRows, rowsN int
	rowsNegative bool
}

// Reserve counts the memory that k.Index(a, idx...) will take: a header
// with its shape and strides, and for a gather of rows (idx is Ints,
// optionally followed by All) the elements of the result. Other fancy
// indices reserve a header only. Reserve does not check idx (Index does).
func (k *Block) Reserve(a *Array, idx ...Index) {
	k.nHeaders++
	rows, take := []int(nil), false
	if len(idx) > 0 {
		rows, take = takeForm(idx)
	}
	switch used, fancy := reserveCheck(a, idx); {
	case !fancy:
		k.nInts += 2 * max(viewDims(a, idx, used), 0)
		return
	case !take || len(a.shape) == 0:
		return
	}
	k.nInts += 2 * len(a.shape)
	size := len(rows)
	for _, d := range a.shape[1:] {
		size *= d
	}
	switch {
	case a.dt == Object:
		k.nObjects += size
	case size*a.dt.Size() < joinMinBytes:
		k.nWords += (size*a.dt.Size() + 7) / 8
	}
}

// reserveCheck is checkIndices without its panics.
func reserveCheck(a *Array, idx []Index) (used int, fancy bool) {
	for k := range idx {
		used += idx[k].axesUsed()
		fancy = fancy || idx[k].fancy()
	}
	return used, fancy
}

// Index returns a.Index(idx...), with the same values, views, copies and
// panics, making the result from k's memory.
func (k *Block) Index(a *Array, idx ...Index) *Array {
	used, fancy := a.checkIndices(idx)
	if !fancy {
		v := k.header(a.dt, viewDims(a, idx, used), a)
		a.view(v, idx, used)
		return v
	}
	rows, ok := takeForm(idx)
	if !ok {
		return a.Index(idx...)
	}
	if len(a.shape) == 0 {
		panic(errorf(ErrIndex, "Take: too many indices for a 0-d array"))
	}
	neg := k.checkRows(rows, a.shape[0])
	dst := k.header(a.dt, len(a.shape), nil)
	dst.shape[0] = len(rows)
	copy(dst.shape[1:], a.shape[1:])
	checkedSize(dst.shape)
	dst.setContiguous()
	if !takeJoin(dst, a, rows) {
		dst.ptr, dst.n = k.buffer(a.dt, dst.size), dst.size
		takeRowsOf(dst, a, rows, neg)
	}
	return dst
}

// checkRows is the function checkRows, skipped for the rows last checked
// when they fit an axis of length n too: the rows of a gather must not
// change while the Block is in use.
func (k *Block) checkRows(rows []int, n int) (neg bool) {
	if len(rows) == 0 {
		return false
	}
	if &rows[0] == k.rowsAt && len(rows) == k.nRows && (n == k.rowsN || !k.rowsNegative && n > k.rowsN) {
		return k.rowsNegative
	}
	neg = checkRows(rows, n)
	k.rowsAt, k.nRows, k.rowsN, k.rowsNegative = &rows[0], len(rows), n, neg
	return neg
}

// header returns a header as the function header does, from k's memory.
func (k *Block) header(dt DType, ndim int, like *Array) *Array {
	if len(k.headers) == 0 && k.nHeaders > 0 {
		k.headers, k.nHeaders = make([]Array, k.nHeaders), 0
	}
	if len(k.ints) < 2*ndim && k.nInts >= 2*ndim {
		k.ints, k.nInts = make([]int, k.nInts), 0
	}
	if len(k.headers) == 0 || len(k.ints) < 2*ndim {
		return header(dt, ndim, like)
	}
	h := &k.headers[0]
	k.headers = k.headers[1:]
	h.setHeader(dt, ndim, like, k.ints[:2*ndim:2*ndim])
	k.ints = k.ints[2*ndim:]
	return h
}

// buffer returns a zeroed buffer of n elements of dtype dt from k's memory,
// or allocated on its own when the reservation has no room left for it or
// it is large.
func (k *Block) buffer(dt DType, n int) unsafe.Pointer {
	if dt == Object {
		if len(k.objects) < n && k.nObjects >= n {
			k.objects, k.nObjects = make([]any, k.nObjects), 0
		}
		if n == 0 || len(k.objects) < n {
			return allocBuffer(dt, n)
		}
		p := unsafe.Pointer(unsafe.SliceData(k.objects))
		k.objects = k.objects[n:]
		return p
	}
	bytes := n * dt.Size()
	w := (bytes + 7) / 8
	if n == 0 || bytes >= joinMinBytes {
		return allocBuffer(dt, n)
	}
	if len(k.words) < w && k.nWords >= w {
		k.words, k.nWords = make([]uint64, k.nWords), 0
	}
	if len(k.words) < w {
		return allocBuffer(dt, n)
	}
	p := unsafe.Pointer(unsafe.SliceData(k.words))
	k.words = k.words[w:]
	return p
}

// noCopy makes go vet's copylocks check report copies of a struct holding
// it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
