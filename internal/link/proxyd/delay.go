package proxyd

import (
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
	"golang.org/x/sys/unix"
)

// DelayToxic is the link's propagation delay, one direction: every chunk
// of bytes leaves Delay ± Jitter microseconds after the proxy read it,
// chunks keep their order, and a chunk that arrives while an earlier one
// waits is not delayed by that wait (the link is a pipe, not a queue).
// Toxiproxy's own latency toxic does the same in whole milliseconds, and
// waits on a Go timer, which the runtime's poller rounds up to a
// millisecond; this one sleeps with nanosleep on a thread whose timer
// slack is 1 ns, which wakes 10-20 µs after the deadline on an idle
// machine, more on a loaded one. It never releases a chunk early, and it
// does not spin: a spinning proxy would take CPU from the runner and the
// server it sits between.
type DelayToxic struct {
	// Delay and Jitter are in microseconds.
	Delay  int64 `json:"delay_us"`
	Jitter int64 `json:"jitter_us"`
}

// DelayToxicType is the toxic's type name in Toxiproxy's API.
const DelayToxicType = "sqlbench_delay"

// Pipe passes the chunks of one direction of one connection through with
// their delay, until the link closes or Toxiproxy interrupts the toxic
// (to change the toxics of the link).
func (t *DelayToxic) Pipe(stub *toxics.ToxicStub) {
	for {
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			due := c.Timestamp.Add(t.delay())
			sleep(time.Until(due))
			c.Timestamp = due
			stub.Output <- c
		}
	}
}

// GetBufferSize is how many chunks may wait in the link: enough that a
// sender is not held back by the delay of those before its own.
func (t *DelayToxic) GetBufferSize() int { return 1024 }

// delay returns one chunk's delay: Delay, spread uniformly over ±Jitter.
func (t *DelayToxic) delay() time.Duration {
	d := t.Delay
	if t.Jitter > 0 {
		d += rand.Int64N(2*t.Jitter+1) - t.Jitter
	}
	return time.Duration(d) * time.Microsecond
}

// sleep blocks the calling goroutine's thread for d with nanosleep, the
// thread's timer slack set to 1 ns for it (the kernel's default, 50 µs,
// would be half of a LAN's round trip).
func sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0) // without it the sleep is only coarser
	ts := unix.NsecToTimespec(int64(d))
	for {
		var rem unix.Timespec
		if err := unix.Nanosleep(&ts, &rem); err != unix.EINTR {
			return
		}
		ts = rem
	}
}

func init() { toxics.Register(DelayToxicType, new(DelayToxic)) }
