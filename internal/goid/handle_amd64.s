//go:build !explore

#include "textflag.h"

// func handle() uintptr
//
// The runtime keeps the running goroutine's g in a thread-local slot;
// (TLS*1) is the assembler's way to it on every amd64 system (the
// runtime's get_tls and g macros, go_tls.h).
TEXT ·handle(SB), NOSPLIT, $0-8
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ AX, ret+0(FP)
	RET
