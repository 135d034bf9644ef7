// Package pin places processes on CPUs: the server and the runner apart
// (split), together (same) or wherever the scheduler puts them (none). On a
// small machine this placement changes round-trip throughput several-fold,
// so it is a recorded setting of every run.
package pin

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// Mode is a placement policy.
type Mode string

// The placement policies.
const (
	Split Mode = "split"
	Same  Mode = "same"
	None  Mode = "none"
)

// ParseMode returns the mode named s.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case Split, Same, None:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown placement %q (valid: split, same, none)", s)
}

// Layout is the CPUs each side gets (server and runner); nil means
// unpinned.
type Layout struct {
	Mode           Mode
	Server, Runner []int
}

// LayoutFor returns the placement of mode on a machine with ncpu CPUs: split
// gives the server the first half and the runner the rest (on 2 CPUs: 0 and
// 1); same puts both on the last CPU. With one CPU every mode is none.
func LayoutFor(mode Mode, ncpu int) Layout {
	if ncpu < 2 || mode == None {
		return Layout{Mode: None}
	}
	switch mode {
	case Split:
		half := ncpu / 2
		return Layout{Mode: mode, Server: span(0, half), Runner: span(half, ncpu)}
	default: // Same
		return Layout{Mode: mode, Server: []int{ncpu - 1}, Runner: []int{ncpu - 1}}
	}
}

// Local returns the plan for this machine.
func Local(mode Mode) Layout { return LayoutFor(mode, runtime.NumCPU()) }

func span(from, to int) []int {
	var cpus []int
	for c := from; c < to; c++ {
		cpus = append(cpus, c)
	}
	return cpus
}

// String describes the plan for a config line.
func (p Layout) String() string {
	if p.Mode == None {
		return "none"
	}
	return fmt.Sprintf("%s (server cpus %s, runner cpus %s)", p.Mode, list(p.Server), list(p.Runner))
}

func list(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// Process pins every thread of process pid to cpus; threads and processes
// it starts later inherit the placement. Nil cpus leaves it alone.
func Process(pid int, cpus []int) error {
	if len(cpus) == 0 {
		return nil
	}
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	fs, err := procs.FS("")
	if err != nil {
		return fmt.Errorf("pin process %d: %w", pid, err)
	}
	threads, err := fs.AllThreads(pid)
	if err != nil {
		return fmt.Errorf("pin process %d: %w", pid, err)
	}
	for _, t := range threads {
		tid := t.PID
		if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
			return fmt.Errorf("pin process %d thread %d: %w", pid, tid, err)
		}
	}
	return nil
}
