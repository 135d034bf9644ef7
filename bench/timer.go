package bench

import (
	"errors"
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
//
// Under --measure instructions each pause on the timing thread also stops
// callgrind's count, so that instructions/op counts what the clock times
// and not, say, a read's check of every row with its clock paused.
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
	// counted is set in the timed region of Measure, whose instructions
	// callgrind counts (countOn); uncounted says that the current pause
	// turned the timing thread's count off, for its Start to turn on.
	counted, uncounted bool
}

// Stop pauses the clock; a Stop while paused does nothing.
func (t *Timer) Stop() {
	if t.running {
		t.running = false
		t.stopped = nanotime()
		if t.offThread() {
			return
		}
		if t.counted && t.clock != nil {
			countPause()
			t.uncounted = true
		}
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
		if t.offThread() {
			t.clock = nil // the paused regions' thread times are unknown from here on
		}
		if t.clock != nil {
			cpu, rq, err := t.clock.read()
			if err != nil && t.clockErr == nil {
				t.clockErr = err
			}
			t.pausedCPU += cpu - t.stopCPU
			t.pausedRunQueue += rq - t.stopRunQueue
			if t.uncounted {
				t.uncounted = false
				countPause()
			}
		}
		t.running = true
		if t.stopped != 0 {
			t.paused += time.Duration(nanotime() - t.stopped)
		}
	}
}

// errOffThread is the clock error of a run paused from another thread
// than its timing thread (a driver that reads the run's input on a
// goroutine of its own, as pgx's CopyFrom does): that thread's times are
// not the timing thread's, so the run's time is not divided.
var errOffThread = errors.New("the clock was paused from another thread than the timing thread " +
	"(the driver reads the run's input on a goroutine of its own): the run's time is not divided")

// offThread reports whether a pause comes from another thread than the
// one the clock reads, recording it as the clock's error.
func (t *Timer) offThread() bool {
	if t.clock == nil || t.clock.onThread() {
		return false
	}
	if t.clockErr == nil {
		t.clockErr = errOffThread
	}
	return true
}

// Running reports whether the clock runs (it is not paused).
func (t *Timer) Running() bool { return t.running }

// Paused returns the time spent paused since the last reset.
func (t *Timer) Paused() time.Duration { return t.paused }

// reset starts the clock running with nothing paused, reading c (which may
// be nil) at each pause; counted says whether the run's instructions are
// counted (Measure's timed region), for each pause to stop the count.
func (t *Timer) reset(c *threadClock, counted bool) {
	*t = Timer{running: true, clock: c, counted: counted}
}

// endCount ends the counting of the timed region: it reports whether the
// region ended in a pause that stopped the count, in which case the count
// is already off and only needs writing out (countDump, not countOff).
func (t *Timer) endCount() (paused bool) {
	paused = t.uncounted
	t.counted, t.uncounted = false, false
	return paused
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
