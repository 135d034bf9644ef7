package servers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// Stop budget: the server gets stopGrace to shut down cleanly after the stop
// signal, then it and its process group are killed; killWait bounds the wait
// for them to disappear.
const (
	stopGrace = 1500 * time.Millisecond
	killWait  = 400 * time.Millisecond
)

// Stop shuts the server down and removes Dir. It sends the stop signal
// (MariaDB: SIGTERM; PostgreSQL: SIGINT, its "fast shutdown", since SIGTERM
// there waits for clients to leave), waits up to 1.5 s, then SIGKILLs the
// server's process group and its children, and returns once the process is
// gone; about 2 s at worst. A killed PostgreSQL's System V shared memory
// segment is removed too. It works on a Server loaded from a state file by
// another process (it then acts on PID, after checking that PID still runs
// a server on Dir), and is safe to call again.
//
// A cluster (Nodes) has each of its nodes stopped so, all at once, before
// its directory is removed.
func (s *Server) Stop() error {
	var errs []error
	if err := s.killAll(); err != nil {
		errs = append(errs, err)
	} else if s.Kind.Base() == KindPostgres && s.Dir != "" {
		removeSegments(s.Dir)
	}
	if s.Dir != "" {
		if !isServerDir(s.Dir) {
			errs = append(errs, fmt.Errorf("refusing to remove %q: not a server directory", s.Dir))
		} else if err := os.RemoveAll(s.Dir); err != nil {
			errs = append(errs, fmt.Errorf("remove server directory: %w", err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("stop %s on port %d: %w", s.Kind, s.Port, joinErrors(errs))
	}
	return nil
}

// isServerDir guards RemoveAll against a damaged state file.
func isServerDir(dir string) bool {
	return filepath.IsAbs(dir) && strings.HasPrefix(filepath.Base(dir), "sqb-")
}

// killAll stops the server process, or every node of a cluster, in
// parallel so that a cluster's stop costs one node's.
func (s *Server) killAll() error {
	if len(s.Nodes) == 0 {
		return s.kill()
	}
	errs := make([]error, len(s.Nodes))
	var wg sync.WaitGroup
	for i, n := range s.Nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := n.kill(); err != nil {
				errs[i] = fmt.Errorf("node %s: %w", n.Node, err)
			}
		}()
	}
	wg.Wait()
	return joinErrors(errs)
}

// kill stops the server process; nothing to do if it is already gone or PID
// now belongs to some other program.
func (s *Server) kill() error {
	if s.PID <= 0 {
		return nil
	}
	gone := func() bool { return !processRunning(s.PID) }
	if s.proc != nil {
		gone = s.proc.exited
	} else if !ownsProcess(s.PID, s.Dir) {
		return nil
	}
	if gone() {
		return nil
	}
	sig := syscall.SIGTERM
	if s.Kind.Base() == KindPostgres {
		sig = syscall.SIGINT
	}
	if err := syscall.Kill(s.PID, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signal pid %d: %w", s.PID, err)
	}
	if waitUntil(gone, stopGrace) {
		// Anything left in the group (there should be nothing) goes too.
		_ = syscall.Kill(-s.PID, syscall.SIGKILL)
		return nil
	}
	// PostgreSQL's backends lead their own process groups, so the group
	// kill misses them: kill the children one by one.
	kids := childrenOf(s.PID)
	_ = syscall.Kill(-s.PID, syscall.SIGKILL)
	_ = syscall.Kill(s.PID, syscall.SIGKILL)
	for _, k := range kids {
		_ = syscall.Kill(k, syscall.SIGKILL)
	}
	if !waitUntil(gone, killWait) {
		return fmt.Errorf("pid %d still running after SIGKILL", s.PID)
	}
	return nil
}

// waitUntil polls cond until it holds or d passes, and reports whether it held.
func waitUntil(cond func() bool, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processRunning reports whether pid exists and is not a zombie.
func processRunning(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	st, err := procs.Stat(pid)
	if err != nil {
		return !procs.Gone(err) || !procMounted()
	}
	return st.State != "Z"
}

// ownsProcess reports whether pid still runs the server whose directory is
// dir (its command line names the data directory inside dir), so that a
// reused PID is never signalled. Without /proc it trusts the PID.
func ownsProcess(pid int, dir string) bool {
	if dir == "" {
		return false
	}
	args, err := procs.CmdLine(pid)
	if err != nil {
		return procs.Gone(err) && !procMounted() && processRunning(pid)
	}
	return strings.Contains(strings.Join(args, "\x00"), filepath.Join(dir, "data"))
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	all, _ := procs.PIDs()
	var kids []int
	for _, n := range all {
		if st, err := procs.Stat(n); err == nil && st.PPID == pid {
			kids = append(kids, n)
		}
	}
	return kids
}

func procMounted() bool { return procs.Mounted() }

// sysvSegment returns the key and id of the small System V shared memory
// segment recorded in the data directory's postmaster.pid (line 7), or -1s.
// A postmaster or initdb's standalone backend that dies by SIGKILL leaves
// the segment behind and the file in place; a clean exit removes both.
func sysvSegment(s *Server) (key, id int) {
	return sysvSegmentIn(s.Dir)
}

// sysvSegmentIn is sysvSegment for the server directory dir.
func sysvSegmentIn(dir string) (key, id int) {
	b, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
	if err != nil {
		return -1, -1
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 7 {
		return -1, -1
	}
	f := strings.Fields(lines[6])
	if len(f) != 2 {
		return -1, -1
	}
	key, err1 := strconv.Atoi(f[0])
	id, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return -1, -1
	}
	return key, id
}

// removeSegments removes the System V segments left in the server
// directory dir: its own, or for a cluster those of the node directories
// dir/data/NODE (see Server.Nodes).
func removeSegments(dir string) {
	removeSysvSegment(sysvSegmentIn(dir))
	nodes, _ := filepath.Glob(filepath.Join(dir, "data", "*", "data", "postmaster.pid"))
	for _, p := range nodes {
		removeSysvSegment(sysvSegmentIn(filepath.Dir(filepath.Dir(p))))
	}
}

// removeSysvSegment removes a System V shared memory segment once nothing
// is attached to it, if /proc/sysvipc/shm shows that id still has that key
// (so that a reused id is left alone).
func removeSysvSegment(key, id int) {
	if id < 0 {
		return
	}
	if procs.SharedMemory(key, id) {
		const ipcRMID = 0
		_, _, _ = syscall.Syscall(syscall.SYS_SHMCTL, uintptr(id), ipcRMID, 0)
	}
}
