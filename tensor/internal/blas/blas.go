// Package blas provides the single-precision matrix product that package tensor
// uses, backed by gonum's pure-Go BLAS by default and by OpenBLAS, loaded at run
// time without cgo, when it is installed.
//
// # Selection
//
// The implementation is chosen once, on the first call to Gemm or Name:
//
//   - GORL_BLAS=gonum selects blas32.Implementation() (gonum's pure-Go BLAS
//     unless the program plugged in another one with blas32.Use).
//   - GORL_BLAS unset or "openblas" loads libopenblas.so.0 through purego; if that
//     fails, the gonum implementation is used and LoadError says why.
//
// OpenBLAS runs on one thread (openblas_set_num_threads(1) after loading)
// unless the environment sets OPENBLAS_NUM_THREADS: two threads made the
// Nature-CNN step and the 64×128×128 product slower, not faster. On amd64,
// when OPENBLAS_CORETYPE is not set, the core type is chosen from the CPU's
// features (SkylakeX with AVX-512, Haswell with AVX2 and FMA): OpenBLAS
// 0.3.21 falls back to its SSE3 kernels (Prescott) on CPUs newer than it
// knows, several times slower.
//
// OpenBLAS reads both variables only while it is loaded, from the C
// environment. The loader sets those the user left unset for the load alone
// (one thread, so that no worker threads start) and restores them right
// after: the process environment stays as the user set it.
//
// Tiny products, and with gonum those whose inner loops are only a few
// elements long, are computed by plain Go loops, which beat the call overhead
// there; with gonum, op(A)·Bᵀ with a short inner dimension and at least 8
// rows goes through gonum on a transposed copy of B instead (gonumSmallK).
//
// With OpenBLAS 0.3.21 or later on SkylakeX and its successors (the cores
// with its small-matrix kernels), products with few rows of C and products
// with a long inner dimension but a small C are cut into blocks that
// OpenBLAS computes with its small-matrix kernels (see splitPlan): it sends
// them whole to its general kernels, which pack the operands first and ran
// such shapes 1.2 to 2.6 times slower here.
package blas

import (
	"fmt"
	"os"
	"sync"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gorl/gorl/internal/par"
)

// EnvVar names the environment variable that selects the implementation.
const EnvVar = "GORL_BLAS"

// gemmFunc is the signature shared by the implementations: row-major
// C = alpha·op(A)·op(B) + beta·C with op(X) = Xᵀ when the flag is set.
type gemmFunc func(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)

var (
	once    sync.Once
	gemm    gemmFunc
	isGonum bool // gemm is gonum's own implementation
	name    string
	loadErr error
)

