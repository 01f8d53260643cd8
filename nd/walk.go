package nd

// walkStack is the number of dimensions walk handles without allocating.
const walkStack = 16

// walk visits every position of shape in C order for up to three operands
// laid over it, each with its own strides and starting offset (operands
// beyond nops are ignored). It calls fn once per innermost run: fn gets the
// offsets of the run's first element, the run length and each operand's
// step. Adjacent axes that are contiguous in every operand are merged first,
// so a C-contiguous walk is a single run. A shape with a zero dimension
// makes no call; a 0-d shape makes one call with n = 1.
func walk(shape []int, nops int, strides [3][]int, off [3]int, fn func(off [3]int, n int, step [3]int)) {
	var nbuf [walkStack]int
	var sbuf [walkStack][3]int
	dims, steps := nbuf[:0], sbuf[:0]
	for i := len(shape) - 1; i >= 0; i-- {
		d := shape[i]
		if d == 0 {
			return
		}
		if d == 1 {
			continue
		}
		var st [3]int
		for k := 0; k < nops; k++ {
			st[k] = strides[k][i]
		}
		if j := len(dims) - 1; j >= 0 {
			merge := true
			for k := 0; k < nops; k++ {
				if st[k] != steps[j][k]*dims[j] {
					merge = false
					break
				}
			}
			if merge {
				dims[j] *= d
				continue
			}
		}
		dims = append(dims, d)
		steps = append(steps, st)
	}
	if len(dims) == 0 {
		fn(off, 1, [3]int{})
		return
	}
	var cbuf [walkStack]int
	count := cbuf[:len(dims)]
	if len(dims) > walkStack {
		count = make([]int, len(dims))
	}
	for {
		fn(off, dims[0], steps[0])
		j := 1
		for ; j < len(dims); j++ {
			count[j]++
			for k := 0; k < nops; k++ {
				off[k] += steps[j][k]
			}
			if count[j] < dims[j] {
				break
			}
			count[j] = 0
			for k := 0; k < nops; k++ {
				off[k] -= steps[j][k] * dims[j]
			}
		}
		if j == len(dims) {
			return
		}
	}
}
