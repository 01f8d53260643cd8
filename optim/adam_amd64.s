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
