package servers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// ownerFile is the marker Start writes into every server directory: which
// sqlbench process started the server (see Sweep).
const ownerFile = "sqlbench-owner.json"

// owner is the content of ownerFile. PID, Start and Boot together name one
// process: a PID reused by a later process has another start time, and
// after a reboot the boot id differs.
type owner struct {
	// PID is the process that called Start.
	PID int `json:"pid"`
	// Start is its start time in clock ticks after boot, field 22 of
	// /proc/PID/stat.
	Start uint64 `json:"start"`
	// Boot is /proc/sys/kernel/random/boot_id at the time.
	Boot string `json:"boot"`
	// Kind is the server's kind.
	Kind Kind `json:"kind"`
	// Detached is set for a server meant to outlive PID (Options.Detach).
	Detached bool `json:"detached"`
}

// writeOwner records this process as the owner of the server directory dir.
func writeOwner(dir string, kind Kind, detached bool) error {
	start, err := processStart(os.Getpid())
	if err != nil {
		return fmt.Errorf("record the owner of %s: %w", dir, err)
	}
	data, err := json.Marshal(owner{PID: os.Getpid(), Start: start, Boot: bootID(), Kind: kind, Detached: detached})
	if err != nil {
		return fmt.Errorf("record the owner of %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("record the owner of %s: %w", dir, err)
	}
	return nil
}

// readOwner reads the marker of dir; an error wrapping os.ErrNotExist means
// dir has none.
func readOwner(dir string) (owner, error) {
	var o owner
	data, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return o, err
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return o, fmt.Errorf("read %s: %w", filepath.Join(dir, ownerFile), err)
	}
	if _, err := ParseKind(string(o.Kind)); err != nil || o.PID <= 0 {
		return o, fmt.Errorf("read %s: not a server owner record", filepath.Join(dir, ownerFile))
	}
	return o, nil
}

// alive reports whether the owning process still runs. When that cannot be
// told (no /proc), it answers yes, so that nothing is removed on a guess.
func (o owner) alive() bool {
	if !procMounted() {
		return true
	}
	if boot := bootID(); boot != "" && o.Boot != "" && boot != o.Boot {
		return false
	}
	start, err := processStart(o.PID)
	return err == nil && start == o.Start && processRunning(o.PID)
}

// processStart returns the start time of pid in clock ticks after boot.
func processStart(pid int) (uint64, error) {
	st, err := procs.Stat(pid)
	return st.Starttime, err
}

// bootID returns this boot's id, or "" if the kernel does not tell.
func bootID() string { return procs.BootID() }

// serverPIDs lists the running processes whose command line names the data
// directory inside dir: the server (MariaDB's mariadbd, PostgreSQL's
// postmaster) started on dir.
func serverPIDs(dir string) []int {
	all, _ := procs.PIDs()
	var pids []int
	for _, pid := range all {
		if pid != os.Getpid() && ownsProcess(pid, dir) && processRunning(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Sweep removes what earlier sqlbench processes that are gone left of
// their throwaway servers in os.TempDir(): each server directory ("sqb-*")
// whose marker names an owner process that no longer runs (the marker holds
// the owner's PID, start time and boot id, so a reused PID is not taken for
// the owner), together with PostgreSQL's System V shared memory segment
// recorded in it.
//
// A server still running on such a directory is stopped first, as Stop
// does: its owner can no longer use it, and a directory cannot be removed
// from under a running server. The exception is a server started with
// Options.Detach (sqlbench server start), which is meant to outlive its
// owner: it is left alone while it runs, and only its directory is swept
// once it has died, with its state file in DefaultStateDir(). Directories
// without a marker (not sqlbench's, or from an older version) and those of
// live owners, such as a concurrent session's, are never touched.
//
// Sweep returns the directories it removed and an error naming each it
// could not; it writes one line per removal to log (nil discards them).
func Sweep(log io.Writer) (removed []string, err error) {
	return sweep(os.TempDir(), log)
}

// sweep is Sweep in the directory parent.
func sweep(parent string, log io.Writer) ([]string, error) {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", parent, err)
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "sqb-") {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		o, err := readOwner(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if o.alive() {
			continue
		}
		pids := serverPIDs(dir)
		if o.Detached && len(pids) > 0 {
			continue
		}
		if err := stopOrphan(o.Kind, dir, pids); err != nil {
			errs = append(errs, fmt.Errorf("sweep %s: %w", dir, err))
			continue
		}
		removed = append(removed, dir)
		if log != nil {
			fmt.Fprintf(log, "removed %s server directory %s left by sqlbench pid %d, which is gone\n", o.Kind, dir,
				o.PID)
		}
		if o.Detached {
			if err := removeStatesOf(DefaultStateDir(), dir); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return removed, fmt.Errorf("sweep old servers: %w", joinErrors(errs))
	}
	return removed, nil
}

// stopOrphan stops the server processes pids running on dir, then removes
// the server's shared memory segment and dir, as Stop does.
func stopOrphan(kind Kind, dir string, pids []int) error {
	for _, pid := range pids {
		s := &Server{Kind: kind.Base(), Dir: dir, PID: pid}
		if err := s.kill(); err != nil {
			return err
		}
	}
	return (&Server{Kind: kind, Dir: dir}).Stop()
}

// removeStatesOf removes the state files in stateDir that record a server
// on dir.
func removeStatesOf(stateDir, dir string) error {
	all, err := LoadStates(stateDir)
	for _, s := range all {
		if s.Dir == dir {
			if rerr := RemoveState(stateDir, s); rerr != nil {
				return rerr
			}
		}
	}
	return err
}
