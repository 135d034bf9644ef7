// Package wake measures how long this machine takes to wake a sleeping
// thread: the wait every database round trip pays when its client or
// server slept in between. On a virtual machine an idle virtual CPU is
// halted by the hypervisor (or polled, with the haltpoll idle driver), and
// how fast it comes back moves with the host's load: the same round-trip
// cell can run several times faster one hour than the next while the CPU
// loop of package drift reads the same. Three ping-pongs time it: between
// two threads of this process (a futex), with a child process (a pipe) and
// over loopback TCP. Package wake also holds the kernel's PM QoS request
// that keeps CPUs out of deep idle states (IdleHold).
package wake

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Kind names one of the ping-pongs.
type Kind string

// The ping-pongs, in the order they are timed and printed.
const (
	// Thread is a round trip between two threads of this process, each
	// sleeping in the kernel (a futex) until the other wakes it.
	Thread Kind = "thread"
	// Process is a round trip through two pipes with a child process
	// (cat, which writes back each byte it reads).
	Process Kind = "process"
	// TCP is a round trip over a loopback TCP connection between two
	// goroutines of this process, through Go's network poller as the Go
	// drivers' round trips go.
	TCP Kind = "tcp"
)

// Kinds lists the ping-pongs in order.
func Kinds() []Kind { return []Kind{Thread, Process, TCP} }

// DefaultTrips is how many round trips a probe times: enough for a p90,
// about 30 ms at 100 µs a trip.
const DefaultTrips = 300

// warmTrips are untimed round trips before the timed ones: the first
// wake-ups of fresh threads and connections pay for their start.
const warmTrips = 10

// limit bounds one probe: a machine that takes longer is not measured.
const limit = 10 * time.Second

// Probe times round trips that wake a sleeping partner.
type Probe struct {
	// CPUs are where the probe's own side runs (the runner's CPUs);
	// PartnerCPUs where the side it wakes runs (the server's CPUs). nil
	// leaves the placement to the scheduler.
	CPUs, PartnerCPUs []int
	// Trips is the number of timed round trips; 0 means DefaultTrips.
	Trips int
}

func (p *Probe) trips() int {
	if p.Trips > 0 {
		return p.Trips
	}
	return DefaultTrips
}

// Time times the round trips of one kind and returns them.
func (p *Probe) Time(k Kind) ([]time.Duration, error) {
	var (
		d   []time.Duration
		err error
	)
	switch k {
	case Thread:
		d, err = p.thread()
	case Process:
		d, err = p.process()
	case TCP:
		d, err = p.tcp()
	default:
		err = fmt.Errorf("no ping-pong %q", k)
	}
	if err != nil {
		return nil, fmt.Errorf("wake-up probe (%s): %w", k, err)
	}
	return d, nil
}

// lockTo locks the calling goroutine to its thread and pins the thread to
// cpus. The thread is never unlocked: it ends with its goroutine, so no
// other goroutine inherits its placement.
func lockTo(cpus []int) error {
	runtime.LockOSThread()
	if len(cpus) == 0 {
		return nil
	}
	set := cpuSet(cpus)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pin to CPUs %v: %w", cpus, err)
	}
	return nil
}

// cpuSet is the affinity mask of cpus.
func cpuSet(cpus []int) unix.CPUSet {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return set
}

// onLockedThread runs timing on a goroutine of its own, locked by lockTo to
// a thread pinned to cpus, and returns what timing returns (or lockTo's
// error). The goroutine ends with timing, and its thread with it.
func onLockedThread(cpus []int, timing func() ([]time.Duration, error)) ([]time.Duration, error) {
	type result struct {
		d   []time.Duration
		err error
	}
	ch := make(chan result, 1)
	go func() {
		if err := lockTo(cpus); err != nil {
			ch <- result{err: err}
			return
		}
		d, err := timing()
		ch <- result{d: d, err: err}
	}()
	r := <-ch
	return r.d, r.err
}

// Linux futex operations (linux/futex.h).
const (
	futexWait    = 0
	futexWake    = 1
	futexPrivate = 128
)

// stop in a futex word tells the side waiting on it that the other failed.
const stop = ^uint32(0)

// errStopped is what a side returns when the other stopped on an error.
var errStopped = errors.New("the other side stopped")

// waitFor sleeps in the kernel until *addr is want, or until deadline.
func waitFor(addr *uint32, want uint32, deadline time.Time) error {
	for {
		v := atomic.LoadUint32(addr)
		switch v {
		case want:
			return nil
		case stop:
			return errStopped
		}
		left := time.Until(deadline)
		if left <= 0 {
			return errors.New("no answer within " + limit.String())
		}
		ts := unix.NsecToTimespec(min(left, 100*time.Millisecond).Nanoseconds())
		// EAGAIN (the word changed first), EINTR and ETIMEDOUT all mean:
		// look again.
		unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWait|futexPrivate, uintptr(v),
			uintptr(unsafe.Pointer(&ts)), 0, 0)
	}
}

// set stores v in *addr and wakes the thread sleeping on it.
func set(addr *uint32, v uint32) {
	atomic.StoreUint32(addr, v)
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWake|futexPrivate, 1, 0, 0, 0)
}

