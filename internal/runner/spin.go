package runner

import (
	"time"
	_ "unsafe" // for go:linkname

	"github.com/sqlbench/sqlbench/bench"
)

// nanotime is the runtime's monotonic clock: one clock read, where
// time.Now reads the wall clock as well.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// spinner slows a run down by a known amount: a busy spin of d on the
// monotonic clock after each operation (after a batch call, its
// operations' count times d), inside the clock, on the goroutine that ran
// the operation, so that the spin is time on a CPU of the thread the run
// divides (a parallel run's client spins on its own thread). spent holds
// what each goroutine actually spun (one per client of a parallel run),
// which is at least d per operation and more when the thread was
// preempted in the middle of a spin.
//
// A run whose operations fan out to client goroutines (Run.Clients) spins
// on its coordinating goroutine, between rounds: its clients' threads are
// idle then, so the spin shows as their blocked time and the runner's
// background CPU, not as their time on a CPU.
type spinner struct {
	d     time.Duration
	timer *bench.Timer
	spent []time.Duration
}

// withSpin returns r with every operation followed by a spin of d, and
// the spinner that counts the spin; the operation's own errors end the
// run as before, without a spin.
func withSpin(r bench.Run, d time.Duration) (bench.Run, *spinner) {
	s := &spinner{d: d, timer: r.Timer, spent: make([]time.Duration, max(1, len(r.Parallel)))}
	switch {
	case r.Batch != nil:
		batch := r.Batch
		r.Batch = func(first, n int) error {
			if err := batch(first, n); err != nil {
				return err
			}
			s.spin(0, time.Duration(n)*d)
			return nil
		}
	case r.Parallel != nil:
		ops := make([]func(int) error, len(r.Parallel))
		for w, op := range r.Parallel {
			ops[w] = func(i int) error {
				if err := op(i); err != nil {
					return err
				}
				s.spin(w, d)
				return nil
			}
		}
		r.Parallel = ops
	case r.Op != nil:
		op := r.Op
		r.Op = func(i int) error {
			if err := op(i); err != nil {
				return err
			}
			s.spin(0, d)
			return nil
		}
	}
	return r, s
}

// spin busy-waits for d on goroutine w's account. A sequential run's
// operation that returned with its timer paused has the timer run for the
// spin, so that the spin is always inside the clock.
func (s *spinner) spin(w int, d time.Duration) {
	if s.timer != nil && !s.timer.Running() {
		s.timer.Start()
		defer s.timer.Stop()
	}
	t0 := nanotime()
	for {
		if e := time.Duration(nanotime() - t0); e >= d {
			s.spent[w] += e
			return
		}
	}
}

// total returns the spin spent by every goroutine.
func (s *spinner) total() time.Duration {
	var t time.Duration
	for _, d := range s.spent {
		t += d
	}
	return t
}
