package nd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gorl/gorl/internal/cputime"
	"github.com/gorl/gorl/nd"
)

var sink *nd.Array

// Sizes: a replay buffer of 100 000 CartPole observations (4 float32) and
// one of 1 000 Atari-like camera frames (84×84×3 uint8), both sampled in
// batches of 64, the batch size of the Batch benchmarks.
type takeCase struct {
	name  string
	src   *nd.Array
	bytes int64
}

func takeCases() []takeCase {
	return []takeCase{
		{"obs_100000x4_float32", nd.Zeros(nd.Float32, 100000, 4), 64 * 4 * 4},
		{"camera_1000x84x84x3_uint8", nd.Zeros(nd.Uint8, 1000, 84, 84, 3), 64 * 84 * 84 * 3},
	}
}

func randomRows(n, max int) []int {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([]int, n)
	for i := range rows {
		rows[i] = r.IntN(max)
	}
	return rows
}

func BenchmarkTake(b *testing.B) {
	for _, c := range takeCases() {
		rows := randomRows(64, c.src.Len())
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(c.bytes)
			for i := 0; i < b.N; i++ {
				sink = nd.Take(c.src, rows)
			}
		})
	}
}

func BenchmarkTakeTo(b *testing.B) {
	for _, c := range takeCases() {
		rows := randomRows(64, c.src.Len())
		shape := c.src.Shape()
		shape[0] = 64
		dst := nd.Zeros(c.src.DType(), shape...)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(c.bytes)
			for i := 0; i < b.N; i++ {
				nd.TakeTo(dst, c.src, rows)
			}
		})
	}
}

// BenchmarkIndexInts is Take through the general Index entry point, the
// path Batch indexing uses: 64 random rows of a (64, 4) float32 leaf.
func BenchmarkIndexInts(b *testing.B) {
	a := nd.Zeros(nd.Float32, 64, 4)
	rows := randomRows(64, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink = a.Index(nd.Ints(rows...))
	}
}

// BenchmarkIndexView is a basic slice a[:32] of a (64, 4) float32 leaf.
func BenchmarkIndexView(b *testing.B) {
	a := nd.Zeros(nd.Float32, 64, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sink = a.Index(nd.Range(0, 32))
	}
}

// BenchmarkSetRow writes one CartPole observation into a 100 000-row buffer
// (a replay buffer's add).
func BenchmarkSetRow(b *testing.B) {
	buf := nd.Zeros(nd.Float32, 100000, 4)
	row := nd.MustNew([]float32{1, 2, 3, 4})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := buf.SetRow(i%100000, row); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStack stacks 64 single observations of shape (4), as stacking
// 64 transitions does for the obs leaf; Reuse stacks into a preallocated
// destination.
func BenchmarkStack(b *testing.B) {
	arrs := make([]*nd.Array, 64)
	for i := range arrs {
		arrs[i] = nd.Zeros(nd.Float32, 4)
	}
	b.Run("New", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s, err := nd.Stack(0, arrs...)
			if err != nil {
				b.Fatal(err)
			}
			sink = s
		}
	})
	b.Run("Reuse", func(b *testing.B) {
		dst := nd.Zeros(nd.Float32, 64, 4)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := nd.StackTo(dst, 0, arrs...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkConcatenate joins 10 batches of shape (64, 4), the Batch cat
// 10×64 target's obs leaf.
func BenchmarkConcatenate(b *testing.B) {
	arrs := make([]*nd.Array, 10)
	for i := range arrs {
		arrs[i] = nd.Zeros(nd.Float32, 64, 4)
	}
	b.Run("New", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			c, err := nd.Concatenate(0, arrs...)
			if err != nil {
				b.Fatal(err)
			}
			sink = c
		}
	})
	b.Run("Reuse", func(b *testing.B) {
		dst := nd.Zeros(nd.Float32, 640, 4)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := nd.ConcatenateTo(dst, 0, arrs...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAdd adds two (64, 4) float32 batches; InPlace is x += y; Scalar
// is x * 0.5 (a weak Go float).
func BenchmarkAdd(b *testing.B) {
	x := nd.Zeros(nd.Float32, 64, 4)
	y := nd.Zeros(nd.Float32, 64, 4)
	b.Run("New", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r, err := nd.Add(x, y)
			if err != nil {
				b.Fatal(err)
			}
			sink = r
		}
	})
	b.Run("InPlace", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := x.Add(y); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Scalar", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			r, err := nd.Mul(x, 0.5)
			if err != nil {
				b.Fatal(err)
			}
			sink = r
		}
	})
}

// BenchmarkSum reduces a (64, 4) float32 batch, whole and along axis 0.
func BenchmarkSum(b *testing.B) {
	x := nd.Zeros(nd.Float32, 64, 4)
	b.Run("All", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s, err := nd.Sum(x)
			if err != nil {
				b.Fatal(err)
			}
			sink = s
		}
	})
	b.Run("Axis0", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s, err := nd.Sum(x, 0)
			if err != nil {
				b.Fatal(err)
			}
			sink = s
		}
	})
}

// BenchmarkBlock indexes the seven arrays of a flat 64-row transition batch
// (obs and obs_next (64, 4) float32, act and env_id int64, rew float32,
// terminated and truncated bool) as a Batch does, each array on its own
// (Index) or from one Block: a slice [:32] (views) and 64 random rows
// (takes).
func BenchmarkBlock(b *testing.B) {
	arrs := []*nd.Array{
		nd.Zeros(nd.Float32, 64, 4), nd.Zeros(nd.Int64, 64), nd.Zeros(nd.Float32, 64), nd.Zeros(nd.Bool, 64),
		nd.Zeros(nd.Bool, 64), nd.Zeros(nd.Float32, 64, 4), nd.Zeros(nd.Int64, 64),
	}
	for _, c := range []struct {
		name string
		idx  nd.Index
	}{{"views", nd.To(32)}, {"takes", nd.Ints(randomRows(64, 64)...)}} {
		b.Run("Index/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				for _, a := range arrs {
					sink = a.Index(c.idx)
				}
			}
		})
		b.Run("Block/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			defer cputime.Start(b).Report()
			for i := 0; i < b.N; i++ {
				var k nd.Block
				for _, a := range arrs {
					k.Reserve(a, c.idx)
				}
				for _, a := range arrs {
					sink = k.Index(a, c.idx)
				}
			}
		})
	}
}
