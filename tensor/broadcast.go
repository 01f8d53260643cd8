package tensor

// maxDims bounds the rank of operands of broadcasting operations and
// transposes, whose index bookkeeping lives in fixed arrays so that it does
// not allocate. Dimensions of size 1 and runs of dimensions that are
// contiguous in every operand are merged first, so only the rank after
// merging counts.
const maxDims = 16

// broadcastShape appends to dst the shape that a, b and c (nil when there
// are two operands) broadcast to under numpy's rules (aligned at the last
// dimension; sizes equal or 1), or panics with ErrShape.
func broadcastShape(dst []int, op string, a, b, c []int) []int {
	nd := max(len(a), len(b), len(c))
	for i := 0; i < nd; i++ {
		d := 1
		for _, s := range [3][]int{a, b, c} {
			j := i - (nd - len(s))
			if j < 0 || s[j] == 1 {
				continue
			}
			if d != 1 && s[j] != d {
				if c == nil {
					panicf(ErrShape, "%s: shapes %v and %v do not broadcast", op, a, b)
				}
				panicf(ErrShape, "%s: shapes %v, %v and %v do not broadcast", op, a, b, c)
			}
			d = s[j]
		}
		dst = append(dst, d)
	}
	return dst
}

// plan walks an output of some shape together with up to three operands
// broadcast to it, one row (the last merged dimension) at a time.
type plan struct {
	nd    int
	shape [maxDims]int
	// st[k] are the strides of operand k in elements, 0 along broadcast
	// dimensions; operand 0 is the output itself.
	st  [4][maxDims]int
	ops int
}

// newPlan prepares the walk of out with operands ins, each broadcast to out.
func newPlan(op string, out []int, ins ...[]int) plan {
	var st [4][maxDims]int
	if len(out) > maxDims {
		panicf(ErrShape, "%s: more than %d dimensions in %v", op, maxDims, out)
	}
	for k := 0; k <= len(ins); k++ {
		s := out
		if k > 0 {
			s = ins[k-1]
		}
		stride := 1
		for i := len(out) - 1; i >= 0; i-- {
			j := i - (len(out) - len(s))
			if j >= 0 && s[j] != 1 {
				st[k][i] = stride
				stride *= s[j]
			}
		}
	}
	return mergedPlan(out, 1+len(ins), &st)
}

// mergedPlan builds the walk of out with ops operands (operand 0 is the
// output) whose strides along out's dimensions are st. Dimensions of size 1
// are dropped, and a dimension is merged into the one after it when every
// operand is contiguous across the pair.
func mergedPlan(out []int, ops int, st *[4][maxDims]int) plan {
	p := plan{ops: ops}
	var rev [maxDims]int // merged sizes, last dimension first
	var rst [4][maxDims]int
	nd := 0
	for i := len(out) - 1; i >= 0; i-- {
		d := out[i]
		if d == 1 {
			continue
		}
		if nd > 0 {
			merge := true
			for k := 0; k < ops; k++ {
				if st[k][i] != rst[k][nd-1]*rev[nd-1] {
					merge = false
					break
				}
			}
			if merge {
				rev[nd-1] *= d
				continue
			}
		}
		rev[nd] = d
		for k := 0; k < ops; k++ {
			rst[k][nd] = st[k][i]
		}
		nd++
	}
	if nd == 0 {
		rev[0], nd = 1, 1
	}
	p.nd = nd
	for i := 0; i < nd; i++ {
		p.shape[i] = rev[nd-1-i]
		for k := 0; k < ops; k++ {
			p.st[k][i] = rst[k][nd-1-i]
		}
	}
	return p
}

// rowLen is the length of each row the walk visits.
func (p *plan) rowLen() int { return p.shape[p.nd-1] }

// inner returns the stride of operand k within a row (0 or 1 for contiguous
// operands).
func (p *plan) inner(k int) int { return p.st[k][p.nd-1] }

// each calls fn with the offsets of every operand at the start of each row.
func (p *plan) each(fn func(off [4]int)) {
	rows := 1
	for i := 0; i < p.nd-1; i++ {
		rows *= p.shape[i]
	}
	if p.shape[p.nd-1] == 0 {
		return
	}
	var idx [maxDims]int
	var off [4]int
	for r := 0; r < rows; r++ {
		fn(off)
		// Advance the odometer over the outer dimensions.
		for i := p.nd - 2; i >= 0; i-- {
			idx[i]++
			for k := 0; k < p.ops; k++ {
				off[k] += p.st[k][i]
			}
			if idx[i] < p.shape[i] {
				break
			}
			for k := 0; k < p.ops; k++ {
				off[k] -= p.st[k][i] * idx[i]
			}
			idx[i] = 0
		}
	}
}
