package blas

import "github.com/gorl/gorl/internal/par"

// ParTile is the fewest multiply-adds a tile of a product gets when Gemm
// cuts it for the worker pool, and ParWork the fewest for which it cuts:
// below, one call on the calling goroutine is faster than the hand-off (the
// 4→128→128→2 MLP's products stay below it).
const (
	ParTile = 1 << 22
	ParWork = 2 * ParTile
	// parMaxTiles bounds the tiles of one product.
	parMaxTiles = 64
	// parMinRows is the fewest rows of C per tile for a cut along the
	// rows; shorter tiles cut the columns instead.
	parMinRows = 64
)

// gemmTiles is one product cut along the rows (byRows) or the columns of C.
type gemmTiles struct {
	tA, tB   bool
	m, n, k  int
	alpha    float32
	a, b, c  []float32
	lda, ldb int
	ldc      int
	beta     float32
	byRows   bool
	size     int // rows or columns per tile
	tiles    int
}

var tilesPool par.Free[gemmTiles]

// plan cuts the product into a power of two of tiles (two or four workers
// get the same work) of at least ParTile multiply-adds, along the rows of C
// when each tile keeps parMinRows of them, else along its columns, in
// multiples of 16.
func (g *gemmTiles) plan() {
	tiles := 1
	for tiles < parMaxTiles && 2*tiles*ParTile <= g.m*g.n*g.k {
		tiles *= 2
	}
	g.byRows = g.m/tiles >= parMinRows
	side := g.n
	if g.byRows {
		side = g.m
	}
	g.tiles, g.size = par.Chunks(side, 16, tiles)
}

func (g *gemmTiles) Task(i, _ int) {
	lo := i * g.size
	if g.byRows {
		hi := min(lo+g.size, g.m)
		ao := lo * g.lda
		if g.tA {
			ao = lo
		}
		gemm1(g.tA, g.tB, hi-lo, g.n, g.k, g.alpha, g.a[ao:], g.lda, g.b, g.ldb, g.beta, g.c[lo*g.ldc:], g.ldc)
		return
	}
	hi := min(lo+g.size, g.n)
	bo := lo
	if g.tB {
		bo = lo * g.ldb
	}
	gemm1(g.tA, g.tB, g.m, hi-lo, g.k, g.alpha, g.a, g.lda, g.b[bo:], g.ldb, g.beta, g.c[lo:], g.ldc)
}

func parGemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	g := tilesPool.Get()
	*g = gemmTiles{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc}
	g.plan()
	par.Run(g.tiles, par.Workers(), g)
	g.a, g.b, g.c = nil, nil, nil
	tilesPool.Put(g)
}
