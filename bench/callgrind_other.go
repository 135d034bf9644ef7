//go:build !amd64

package bench

// callgrindRequest does nothing where sqlbench does not make Valgrind
// client requests (every architecture but amd64): --measure instructions
// then counts no timed region, and says so.
func callgrindRequest(uintptr) uintptr { return 0 }
