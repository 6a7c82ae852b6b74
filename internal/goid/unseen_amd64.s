//go:build race

#include "textflag.h"

// The instructions Go's runtime uses for the same operations
// (internal/runtime/atomic), in functions the race detector does not
// instrument (unseen.go).

// func casRelaxed(p *uint32, old, new uint32) (swapped bool)
TEXT ·casRelaxed(SB), NOSPLIT, $0-17
	MOVQ	p+0(FP), BX
	MOVL	old+8(FP), AX
	MOVL	new+12(FP), CX
	LOCK
	CMPXCHGL	CX, 0(BX)
	SETEQ	swapped+16(FP)
	RET

// func storeRelaxed(p *uint32, v uint32)
TEXT ·storeRelaxed(SB), NOSPLIT, $0-12
	MOVQ	p+0(FP), BX
	MOVL	v+8(FP), AX
	MOVL	AX, 0(BX)
	RET

// func load64Relaxed(p *uint64) uint64
TEXT ·load64Relaxed(SB), NOSPLIT, $0-16
	MOVQ	p+0(FP), BX
	MOVQ	0(BX), AX
	MOVQ	AX, ret+8(FP)
	RET

// func store64Relaxed(p *uint64, v uint64)
TEXT ·store64Relaxed(SB), NOSPLIT, $0-16
	MOVQ	p+0(FP), BX
	MOVQ	v+8(FP), AX
	MOVQ	AX, 0(BX)
	RET
