package tensor

import "testing"

func BenchmarkIm2col(b *testing.B) {
	for _, c := range []struct {
		name   string
		xs, ws []int
		s      int
	}{
		{"conv1", []int{32, 4, 84, 84}, []int{32, 4, 8, 8}, 4},
		{"conv2", []int{32, 32, 20, 20}, []int{64, 32, 4, 4}, 2},
		{"conv3", []int{32, 64, 9, 9}, []int{64, 64, 3, 3}, 1},
	} {
		g := convGeom(c.xs, c.ws, c.s, 0)
		x := make([]float32, numel(c.xs))
		cols := make([]float32, g.k*g.n*g.oh*g.ow)
		offs := g.offsets(nil)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(cols) * 4))
			for i := 0; i < b.N; i++ {
				g.unroll(cols, x, offs, false)
			}
		})
		b.Run(c.name+"/col2im", func(b *testing.B) {
			b.SetBytes(int64(len(cols) * 4))
			for i := 0; i < b.N; i++ {
				g.unroll(cols, x, offs, true)
			}
		})
	}
}
