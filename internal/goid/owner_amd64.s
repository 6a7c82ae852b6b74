//go:build race

#include "textflag.h"

// Plain moves, which the race detector does not instrument (owner_word.go).

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
