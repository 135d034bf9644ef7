package runner

import (
	"fmt"
	"os"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// resetPeakRSS clears the process's resident-set high-water mark, so that
// the next peakRSS reads the peak since now (Linux: writing 5 to
// /proc/self/clear_refs), and returns the mark right after the reset: the
// resident size now. Elsewhere it fails and the peak goes unreported.
func resetPeakRSS() (int64, error) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, fmt.Errorf("reset peak RSS: %w", err)
	}
	return peakRSS()
}

// peakRSS returns the process's resident-set high-water mark in bytes
// (VmHWM of /proc/self/status).
func peakRSS() (int64, error) {
	n, err := procs.PeakRSS()
	if err != nil {
		return 0, fmt.Errorf("read peak RSS: %w", err)
	}
	return n, nil
}
