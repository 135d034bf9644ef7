// Package procs reads this machine's processes from the proc file system:
// with github.com/prometheus/procfs for what it parses (a process's stat,
// command line, threads and their schedstat, open files, the socket
// tables, meminfo, a process's status), and by hand for the few files it does not read (the
// boot id, a thread's children, System V shared memory); the CPU time of a
// process tree (Tree) and the process that listens on a loopback port or a
// unix socket (Listener). No other package of sqlbench parses
// /proc/<pid>/stat.
package procs

import (
	"errors"
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
