package runner

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PeakRSSUnit is the unit of the runner's peak resident set size during a
// run, in bytes: the memory a streamed bulk insert must keep flat.
const PeakRSSUnit = "peak-RSS-B"

// resetPeakRSS clears the process's resident-set high-water mark, so that
// the next peakRSS reads the peak since now (Linux: writing 5 to
// /proc/self/clear_refs). Elsewhere it fails and the peak goes unreported.
func resetPeakRSS() error {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("reset peak RSS: %w", err)
	}
	return nil
}

// peakRSS returns the process's resident-set high-water mark in bytes
// (VmHWM of /proc/self/status).
func peakRSS() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("read peak RSS: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("read peak RSS: VmHWM %q: %w", v, err)
		}
		return kb << 10, nil
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("read peak RSS: %w", err)
	}
	return 0, errors.New("read peak RSS: no VmHWM in /proc/self/status")
}
