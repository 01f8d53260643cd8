//go:build linux && (amd64 || arm64) && !gorl_noopenblas

package blas

import "testing"

func TestHasSmallKernels(t *testing.T) {
	for _, tc := range []struct {
		release, core string
		want          bool
	}{
		{"0.3.21", "SkylakeX", true},
		{"0.3.26", "SapphireRapids", true},
		{"0.4.0", "cooperlake", true},
		{"0.3.20", "SkylakeX", false}, // older than the release measured
		{"0.2.20", "SkylakeX", false},
		{"0.3.21", "Haswell", false}, // no small kernels for this core
		{"0.3.21.dev", "SkylakeX", true},
		{"dev", "SkylakeX", false},
	} {
		if got := hasSmallKernels(tc.release, tc.core); got != tc.want {
			t.Errorf("hasSmallKernels(%q, %q) = %v, want %v", tc.release, tc.core, got, tc.want)
		}
	}
}
