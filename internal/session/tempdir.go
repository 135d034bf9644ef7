package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// tempPrefix begins the name of every session's temp directory (its
// SQLite files), followed by the session process's PID.
const tempPrefix = "sqlbench-"

// makeTemp creates the session's temp directory, named after this process
// so that a later session can tell it from a live one's.
func makeTemp() (string, error) {
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", tempPrefix, os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("temp dir: %w", err)
	}
	return dir, nil
}

// sweepTemp removes the temp directories of earlier sessions whose process
// is gone (killed before it could remove them) and says so on log. A
// directory whose PID runs is left alone, whoever runs it now: a reused
// PID costs a directory left, never a live session's files.
func sweepTemp(log io.Writer) {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), tempPrefix)
		pidText, _, dash := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || !dash || err != nil || pid <= 0 || !e.IsDir() || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); err == nil || !errors.Is(err, syscall.ESRCH) {
			continue // alive (or not ours to signal): not gone
		}
		dir := filepath.Join(os.TempDir(), e.Name())
		if err := os.RemoveAll(dir); err == nil {
			fmt.Fprintf(log, "removed %s, left by a sqlbench session that was killed\n", dir)
		}
	}
}
