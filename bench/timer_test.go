package bench

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestPausedRegionIsExcluded: a run whose every operation sleeps in a
// paused region (a slow generator) reports the time of its operations
// only, for Op and Batch runs alike, and the latencies exclude the pause.
func TestPausedRegionIsExcluded(t *testing.T) {
	const (
		n     = 6
		sleep = 100 * time.Millisecond // well above what a loaded machine adds to the work
		work  = 2 * time.Millisecond
	)
	busy := func(d time.Duration) { // work the clock must see
		for end := time.Now().Add(d); time.Now().Before(end); {
		}
	}
	for _, kind := range []string{"op", "batch"} {
		t.Run(kind, func(t *testing.T) {
			tm := &Timer{}
			gen := func() {
				tm.Stop()
				time.Sleep(sleep)
				tm.Start()
			}
			r := Run{Timer: tm}
			if kind == "op" {
				r.Op = func(int) error { gen(); busy(work); return nil }
			} else {
				r.Batch = func(_, n int) error {
					for range n {
						gen()
						busy(work)
					}
					return nil
				}
			}
			h := NewLatencyHistogram()
			s, err := Measure(r, 0, n, h)
			if err != nil {
				t.Fatal(err)
			}
			if s.Elapsed < n*work {
				t.Errorf("elapsed %v, less than the %v of work", s.Elapsed, n*work)
			}
			if s.Elapsed >= n*work+sleep {
				t.Errorf("elapsed %v includes the paused generator (%d × %v paused, %v of work)", s.Elapsed, n, sleep,
					n*work)
			}
			if tm.Paused() < n*sleep {
				t.Errorf("paused %v, want at least %v", tm.Paused(), n*sleep)
			}
			if kind == "op" && time.Duration(h.Max()) >= sleep {
				t.Errorf("a sampled latency of %v includes the pause", time.Duration(h.Max()))
			}
		})
	}
}

// slowProbe takes its time to stop, after the timed region.
type slowProbe struct{ stop time.Duration }

func (slowProbe) Start()  {}
func (p slowProbe) Stop() { time.Sleep(p.stop) }

// TestRunEndingPausedKeepsItsTime: a run whose operations end with the
// clock paused (each clocks its work, then stops the clock) reports the
// time of its work, not less: what follows the timed region (a probe that
// takes 200 ms to stop, far beyond what load adds to the run) is no part
// of its last pause.
func TestRunEndingPausedKeepsItsTime(t *testing.T) {
	const n, work, stop = 4, 2 * time.Millisecond, 200 * time.Millisecond
	tm := &Timer{}
	r := Run{Timer: tm, Op: func(int) error {
		tm.Start()
		for end := time.Now().Add(work); time.Now().Before(end); {
		}
		tm.Stop()
		return nil
	}}
	s, err := MeasureProbed(r, 0, n, NewLatencyHistogram(), Options{Probe: slowProbe{stop: stop}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Elapsed < n*work || s.Elapsed >= n*work+stop {
		t.Errorf("elapsed %v for %v of clocked work and a probe that took %v after it", s.Elapsed, n*work, stop)
	}
}

// TestTimerRefusesParallelRuns: a paused clock has no meaning across
// goroutines.
func TestTimerRefusesParallelRuns(t *testing.T) {
	r := Run{Timer: &Timer{}, Parallel: []func(int) error{func(int) error { return nil }}}
	if _, err := Measure(r, 0, 1, NewLatencyHistogram()); err == nil {
		t.Error("a parallel run with a Timer was measured")
	}
}

// TestUnpausedTimerChangesNothing: a run that never pauses reports its
// whole time.
func TestUnpausedTimerChangesNothing(t *testing.T) {
	r := Run{Timer: &Timer{}, Op: func(int) error { time.Sleep(5 * time.Millisecond); return nil }}
	s, err := Measure(r, 0, 4, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	if s.Elapsed < 20*time.Millisecond {
		t.Errorf("elapsed %v, want at least 20ms", s.Elapsed)
	}
}

// BenchmarkTimerPause is the cost of one paused region (a Stop and a Start
// around an empty chunk): what pausing adds to a run per chunk, in a run
// whose time is not divided (free thread) and, in /thread, in one whose is
// (two readings of the thread's scheduler clock a pause). cpu-ns/op is the
// process's CPU time per pause, what it costs even when other processes
// share the cores (wall time then includes waiting for one).
//
//	go test -run X -bench TimerPause ./bench
func BenchmarkTimerPause(b *testing.B) {
	for _, divided := range []bool{false, true} {
		name := "free"
		if divided {
			name = "thread"
		}
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tm := &Timer{}
			var c *threadClock
			if divided {
				c = &threadClock{}
				if err := c.open(); err != nil {
					b.Fatal(err)
				}
				defer c.close()
			}
			tm.reset(c, false)
			cpu0 := cpuNanos(b)
			for b.Loop() {
				tm.Stop()
				tm.Start()
			}
			b.ReportMetric(float64(cpuNanos(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuNanos returns the process's user and system CPU time.
func cpuNanos(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkClockRead is one read of the clock Timer uses, for comparison.
func BenchmarkClockRead(b *testing.B) {
	var x int64
	for b.Loop() {
		x += nanotime()
	}
	_ = x
}
