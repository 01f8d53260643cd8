//go:build !amd64 || gorl_noasm

package tensor

const (
	haveTileKernel = false
	haveWideTiles  = false
)

func tile6x16(a, b, c *float32, aoff, coff *[6]int, k, ka, ldb int) {
	panic("tensor: tile6x16 without its kernel")
}

func tile6x32(a, b, c *float32, aoff, coff *[6]int, k, ka, ldb int) {
	panic("tensor: tile6x32 without its kernel")
}

func tile6x8(a, b, c *float32, aoff, coff *[6]int, k, ka, ldb int) {
	panic("tensor: tile6x8 without its kernel")
}

func tile6x16r(a, b, c *float32, aoff, coff *[6]int, runs *int, nruns, kw, ldb int) {
	panic("tensor: tile6x16r without its kernel")
}

func tile6x32r(a, b, c *float32, aoff, coff *[6]int, runs *int, nruns, kw, ldb int) {
	panic("tensor: tile6x32r without its kernel")
}

func transpose8x8(dst, src, bias *float32, ldd, lds int) {
	panic("tensor: transpose8x8 without its kernel")
}
