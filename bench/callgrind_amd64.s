#include "textflag.h"

// func callgrindRequest(req uintptr) uintptr
//
// A Valgrind client request without arguments: AX points at the request
// and its five arguments, DX holds the value returned when no Valgrind
// runs. The four rotations of DI add up to 128 bits, leaving it as it
// was, and the exchange of BX with itself does nothing: on a CPU the
// sequence is a no-op, under Valgrind it is the request.
TEXT ·callgrindRequest(SB), NOSPLIT, $48-16
	MOVQ req+0(FP), R8
	MOVQ R8, 0(SP)
	MOVQ $0, 8(SP)
	MOVQ $0, 16(SP)
	MOVQ $0, 24(SP)
	MOVQ $0, 32(SP)
	MOVQ $0, 40(SP)
	LEAQ 0(SP), AX
	MOVQ $0, DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+8(FP)
	RET
