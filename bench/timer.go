package bench

import (
	"time"
	_ "unsafe" // for go:linkname
)

// nanotime is the runtime's monotonic clock: one clock read, where
// time.Now reads the wall clock as well (two reads, over 100 ns each on
// virtual machines without a fast clock source).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Timer lets a run pause its clock, as testing.B's StopTimer and StartTimer
// do: a workload whose input would not fit in memory generates it in
// chunks, stopping the timer around each chunk's generation, so that the
// figure times the driver and not the generator. A Run that pauses sets
// Run.Timer; Measure resets it before the run and subtracts the paused time
// from the run's elapsed time (and from the latency of the operation that
// paused).
//
// A Timer belongs to one goroutine: only a sequential run (Op or Batch) may
// pause, never the functions of Run.Parallel. Memory statistics still count
// what the paused region allocates.
//
// When Measure divides the run's time (its goroutine locked to its
// thread), each pause also reads the thread's scheduler clock at both ends,
// so that the CPU and run-queue time of the paused region are taken off
// the run's exactly; that costs about a microsecond a pause, off the clock.
type Timer struct {
	paused  time.Duration
	stopped int64 // nanotime of the last Stop; 0 before the first
	running bool
	// clock, when not nil, is the timing thread's: pausedCPU and
	// pausedRunQueue sum its times over the paused regions, from the
	// readings at the last Stop (stopCPU, stopRunQueue); clockErr is the
	// first reading that failed.
	clock                     *threadClock
	pausedCPU, pausedRunQueue time.Duration
	stopCPU, stopRunQueue     time.Duration
	clockErr                  error
}

// Stop pauses the clock; a Stop while paused does nothing.
func (t *Timer) Stop() {
	if t.running {
		t.running = false
		t.stopped = nanotime()
		if t.clock != nil {
			var err error
			if t.stopCPU, t.stopRunQueue, err = t.clock.read(); err != nil && t.clockErr == nil {
				t.clockErr = err
			}
		}
	}
}

// Start resumes the clock; a Start while running does nothing.
func (t *Timer) Start() {
	if !t.running {
		if t.clock != nil {
			cpu, rq, err := t.clock.read()
			if err != nil && t.clockErr == nil {
				t.clockErr = err
			}
			t.pausedCPU += cpu - t.stopCPU
			t.pausedRunQueue += rq - t.stopRunQueue
		}
		t.running = true
		if t.stopped != 0 {
			t.paused += time.Duration(nanotime() - t.stopped)
		}
	}
}

// Running reports whether the clock runs (it is not paused).
func (t *Timer) Running() bool { return t.running }

// Paused returns the time spent paused since the last reset.
func (t *Timer) Paused() time.Duration { return t.paused }

// reset starts the clock running with nothing paused, reading c (which may
// be nil) at each pause.
func (t *Timer) reset(c *threadClock) {
	*t = Timer{running: true, clock: c}
}

// pausedNow returns the time paused so far, the current pause included.
func (t *Timer) pausedNow() time.Duration {
	if t == nil {
		return 0
	}
	if t.running {
		return t.paused
	}
	return t.paused + time.Duration(nanotime()-t.stopped)
}
