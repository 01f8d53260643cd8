//go:build !gorl_noasm

package optim

import "testing"

// TestAdamKernelSSE repeats TestAdamKernel with the SSE kernel alone where
// the processor would otherwise take the AVX2 kernel, so both kernels are
// checked against adamGo bit for bit.
func TestAdamKernelSSE(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2: TestAdamKernel already checks the SSE kernel")
	}
	useAVX2 = false
	defer func() { useAVX2 = true }()
	TestAdamKernel(t)
}
