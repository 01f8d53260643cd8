//go:build !gorl_noasm

package tensor

import "golang.org/x/sys/cpu"

// tile6x8, tile6x16 and tile6x32 compute one tile of a product, 6 rows by
// 8 or 16 columns with AVX2 and FMA, 6 by 32 with AVX-512 (see
// kernel_amd64.s).
//
//go:noescape
func tile6x8(a, b, c *float32, aoff, coff *[6]int, k, ka, ldb int)

//go:noescape
func tile6x16(a, b, c *float32, aoff, coff *[6]int, k, ka, ldb int)

//go:noescape
func tile6x32(a, b, c *float32, aoff, coff *[6]int, k, ka, ldb int)

// tile6x16r and tile6x32r are tile6x16 and tile6x32 with the inner
// dimension read in runs at given offsets (a convolution's patches).
//
//go:noescape
func tile6x16r(a, b, c *float32, aoff, coff *[6]int, runs *int, nruns, kw, ldb int)

//go:noescape
func tile6x32r(a, b, c *float32, aoff, coff *[6]int, runs *int, nruns, kw, ldb int)

// transpose8x8 writes the transpose of the 8 × 8 block at src (row
// stride lds) to dst (row stride ldd), with AVX, adding bias[i] to the
// values of src's row i when bias is not nil.
//
//go:noescape
func transpose8x8(dst, src, bias *float32, ldd, lds int)

// haveTileKernel tells whether the CPU runs tile6x16, haveWideTiles
// whether it runs tile6x32.
var (
	haveTileKernel = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	haveWideTiles  = haveTileKernel && cpu.X86.HasAVX512F
)