// timeTrips runs trip warmTrips times untimed, then p.trips() times
// timed, numbering the trips from 1, and returns the timed round trips; the
// first error ends it.
func (p *Probe) timeTrips(trip func(i int) error) ([]time.Duration, error) {
	var d []time.Duration
	for i := 1; i <= p.trips()+warmTrips; i++ {
		start := time.Now()
		if err := trip(i); err != nil {
			return nil, err
		}
		if i > warmTrips {
			d = append(d, time.Since(start))
		}
	}
	return d, nil
}

// thread ping-pongs between two locked threads through two futex words.
func (p *Probe) thread() ([]time.Duration, error) {
	words := new([2]uint32) // ping, pong: the number of the last trip
	n := p.trips() + warmTrips
	deadline := time.Now().Add(limit)
	partner := make(chan error, 1)
	go func() {
		if err := lockTo(p.PartnerCPUs); err != nil {
			set(&words[1], stop)
			partner <- err
			return
		}
		for i := uint32(1); i <= uint32(n); i++ {
			if err := waitFor(&words[0], i, deadline); err != nil {
				partner <- err
				return
			}
			set(&words[1], i)
		}
		partner <- nil
	}()
	d, err := onLockedThread(p.CPUs, func() ([]time.Duration, error) {
		return p.timeTrips(func(i int) error {
			set(&words[0], uint32(i))
			return waitFor(&words[1], uint32(i), deadline)
		})
	})
	if err != nil {
		set(&words[0], stop) // the partner waits for a trip that will not come
	}
	if perr := <-partner; perr != nil && (err == nil || errors.Is(err, errStopped)) {
		return nil, perr
	}
	return d, err
}

// process ping-pongs one byte with a child cat through two pipes, read
// and written by one locked thread with blocking system calls.
func (p *Probe) process() ([]time.Duration, error) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		return nil, err
	}
	var to, from [2]int
	if err := unix.Pipe2(to[:], unix.O_CLOEXEC); err != nil {
		return nil, fmt.Errorf("pipe: %w", err)
	}
	if err := unix.Pipe2(from[:], unix.O_CLOEXEC); err != nil {
		unix.Close(to[0])
		unix.Close(to[1])
		return nil, fmt.Errorf("pipe: %w", err)
	}
	stdin, stdout := os.NewFile(uintptr(to[0]), "wake-stdin"), os.NewFile(uintptr(from[1]), "wake-stdout")
	cmd := exec.Command(cat)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, io.Discard
	err = cmd.Start()
	stdin.Close()
	stdout.Close()
	if err != nil {
		unix.Close(to[1])
		unix.Close(from[0])
		return nil, err
	}
	defer func() {
		unix.Close(to[1]) // cat reads the end of its input and exits
		unix.Close(from[0])
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	if len(p.PartnerCPUs) > 0 {
		s := cpuSet(p.PartnerCPUs)
		if err := unix.SchedSetaffinity(cmd.Process.Pid, &s); err != nil {
			return nil, fmt.Errorf("pin the child to CPUs %v: %w", p.PartnerCPUs, err)
		}
	}
	return onLockedThread(p.CPUs, func() ([]time.Duration, error) {
		deadline := time.Now().Add(limit)
		buf := []byte{0}
		return p.timeTrips(func(int) error {
			if _, err := unix.Write(to[1], buf); err != nil {
				return fmt.Errorf("write to the child: %w", err)
			}
			return readOne(from[0], buf, deadline)
		})
	})
}

// readOne sleeps in poll until fd has a byte, then reads it into buf.
func readOne(fd int, buf []byte, deadline time.Time) error {
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return errors.New("no answer within " + limit.String())
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(min(left, 100*time.Millisecond).Milliseconds())+1)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("poll: %w", err)
		}
		if n == 0 {
			continue
		}
		m, err := unix.Read(fd, buf)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("read from the child: %w", err)
		case m == 0:
			return errors.New("the child closed its output")
		}
		return nil
	}
}

// tcp ping-pongs one byte over a loopback connection between two locked
// goroutines.
func (p *Probe) tcp() ([]time.Duration, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	deadline := time.Now().Add(limit)
	partner := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			partner <- nil // the pinger failed before it dialled: its error says why
			return
		}
		defer c.Close()
		if err := lockTo(p.PartnerCPUs); err != nil {
			partner <- err
			return
		}
		c.SetDeadline(deadline)
		buf := []byte{0}
		for {
			if _, err := io.ReadFull(c, buf); err != nil {
				partner <- nil // the pinger closed: done
				return
			}
			if _, err := c.Write(buf); err != nil {
				partner <- err
				return
			}
		}
	}()
	d, err := onLockedThread(p.CPUs, func() ([]time.Duration, error) {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), limit)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		c.SetDeadline(deadline)
		buf := []byte{0}
		return p.timeTrips(func(int) error {
			if _, err := c.Write(buf); err != nil {
				return err
			}
			_, err := io.ReadFull(c, buf)
			return err
		})
	})
	if err != nil {
		ln.Close() // an Accept still waiting ends
	}
	if perr := <-partner; perr != nil { // the pinger's error is then only its end of it
		return nil, perr
	}
	return d, err
}

// CrossCPU returns the placement that makes every wake-up cross CPUs: the
// probe's own side on the last CPU (where split placement puts the
// runner), its partner on the first (the server's); on one CPU, none. Two
// threads left to the scheduler often share a CPU, and a wake-up there is
// a context switch, not an idle CPU coming back.
func CrossCPU() (own, partner []int) {
	n := runtime.NumCPU()
	if n < 2 {
		return nil, nil
	}
	return []int{n - 1}, []int{0}
}
