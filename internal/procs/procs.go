// Package procs reads this machine's processes from the proc file system:
// with github.com/prometheus/procfs for what it parses (a process's stat,
// command line, threads and their schedstat, open files, the socket
// tables, meminfo, a process's status), and by hand for the few files it does not read (the
// boot id, a thread's children and its sched counts, System V shared memory);
// the CPU time of a process tree (Tree) and the process that listens on a
// loopback port or a unix socket (Listener). No other package of sqlbench
// parses /proc/<pid>/stat.
package procs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
)

// Mount is where the proc file system is mounted.
const Mount = procfs.DefaultMountPoint

// FS returns the proc file system mounted at mount ("" for Mount).
func FS(mount string) (procfs.FS, error) {
	if mount == "" {
		mount = Mount
	}
	return procfs.NewFS(mount)
}

// Mounted reports whether /proc is there to read.
func Mounted() bool {
	_, err := os.Stat(filepath.Join(Mount, "self", "stat"))
	return err == nil
}

// Stat returns /proc/<pid>/stat as procfs reads it. An error for a process
// that does not exist wraps fs.ErrNotExist.
func Stat(pid int) (procfs.ProcStat, error) {
	p, err := proc(pid)
	if err != nil {
		return procfs.ProcStat{}, err
	}
	return p.Stat()
}

// proc returns the process pid of /proc.
func proc(pid int) (procfs.Proc, error) {
	f, err := FS("")
	if err != nil {
		return procfs.Proc{}, err
	}
	return f.Proc(pid)
}

// Gone reports whether err says the process (or /proc) is not there.
func Gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist)
}

// PIDs lists the processes of this machine.
func PIDs() ([]int, error) {
	f, err := FS("")
	if err != nil {
		return nil, err
	}
	all, err := f.AllProcs()
	pids := make([]int, len(all))
	for i, p := range all {
		pids[i] = p.PID
	}
	return pids, err
}

// CmdLine returns the arguments pid was started with.
func CmdLine(pid int) ([]string, error) {
	p, err := proc(pid)
	if err != nil {
		return nil, err
	}
	return p.CmdLine()
}

// MemTotal returns the machine's memory (MemTotal of /proc/meminfo) in
// bytes.
func MemTotal() (int64, error) {
	f, err := FS("")
	if err != nil {
		return 0, err
	}
	m, err := f.Meminfo()
	if err != nil {
		return 0, err
	}
	if m.MemTotalBytes == nil {
		return 0, errors.New("/proc/meminfo has no MemTotal")
	}
	return int64(*m.MemTotalBytes), nil
}

// PeakRSS returns this process's resident-set high-water mark in bytes
// (VmHWM of /proc/self/status).
func PeakRSS() (int64, error) {
	f, err := FS("")
	if err != nil {
		return 0, err
	}
	p, err := f.Self()
	if err != nil {
		return 0, err
	}
	st, err := p.NewStatus()
	if err != nil {
		return 0, err
	}
	if st.VmHWM == 0 {
		return 0, errors.New("/proc/self/status has no VmHWM")
	}
	return int64(st.VmHWM), nil
}

// BootID returns this boot's id (/proc/sys/kernel/random/boot_id), or "" if
// the kernel does not tell. procfs does not read it.
func BootID() string {
	b, err := os.ReadFile(filepath.Join(Mount, "sys", "kernel", "random", "boot_id"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Children returns the child processes that thread tid of process pid
// started (/proc/<pid>/task/<tid>/children; procfs does not read it), in
// the proc file system at mount ("" for Mount). A thread that is gone has
// none.
func Children(mount string, pid, tid int) []int {
	if mount == "" {
		mount = Mount
	}
	b, err := os.ReadFile(filepath.Join(mount, strconv.Itoa(pid), "task", strconv.Itoa(tid), "children"))
	if err != nil {
		return nil
	}
	var kids []int
	for _, s := range strings.Fields(string(b)) {
		if k, err := strconv.Atoi(s); err == nil {
			kids = append(kids, k)
		}
	}
	return kids
}

// SharedMemory reports whether /proc/sysvipc/shm lists a System V shared
// memory segment with this key and id (procfs does not read it).
func SharedMemory(key, id int) bool {
	b, err := os.ReadFile(filepath.Join(Mount, "sysvipc", "shm"))
	if err != nil {
		return false
	}
	want := []string{strconv.Itoa(key), strconv.Itoa(id)}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == want[0] && f[1] == want[1] {
			return true
		}
	}
	return false
}

// CPUTotals returns the machine's CPU time since boot in seconds, summed
// over its CPUs (the cpu line of /proc/stat): all of it, and the part the
// hypervisor gave to others while this machine's CPUs wanted to run
// (steal). The share of steal in the difference of two readings is how
// much of that interval the host took away.
func CPUTotals() (total, steal float64, err error) {
	f, err := FS("")
	if err != nil {
		return 0, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	c := st.CPUTotal
	total = c.User + c.Nice + c.System + c.Idle + c.Iowait + c.IRQ + c.SoftIRQ + c.Steal
	return total, c.Steal, nil
}

// ThreadSched is what the scheduler counted for one thread
// (/proc/thread-self/sched, which procfs does not read).
type ThreadSched struct {
	// Migrations is how often the thread moved to another CPU.
	Migrations int64
	// Involuntary is how often the thread was switched out while it could
	// still run (preempted), Voluntary how often it gave up its CPU itself
	// (to wait or sleep).
	Involuntary, Voluntary int64
}

// SelfThreadSched returns the calling thread's scheduler counts; the
// caller locks its goroutine to its thread (runtime.LockOSThread) for two
// readings to be of one thread.
func SelfThreadSched() (ThreadSched, error) {
	b, err := os.ReadFile(filepath.Join(Mount, "thread-self", "sched"))
	if err != nil {
		return ThreadSched{}, err
	}
	return parseThreadSched(string(b))
}

// parseThreadSched reads the counts of ThreadSched from the text of a
// sched file: lines of "name : value".
func parseThreadSched(text string) (ThreadSched, error) {
	var t ThreadSched
	found := 0
	for _, line := range strings.Split(text, "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		var dst *int64
		switch strings.TrimSpace(name) {
		case "se.nr_migrations":
			dst = &t.Migrations
		case "nr_involuntary_switches":
			dst = &t.Involuntary
		case "nr_voluntary_switches":
			dst = &t.Voluntary
		default:
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return ThreadSched{}, fmt.Errorf("sched: %s: %w", strings.TrimSpace(name), err)
		}
		*dst = n
		found++
	}
	if found != 3 {
		return ThreadSched{}, errors.New("sched: no migration and switch counts")
	}
	return t, nil
}

// SelfFaults returns this process's page faults since it started: minor
// (the page was in memory, or zero-filled) and major (read from disk).
func SelfFaults() (minor, major uint64, err error) {
	st, err := Stat(os.Getpid())
	if err != nil {
		return 0, 0, err
	}
	return uint64(st.MinFlt), uint64(st.MajFlt), nil
}
