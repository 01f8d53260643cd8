package tensor

import (
	"fmt"
	"testing"
)

// TestTranspose checks transpose against its definition, dst[j·ldd+i] =
// src[i·lds+j] + bias[i], on shapes with and without 8 × 8 blocks and with
// edges, with padded rows on both sides.
func TestTranspose(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {3, 5}, {8, 8}, {8, 16}, {16, 8}, {9, 17}, {64, 128}, {128, 4}, {130, 67}} {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) {
			rows, cols := s[0], s[1]
			bias := make([]float32, rows)
			for i := range bias {
				bias[i] = float32(-1000 * i)
			}
			for _, b := range [][]float32{nil, bias} {
				// dst's rows padded by 3 (left as they were), src's by 2
				ldd, lds := rows+3, cols+2
				src := make([]float32, rows*lds)
				for i := range src {
					src[i] = float32(i + 1)
				}
				dst := make([]float32, cols*ldd)
				for i := range dst {
					dst[i] = -1
				}
				transpose(dst, ldd, src, lds, rows, cols, b)
				for j := 0; j < cols; j++ {
					for i := 0; i < ldd; i++ {
						want := float32(-1)
						if i < rows {
							want = src[i*lds+j]
							if b != nil {
								want += b[i]
							}
						}
						if got := dst[j*ldd+i]; got != want {
							t.Fatalf("bias %v: dst[%d][%d] = %v, want %v", b != nil, j, i, got, want)
						}
					}
				}
			}
		})
	}
}
