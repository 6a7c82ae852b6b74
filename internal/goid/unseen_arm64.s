//go:build race

#include "textflag.h"

// The instructions Go's runtime uses for the same operations
// (internal/runtime/atomic, its load-exclusive/store-exclusive loop for
// the CAS), in functions the race detector does not instrument
// (unseen.go).

// func casRelaxed(p *uint32, old, new uint32) (swapped bool)
TEXT ·casRelaxed(SB), NOSPLIT, $0-17
	MOVD	p+0(FP), R0
	MOVWU	old+8(FP), R1
	MOVWU	new+12(FP), R2
again:
	LDAXRW	(R0), R3
	CMPW	R1, R3
	BNE	done
	STLXRW	R2, (R0), R3
	CBNZ	R3, again
done:
	CSET	EQ, R0
	MOVB	R0, swapped+16(FP)
	RET

// func storeRelaxed(p *uint32, v uint32)
TEXT ·storeRelaxed(SB), NOSPLIT, $0-12
	MOVD	p+0(FP), R0
	MOVWU	v+8(FP), R1
	MOVW	R1, (R0)
	RET

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
