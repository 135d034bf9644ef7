package procs

import (
	"fmt"
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
	fs, err := FS(t.Proc)
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU: %w", err)
	}
	p, err := fs.Proc(pid)
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU: %w", err)
	}
	st, err := p.Stat()
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU of pid %d: %w", pid, err)
	}
	total := time.Duration(st.CUTime+st.CSTime) * clockTick
	threads, err := fs.AllThreads(pid)
	if err != nil {
		return 0, nil, fmt.Errorf("read server CPU: %w", err)
	}
	var kids []int
	for _, th := range threads {
		if ss, err := th.Schedstat(); err == nil {
			total += time.Duration(ss.RunningNanoseconds)
		}
		kids = append(kids, Children(t.Proc, pid, th.PID)...)
	}
	return total, kids, nil
}
