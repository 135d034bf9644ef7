package bench

// callgrindRequest makes the Valgrind client request req (no arguments)
// and returns its answer, 0 when no Valgrind runs the program.
//
//go:noescape
func callgrindRequest(req uintptr) uintptr
