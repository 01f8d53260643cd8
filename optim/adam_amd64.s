//go:build !gorl_noasm

#include "textflag.h"

// func adamSSE(p, g, m, v []float32, k *adamCoef)
//
// For i in [0, len(g)), four at a time (len(g) is a multiple of 4):
//
//	m[i] = flush(m[i]·b1 + c1·g[i])
//	v[i] = flush(v[i]·b2 + (c2·g[i])·g[i])
//	p[i] = p[i]·decay + (step·m[i]) / (√v[i] + eps)
//
// where flush zeroes values whose exponent field is 0 (subnormals), in the
// order of operations of adamGo, so the results are bit-identical.
TEXT ·adamSSE(SB), NOSPLIT, $0-104
	MOVQ p_base+0(FP), DI
	MOVQ g_base+24(FP), SI
	MOVQ g_len+32(FP), CX
	MOVQ m_base+48(FP), R8
	MOVQ v_base+72(FP), R9
	MOVQ k+96(FP), AX

	// Broadcast the coefficients: X8 b1, X9 c1, X10 b2, X11 c2, X12 step,
	// X13 eps, X7 decay.
	MOVSS  0(AX), X8
	SHUFPS $0, X8, X8
	MOVSS  4(AX), X9
	SHUFPS $0, X9, X9
	MOVSS  8(AX), X10
	SHUFPS $0, X10, X10
	MOVSS  12(AX), X11
	SHUFPS $0, X11, X11
	MOVSS  16(AX), X12
	SHUFPS $0, X12, X12
	MOVSS  20(AX), X13
	SHUFPS $0, X13, X13
	MOVSS  24(AX), X7
	SHUFPS $0, X7, X7

	// X14 selects the exponent field; X15 is zero.
	MOVL   $0x7f800000, BX
	MOVL   BX, X14
	SHUFPS $0, X14, X14
	PXOR   X15, X15

	XORQ DX, DX
	JMP  check

loop:
	MOVUPS (SI)(DX*4), X0 // g
	MOVUPS (R8)(DX*4), X1 // m
	MOVUPS (R9)(DX*4), X2 // v

	// m·b1 + c1·g, flushed.
	MULPS  X8, X1
	MOVAPS X0, X3
	MULPS  X9, X3
	ADDPS  X3, X1
	MOVAPS X1, X3
	ANDPS  X14, X3
	PCMPEQL X15, X3 // all ones where the exponent field is 0
	ANDNPS X1, X3
	MOVUPS X3, (R8)(DX*4)

	// v·b2 + (c2·g)·g, flushed.
	MULPS  X10, X2
	MOVAPS X0, X4
	MULPS  X11, X4
	MULPS  X0, X4
	ADDPS  X4, X2
	MOVAPS X2, X4
	ANDPS  X14, X4
	PCMPEQL X15, X4
	ANDNPS X2, X4
	MOVUPS X4, (R9)(DX*4)

	// p·decay + (step·m) / (√v + eps).
	SQRTPS X4, X5
	ADDPS  X13, X5
	MULPS  X12, X3
	DIVPS  X5, X3
	MOVUPS (DI)(DX*4), X6
	MULPS  X7, X6
	ADDPS  X3, X6
	MOVUPS X6, (DI)(DX*4)

	ADDQ $4, DX

check:
	CMPQ DX, CX
	JLT  loop
	RET

// func adamAVX2(p, g, m, v []float32, k *adamCoef)
//
// adamSSE eight elements at a time with the same operations in the same
// order (len(g) is a multiple of 8), so the results are bit-identical.
TEXT ·adamAVX2(SB), NOSPLIT, $0-104
	MOVQ p_base+0(FP), DI
	MOVQ g_base+24(FP), SI
	MOVQ g_len+32(FP), CX
	MOVQ m_base+48(FP), R8
	MOVQ v_base+72(FP), R9
	MOVQ k+96(FP), AX

	// Y8 b1, Y9 c1, Y10 b2, Y11 c2, Y12 step, Y13 eps, Y7 decay.
	VBROADCASTSS 0(AX), Y8
	VBROADCASTSS 4(AX), Y9
	VBROADCASTSS 8(AX), Y10
	VBROADCASTSS 12(AX), Y11
	VBROADCASTSS 16(AX), Y12
	VBROADCASTSS 20(AX), Y13
	VBROADCASTSS 24(AX), Y7

	// Y14 selects the exponent field; Y15 is zero.
	MOVL         $0x7f800000, BX
	MOVL         BX, X14
	VBROADCASTSS X14, Y14
	VXORPS       Y15, Y15, Y15

	XORQ DX, DX
	JMP  check8

loop8:
	VMOVUPS (SI)(DX*4), Y0 // g
	VMOVUPS (R8)(DX*4), Y1 // m
	VMOVUPS (R9)(DX*4), Y2 // v

	// m·b1 + c1·g, flushed.
	VMULPS   Y8, Y1, Y1
	VMULPS   Y9, Y0, Y3
	VADDPS   Y3, Y1, Y1
	VANDPS   Y14, Y1, Y3
	VPCMPEQD Y15, Y3, Y3 // all ones where the exponent field is 0
	VANDNPS  Y1, Y3, Y3
	VMOVUPS  Y3, (R8)(DX*4)

	// v·b2 + (c2·g)·g, flushed.
	VMULPS   Y10, Y2, Y2
	VMULPS   Y11, Y0, Y4
	VMULPS   Y0, Y4, Y4
	VADDPS   Y4, Y2, Y2
	VANDPS   Y14, Y2, Y4
	VPCMPEQD Y15, Y4, Y4
	VANDNPS  Y2, Y4, Y4
	VMOVUPS  Y4, (R9)(DX*4)

	// p·decay + (step·m) / (√v + eps).
	VSQRTPS Y4, Y5
	VADDPS  Y13, Y5, Y5
	VMULPS  Y12, Y3, Y3
	VDIVPS  Y5, Y3, Y3
	VMOVUPS (DI)(DX*4), Y6
	VMULPS  Y7, Y6, Y6
	VADDPS  Y3, Y6, Y6
	VMOVUPS Y6, (DI)(DX*4)

	ADDQ $8, DX

check8:
	CMPQ DX, CX
	JLT  loop8
	VZEROUPPER
	RET

// func hasAVX2() bool
//
// CPUID leaf 7 reports AVX2 (EBX bit 5); leaf 1 reports OSXSAVE (ECX bit
// 27), and XGETBV that the OS saves the SSE and AVX registers (XCR0 bits 1
// and 2).
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	MOVB $0, ret+0(FP)
	MOVL $0, AX
	CPUID
	CMPL AX, $7
	JLT  done
	MOVL $1, AX
	MOVL $0, CX
	CPUID
	BTL  $27, CX
	JCC  done
	MOVL $0, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  done
	MOVL $7, AX
	MOVL $0, CX
	CPUID
	BTL  $5, BX
	JCC  done
	MOVB $1, ret+0(FP)

done:
	RET
