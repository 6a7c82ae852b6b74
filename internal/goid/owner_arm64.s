//go:build race

#include "textflag.h"

// Plain loads and stores, which the race detector does not instrument
// (owner_word.go).

// func load64Relaxed(p *uint64) uint64
TEXT ·load64Relaxed(SB), NOSPLIT, $0-16
	MOVD	p+0(FP), R0
	MOVD	(R0), R1
	MOVD	R1, ret+8(FP)
	RET

// func store64Relaxed(p *uint64, v uint64)
TEXT ·store64Relaxed(SB), NOSPLIT, $0-16
	MOVD	p+0(FP), R0
	MOVD	v+8(FP), R1
	MOVD	R1, (R0)
	RET
