package bench

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// threadClock reads the kernel's scheduler accounting of one OS thread: its
// time on a CPU (CLOCK_THREAD_CPUTIME_ID, which brings the running slice up
// to date) and its time waiting, runnable, in a run queue (the second field
// of /proc/thread-self/schedstat, run_delay, which only grows while the
// thread waits and so is current whenever the thread itself reads it; the
// first field, the CPU time, is only brought up to date at a tick or a
// switch, and would miss a short run on a thread that was never switched
// out). Both are in nanoseconds from the scheduler's clock. The clock is
// opened on the thread it reads (which must stay locked to the calling
// goroutine) and the file read with pread at offset 0, so that neither
// opening nor reading allocates: the readings sit inside a run's memory
// statistics.
type threadClock struct {
	fd  int
	tid int // the thread it was opened on
	buf [96]byte
}

// schedstatPath is the file a threadClock opens, NUL-terminated for the
// system call.
const schedstatPath = "/proc/thread-self/schedstat\x00"

// errNoSchedstat is returned where the kernel keeps no schedstat file (a
// kernel without CONFIG_SCHED_INFO, or /proc not mounted).
var errNoSchedstat = errors.New(
	"no /proc/thread-self/schedstat (kernel without CONFIG_SCHED_INFO, or /proc not mounted)")

// open opens the calling thread's schedstat file. The caller must have
// locked its goroutine to the thread (runtime.LockOSThread).
func (c *threadClock) open() error {
	var path [len(schedstatPath)]byte
	copy(path[:], schedstatPath)
	atFDCWD := unix.AT_FDCWD // a negative constant: converted at run time
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD),
		uintptr(unsafe.Pointer(&path[0])), uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if errno != 0 {
		c.fd = -1
		if errno == syscall.ENOENT {
			return errNoSchedstat
		}
		return fmt.Errorf("open %s: %w", schedstatPath[:len(schedstatPath)-1], errno)
	}
	c.fd, c.tid = int(fd), unix.Gettid()
	return nil
}

// onThread reports whether the calling goroutine runs on the thread the
// clock reads.
func (c *threadClock) onThread() bool { return unix.Gettid() == c.tid }

// read returns the calling thread's time on a CPU and its time waiting in
// a run queue so far; it must be called on the thread the clock was opened
// on.
func (c *threadClock) read() (onCPU, runQueue time.Duration, err error) {
	n, err := syscall.Pread(c.fd, c.buf[:], 0)
	if err != nil {
		return 0, 0, fmt.Errorf("read schedstat: %w", err)
	}
	_, rest, ok := leadingUint(c.buf[:n])
	if !ok {
		return 0, 0, errors.New("read schedstat: no CPU time")
	}
	rq, _, ok := leadingUint(rest)
	if !ok {
		return 0, 0, errors.New("read schedstat: no run-queue time")
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, 0, fmt.Errorf("read thread CPU: %w", err)
	}
	return time.Duration(ts.Nano()), time.Duration(rq), nil
}

// close closes the file; a clock that never opened does nothing.
func (c *threadClock) close() {
	if c.fd > 0 {
		_ = syscall.Close(c.fd)
		c.fd = -1
	}
}

// leadingUint parses the decimal number at the start of b (after spaces)
// and returns it with the rest of b.
func leadingUint(b []byte) (v uint64, rest []byte, ok bool) {
	i := 0
	for i < len(b) && b[i] == ' ' {
		i++
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		v = v*10 + uint64(b[i]-'0')
		i++
	}
	return v, b[i:], i > start
}

// processCPU returns the CPU time that every thread of this process has used
// so far, from the same scheduler accounting as a threadClock
// (CLOCK_PROCESS_CPUTIME_ID, nanoseconds); it does not allocate.
func processCPU() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0, fmt.Errorf("read process CPU: %w", err)
	}
	return time.Duration(ts.Nano()), nil
}

// threadTimes is what one timing thread's clock read over a run: its time on
// a CPU and in a run queue between the run's start and end.
type threadTimes struct {
	cpu, runQueue time.Duration
	err           error
}

// splitThread divides a timing thread's share of a run into on-CPU,
// run-queue and blocked time that add up to wall exactly, none negative:
// wall is the run's timed wall time and t the thread's times over it (both
// without the run's paused regions). When the scheduler's clock and the
// wall clock disagree so that CPU and run queue exceed the wall time (by
// microseconds), both are scaled down to it and nothing is blocked.
func splitThread(wall time.Duration, t threadTimes) (onCPU, runQueue, blocked time.Duration) {
	wall = max(wall, 0)
	onCPU, runQueue = max(t.cpu, 0), max(t.runQueue, 0)
	if sum := onCPU + runQueue; sum > wall {
		onCPU = time.Duration(float64(onCPU) * float64(wall) / float64(sum))
		return onCPU, wall - onCPU, 0
	}
	return onCPU, runQueue, wall - onCPU - runQueue
}

// clockThread locks the calling goroutine, a client of a parallel or
// open-loop run, to its OS thread and starts t's clock of that thread; the
// function it returns, deferred by the client, reads the clock into t
// (its CPU and run-queue time, or the error that kept it from them), and
// unlocks the thread.
func clockThread(t *threadTimes) (stop func()) {
	runtime.LockOSThread()
	var c threadClock
	if t.err = c.open(); t.err != nil {
		return runtime.UnlockOSThread
	}
	cpu0, rq0, err0 := c.read()
	return func() {
		cpu1, rq1, err1 := c.read()
		t.cpu, t.runQueue, t.err = cpu1-cpu0, rq1-rq0, errors.Join(err0, err1)
		c.close()
		runtime.UnlockOSThread()
	}
}
