//go:build !gorl_noasm

#include "textflag.h"

// func reluSSE(y, x []float32)
//
// y[i] = 0 where x[i]'s bits, as a signed integer, are at most 0xff800000
// (−0 through −Inf), and x[i] otherwise (positive values, +0 and every NaN).
// len(y) is a multiple of 4.
TEXT ·reluSSE(SB), NOSPLIT, $0-48
	MOVQ y_base+0(FP), DI
	MOVQ y_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVL $0xff800001, AX
	MOVL AX, X7
	PSHUFD $0, X7, X7 // X7 = int32(0xff800001) = −8388607 in every lane
	XORQ DX, DX
	JMP  check

loop:
	MOVUPS  (SI)(DX*4), X0
	MOVAPS  X7, X1
	PCMPGTL X0, X1 // all ones where −8388607 > x: x from −0 to −Inf
	PANDN   X0, X1 // x where the mask is clear
	MOVUPS  X1, (DI)(DX*4)
	ADDQ    $4, DX

check:
	CMPQ DX, CX
	JLT  loop
	RET

// func reluBackSSE(dst, g, y []float32, acc bool)
//
// dst[i] = g[i] (dst[i] + g[i] with acc) where y[i] is not +0, and 0
// (dst[i] + 0) where it is. len(g) is a multiple of 4.
TEXT ·reluBackSSE(SB), NOSPLIT, $0-73
	MOVQ dst_base+0(FP), DI
	MOVQ g_base+24(FP), SI
	MOVQ g_len+32(FP), CX
	MOVQ y_base+48(FP), R8
	MOVB acc+72(FP), AX
	PXOR X7, X7
	XORQ DX, DX
	TESTB AL, AL
	JNE  checkacc
	JMP  checkput

put:
	MOVUPS  (R8)(DX*4), X1
	PCMPEQL X7, X1 // all ones where y is +0
	MOVUPS  (SI)(DX*4), X0
	PANDN   X0, X1
	MOVUPS  X1, (DI)(DX*4)
	ADDQ    $4, DX

checkput:
	CMPQ DX, CX
	JLT  put
	RET

add:
	MOVUPS  (R8)(DX*4), X1
	PCMPEQL X7, X1
	MOVUPS  (SI)(DX*4), X0
	PANDN   X0, X1
	MOVUPS  (DI)(DX*4), X2
	ADDPS   X1, X2
	MOVUPS  X2, (DI)(DX*4)
	ADDQ    $4, DX

checkacc:
	CMPQ DX, CX
	JLT  add
	RET
