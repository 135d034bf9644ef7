package runner

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// PriorityEnv names the environment variable that leaves a runner at the
// priority it was started with: SQLBENCH_PRIORITY=normal.
const PriorityEnv = "SQLBENCH_PRIORITY"

// RaisedNice is the nice value RaisePriority gives the runner.
const RaisedNice = -10

// RaisePriority raises the CPU priority of this process to RaisedNice, so
// that on a busy machine its timing thread waits less often behind other
// programs' work (docs/methodology.md, "What makes memory-heavy cells vary
// here": that wait is what made a memory-heavy cell vary). It changes no
// operation of a run, only who gets a CPU first. Linux gives a nice value
// to each thread (a new thread takes its creator's), so every thread of
// the process is raised; and where the scheduler groups processes by
// session (autogroup), a nice value counts only within its group, so a
// process that leads its own session (the launcher starts runners so)
// raises its group too. It needs CAP_SYS_NICE (or RLIMIT_NICE); without it
// nothing changes. env is the environment variable PriorityEnv's value:
// "normal" changes nothing. It returns what it did, for the results.
func RaisePriority(env string) string {
	if env == "normal" {
		return "normal (" + PriorityEnv + "=normal)"
	}
	if err := niceThreads(RaisedNice); err != nil {
		_ = niceThreads(0) // the threads raised before the one refused
		return fmt.Sprintf("normal (cannot raise: %v)", err)
	}
	what := fmt.Sprintf("nice %d", RaisedNice)
	switch grouped, err := ownAutogroup(); {
	case err != nil:
		what += fmt.Sprintf(" (its autogroup not raised: %v)", err)
	case grouped:
		if err := os.WriteFile("/proc/self/autogroup", []byte(strconv.Itoa(RaisedNice)), 0); err != nil {
			what += fmt.Sprintf(" (its autogroup not raised: %v)", err)
		} else {
			what += ", its own autogroup too"
		}
	}
	return what
}

// niceThreads sets the nice value of every thread of this process.
func niceThreads(nice int) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.Setpriority(unix.PRIO_PROCESS, tid, nice); err != nil && !errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("nice %d: %w", nice, err)
		}
	}
	return nil
}

// ownAutogroup reports whether the scheduler groups processes by session
// and this process leads its own session, so that its autogroup is its
// own: raising the group then raises no other program.
func ownAutogroup() (bool, error) {
	b, err := os.ReadFile("/proc/sys/kernel/sched_autogroup_enabled")
	if errors.Is(err, os.ErrNotExist) {
		return false, nil // no autogroups: the threads' nice values count
	}
	if err != nil {
		return false, err
	}
	if strings.TrimSpace(string(b)) != "1" {
		return false, nil
	}
	sid, err := unix.Getsid(0)
	if err != nil {
		return false, err
	}
	if sid != os.Getpid() {
		return false, errors.New("the runner shares its session, and so its autogroup, with other programs")
	}
	return true, nil
}