func choose() {
	switch v := os.Getenv(EnvVar); v {
	case "gonum":
		loadErr = fmt.Errorf("blas: OpenBLAS not used: %s=%s", EnvVar, v)
	case "", "openblas":
		var f gemmFunc
		f, name, loadErr = loadOpenBLAS()
		if loadErr == nil {
			gemm = f
			return
		}
	default:
		loadErr = fmt.Errorf("blas: OpenBLAS not used: unknown %s value %q (want gonum or openblas)", EnvVar, v)
	}
	impl := blas32.Implementation()
	if _, ok := impl.(gonum.Implementation); ok {
		name = "gonum"
		gemm = gonumSerial
		isGonum = true
		return
	}
	name = fmt.Sprintf("%T", impl)
	gemm = func(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		impl.Sgemm(trans(tA), trans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// Name describes the implementation in use, for example "gonum" or
// "openblas 0.3.21 (SkylakeX, 1 thread)".
func Name() string {
	once.Do(choose)
	return name
}

// LoadError reports why OpenBLAS is not in use, or nil when it is.
func LoadError() error {
	once.Do(choose)
	return loadErr
}

// Gemm computes C = alpha·op(A)·op(B) + beta·C for row-major matrices, where
// op(A) is m×k, op(B) is k×n and C is m×n, and op(X) is Xᵀ when tX is true.
// lda, ldb and ldc are the row strides of the stored matrices. When beta is 0, C
// is overwritten and its previous contents (even NaN) do not matter.
//
// Gemm panics if a slice is too short for its dimensions.
//
// Products of at least ParWork multiply-adds are cut into tiles of C, fixed
// by the shape alone, that the worker pool (package par) computes: the
// result does not depend on the number of workers.
func Gemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	checkLen(tA, m, k, a, lda)
	checkLen(tB, k, n, b, ldb)
	checkLen(false, m, n, c, ldc)
	if m*n*k >= ParWork {
		parGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm1(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Gemm1 is Gemm on the calling goroutine, for callers that split the work
// themselves (one task of a par.Run).
func Gemm1(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	checkLen(tA, m, k, a, lda)
	checkLen(tB, k, n, b, ldb)
	checkLen(false, m, n, c, ldc)
	gemm1(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func gemm1(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 || m*n*k <= tinyWork {
		smallGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	once.Do(choose)
	if isGonum && tB && k < shortDot && m >= smallKRows && k*n <= len(smallKBuf{}) {
		gonumSmallK(tA, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if isGonum && preferSmall(tB, n, k) {
		smallGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// checkLen panics unless x holds an r×c matrix (its transpose when t) with row
// stride ld.
func checkLen(t bool, r, c int, x []float32, ld int) {
	if t {
		r, c = c, r
	}
	if r == 0 || c == 0 {
		return
	}
	if ld < c || len(x) < (r-1)*ld+c {
		panic(fmt.Sprintf("blas: %d×%d matrix with stride %d needs %d elements, have %d", r, c, ld, (r-1)*ld+c, len(x)))
	}
}

func trans(t bool) gblas.Transpose {
	if t {
		return gblas.Trans
	}
	return gblas.NoTrans
}

// gonumTile bounds the sub-products handed to gonum: its Sgemm starts
// goroutines (and allocates) once C spans four or more 64×64 blocks, so C is cut
// into 64×192 tiles, each computed serially.
const (
	gonumTileRows = 64
	gonumTileCols = 192
)

func gonumSerial(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	impl := gonum.Implementation{}
	ta, tb := trans(tA), trans(tB)
	for i := 0; i < m; i += gonumTileRows {
		mi := min(gonumTileRows, m-i)
		ai := a[i:]
		if !tA {
			ai = a[i*lda:]
		}
		for j := 0; j < n; j += gonumTileCols {
			nj := min(gonumTileCols, n-j)
			bj := b[j:]
			if tB {
				bj = b[j*ldb:]
			}
			impl.Sgemm(ta, tb, mi, nj, k, alpha, ai, lda, bj, ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}

// smallKBuf holds a transposed copy of B for gonumSmallK.
type smallKBuf [4096]float32

var smallKPool par.Free[smallKBuf]

// smallKRows is the fewest rows of C for which gonumSmallK beats smallGemm:
// at batch 1 the copy and gonum's call cost more than the product.
const smallKRows = 8

// gonumSmallK computes C = alpha·op(A)·Bᵀ + beta·C with gonum for an inner
// dimension below shortDot (x·Wᵀ of a layer with few inputs) as op(A)·B′
// with B′ = Bᵀ copied: gonum computes the Bᵀ form with one assembly dot
// product per element of C, a few elements long here, and the B form with
// one assembly AXPY per row. With the copy it beats both smallGemm's
// strided loops and gonum's Bᵀ form (BenchmarkGemm).
func gonumSmallK(tA bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	buf := smallKPool.Get()
	bt := buf[:k*n]
	for j := 0; j < n; j++ {
		for l, v := range b[j*ldb : j*ldb+k] {
			bt[l*n+j] = v
		}
	}
	gonumSerial(tA, false, m, n, k, alpha, a, lda, bt, n, beta, c, ldc)
	smallKPool.Put(buf)
}
