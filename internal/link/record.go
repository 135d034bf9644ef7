package link

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// recordPrefix begins the name of every proxy's record directory under
// os.TempDir().
const recordPrefix = "sqblink-"

// recordFile is the record inside it.
const recordFile = "proxy.json"

// record names the proxy process and the sqlbench process that started
// it. A PID with its start time (field 22 of /proc/PID/stat) and the boot
// id names one process: a reused PID has another start time.
type record struct {
	Owner      int    `json:"owner"`
	OwnerStart uint64 `json:"owner_start"`
	Proxy      int    `json:"proxy"`
	ProxyStart uint64 `json:"proxy_start"`
	Boot       string `json:"boot"`
}

// writeRecord records this process as the owner of proxy process pid, in
// a directory of its own under os.TempDir(), and returns the directory.
func writeRecord(pid int) (string, error) {
	own, err := procs.Stat(os.Getpid())
	if err != nil {
		return "", fmt.Errorf("link: record the proxy: %w", err)
	}
	px, err := procs.Stat(pid)
	if err != nil {
		return "", fmt.Errorf("link: record the proxy: %w", err)
	}
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", recordPrefix, os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("link: record the proxy: %w", err)
	}
	data, _ := json.Marshal(record{Owner: os.Getpid(), OwnerStart: own.Starttime, Proxy: pid, ProxyStart: px.Starttime,
		Boot: procs.BootID()})
	if err := os.WriteFile(filepath.Join(dir, recordFile), append(data, '\n'), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("link: record the proxy: %w", err)
	}
	return dir, nil
}

// same reports whether pid is the process that started at start in boot
// (false for one that is gone or a reused PID).
func same(pid int, start uint64, boot string) bool {
	if b := procs.BootID(); b != "" && boot != "" && b != boot {
		return false
	}
	st, err := procs.Stat(pid)
	return err == nil && st.Starttime == start && st.State != "Z"
}

// Sweep removes the link proxies that sqlbench processes now gone left
// (a session killed with SIGKILL, whose proxy outlived it): it kills each
// such proxy still running and removes its record, and writes one line per
// proxy to log (nil: none). The proxies of live sessions are left alone.
// It returns how many it removed and an error naming each it could not.
func Sweep(log io.Writer) (int, error) { return sweep(os.TempDir(), log) }

func sweep(parent string, log io.Writer) (int, error) {
	if !procs.Mounted() {
		return 0, nil // no way to tell a live owner: remove nothing on a guess
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return 0, fmt.Errorf("sweep link proxies: %w", err)
	}
	n := 0
	var errs []error
	for _, ent := range entries {
		if !ent.IsDir() || !strings.HasPrefix(ent.Name(), recordPrefix) {
			continue
		}
		dir := filepath.Join(parent, ent.Name())
		data, err := os.ReadFile(filepath.Join(dir, recordFile))
		if errors.Is(err, os.ErrNotExist) {
			continue // being written, or not ours
		}
		var r record
		if err == nil {
			err = json.Unmarshal(data, &r)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", dir, err))
			continue
		}
		if same(r.Owner, r.OwnerStart, r.Boot) {
			continue
		}
		running := same(r.Proxy, r.ProxyStart, r.Boot)
		if running {
			if err := kill(r.Proxy, r.ProxyStart, r.Boot); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, fmt.Errorf("remove %s: %w", dir, err))
			continue
		}
		n++
		if log != nil {
			what := "its record"
			if running {
				what = fmt.Sprintf("proxy process %d", r.Proxy)
			}
			fmt.Fprintf(log, "removed link %s left by sqlbench pid %d, which is gone\n", what, r.Owner)
		}
	}
	return n, errors.Join(errs...)
}

// kill ends proxy process pid (SIGTERM, then SIGKILL after 3 s) and waits
// until it is gone.
func kill(pid int, start uint64, boot string) error {
	syscall.Kill(pid, syscall.SIGTERM)
	for i := 0; i < 60; i++ {
		if !same(pid, start, boot) {
			return nil
		}
		if i == 30 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("link proxy process %d does not end", pid)
}
