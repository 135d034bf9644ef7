// Package proccpu reads the CPU time of a server's processes on this
// machine from /proc: every thread of a process and of its descendants
// (a PostgreSQL postmaster's backends, MariaDB's one process), and finds
// the process that listens on a loopback port or a unix socket.
package proccpu

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of the cumulative times in /proc/<pid>/stat
// (USER_HZ, 100 on every Linux ABI in use).
const clockTick = 10 * time.Millisecond

// Tree reads the CPU time of a process tree, rooted at a pid.
type Tree struct {
	// Root is the tree's root process (a server's main process).
	Root int
	// Proc is the proc file system's mount point; empty means /proc.
	Proc string
}

func (t Tree) proc() string {
	if t.Proc == "" {
		return "/proc"
	}
	return t.Proc
}

// CPU returns the CPU time, user and system, that the root process and its
// descendants have run so far: each live thread's run time in nanoseconds
// (schedstat), plus the children each process has reaped (cutime and
// cstime, in clock ticks: a backend that exits between two reads is
// counted whole by its parent). Threads that exited from a live process
// are not counted, and neither are processes that exit unreaped; a server
// keeps its connections' threads and processes for as long as the
// connections last.
func (t Tree) CPU() (time.Duration, error) {
	if t.Root <= 0 {
		return 0, fmt.Errorf("no server process")
	}
	var total time.Duration
	pids := []int{t.Root}
	for len(pids) > 0 {
		pid := pids[len(pids)-1]
		pids = pids[:len(pids)-1]
		d, kids, err := t.process(pid)
		if err != nil {
			if pid == t.Root {
				return 0, err
			}
			continue // a descendant that has just exited
		}
		total += d
		pids = append(pids, kids...)
	}
	return total, nil
}

// process returns the CPU time of pid's live threads and reaped children,
// and pid's child processes.
func (t Tree) process(pid int) (time.Duration, []int, error) {
	dir := filepath.Join(t.proc(), strconv.Itoa(pid))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU: %w", err)
	}
	reaped, err := reapedTicks(stat)
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU of pid %d: %w", pid, err)
	}
	total := time.Duration(reaped) * clockTick
	tasks, err := os.ReadDir(filepath.Join(dir, "task"))
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU: %w", err)
	}
	var kids []int
	for _, task := range tasks {
		tdir := filepath.Join(dir, "task", task.Name())
		if ss, err := os.ReadFile(filepath.Join(tdir, "schedstat")); err == nil {
			if f := strings.Fields(string(ss)); len(f) > 0 {
				ns, _ := strconv.ParseInt(f[0], 10, 64)
				total += time.Duration(ns)
			}
		}
		if ch, err := os.ReadFile(filepath.Join(tdir, "children")); err == nil {
			for _, s := range strings.Fields(string(ch)) {
				if k, err := strconv.Atoi(s); err == nil {
					kids = append(kids, k)
				}
			}
		}
	}
	return total, kids, nil
}

// reapedTicks returns cutime+cstime from the contents of a stat file.
func reapedTicks(stat []byte) (int64, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("unreadable stat")
	}
	// After ")": state(3) ppid ... utime(14) stime(15) cutime(16) cstime(17).
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 15 {
		return 0, fmt.Errorf("short stat")
	}
	cu, err1 := strconv.ParseInt(f[13], 10, 64)
	cs, err2 := strconv.ParseInt(f[14], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unreadable stat")
	}
	return cu + cs, nil
}
