package tensor

import (
	"fmt"
	"testing"
)

// TestTranspose checks transpose against the definition dst[j·rows+i] =
// src[i·cols+j] on shapes with and without 8 × 8 blocks and with edges.
func TestTranspose(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {3, 5}, {8, 8}, {8, 16}, {16, 8}, {9, 17}, {64, 128}, {128, 4}, {130, 67}} {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) {
			rows, cols := s[0], s[1]
			src := make([]float32, rows*cols)
			for i := range src {
				src[i] = float32(i + 1)
			}
			dst := make([]float32, rows*cols)
			transpose(dst, src, rows, cols)
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					if got, want := dst[j*rows+i], src[i*cols+j]; got != want {
						t.Fatalf("dst[%d][%d] = %v, want %v", j, i, got, want)
					}
				}
			}
		})
	}
}
