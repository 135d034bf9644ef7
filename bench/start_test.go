package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// startRun returns a sequential run whose Start and Finish each last d and
// record themselves in log beside the operations.
func startRun(log *[]string, d time.Duration) Run {
	return Run{
		Start:  func() error { *log = append(*log, "start"); time.Sleep(d); return nil },
		Op:     func(i int) error { *log = append(*log, fmt.Sprint(i)); return nil },
		Finish: func() error { *log = append(*log, "finish"); time.Sleep(d); return nil },
	}
}

func TestStartAndFinishAreTimedAroundTheOperations(t *testing.T) {
	const d = 30 * time.Millisecond
	var log []string
	s, err := Measure(startRun(&log, d), 2, 3, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, " "), "start 2 3 4 finish"; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	if s.Elapsed < 2*d {
		t.Errorf("elapsed %v, want at least Start's and Finish's %v", s.Elapsed, 2*d)
	}
	if s.ThreadKnown && s.OnCPU+s.RunQueue+s.Blocked != s.Elapsed {
		t.Errorf("on-CPU %v + run queue %v + blocked %v != elapsed %v", s.OnCPU, s.RunQueue, s.Blocked, s.Elapsed)
	}
	if s.ThreadKnown && s.Blocked < d {
		t.Errorf("blocked %v: Start and Finish slept %v on the timing thread", s.Blocked, 2*d)
	}
}

func TestSlicesTimeStartInTheFirstAndFinishInTheLast(t *testing.T) {
	const d = 100 * time.Millisecond
	for _, c := range []struct {
		name                 string
		continued, continues bool
		timed                string // which of Start and Finish the clock holds
	}{
		{"first of several", false, true, "start"},
		{"middle", true, true, ""},
		{"last", true, false, "finish"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log []string
			r := startRun(&log, d)
			// Each sleep as long as it really lasted: on a loaded machine
			// a sleep of d overruns it.
			took := map[string]time.Duration{}
			for name, f := range map[string]*func() error{"start": &r.Start, "finish": &r.Finish} {
				inner := *f
				*f = func() error {
					t0 := time.Now()
					err := inner()
					took[name] = time.Since(t0)
					return err
				}
			}
			s, err := MeasureProbed(r, 0, 2, NewLatencyHistogram(),
				Options{Continued: c.continued, Continues: c.continues})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(log, " "), "start 0 1 finish"; got != want {
				t.Errorf("calls %q, want %q", got, want)
			}
			// The clock holds the timed sleep as it lasted, and less than
			// half an untimed one (at least d) more: two operations that
			// append to a slice.
			lo := took[c.timed]
			if s.Elapsed < lo || s.Elapsed >= lo+d/2 {
				t.Errorf("elapsed %v, want the timed sleep (%q, %v) and less than %v more; the sleeps took %v",
					s.Elapsed, c.timed, lo, d/2, took)
			}
		})
	}
}

// TestCarriedSlicesRunNoUntimedStartOrFinish: a slice of a run carried in
// from the slice before runs no Start of its own, and one that carries the
// run on to the next runs no Finish; the first slice still times Start and
// the last Finish.
func TestCarriedSlicesRunNoUntimedStartOrFinish(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
		want string
	}{
		{"first, carries", Options{Continues: true, Carries: true}, "start 0 1"},
		{"middle, carried and carries", Options{Continued: true, Continues: true, Carried: true, Carries: true}, "0 1"},
		{"last, carried", Options{Continued: true, Carried: true}, "0 1 finish"},
		{"middle, not carried in (a restarted runner), carries",
			Options{Continued: true, Continues: true, Carries: true}, "start 0 1"},
	} {
		var log []string
		if _, err := MeasureProbed(startRun(&log, 0), 0, 2, NewLatencyHistogram(), c.o); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(log, " "); got != c.want {
			t.Errorf("%s: calls %q, want %q", c.name, got, c.want)
		}
	}
}

func TestWarmRunsBetweenAStartAndAFinishOfItsOwn(t *testing.T) {
	var log []string
	r := startRun(&log, 0)
	if err := Warm(r, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := Measure(r, 2, 2, NewLatencyHistogram()); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, " "), "start 0 1 finish start 2 3 finish"; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	// A run without Start keeps its Finish for the timed run (a bulk
	// insert's commit after a warm-up in the same transaction).
	log = nil
	r.Start = nil
	if err := Warm(r, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Measure(r, 1, 1, NewLatencyHistogram()); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, " "), "0 1 finish"; got != want {
		t.Errorf("without Start: calls %q, want %q", got, want)
	}
}

func TestParallelRunTimesStart(t *testing.T) {
	const d = 30 * time.Millisecond
	var log []string
	r := startRun(&log, d)
	r.Op = nil
	r.Parallel = []func(int) error{func(int) error { return nil }, func(int) error { return nil }}
	s, err := Measure(r, 0, 10, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(log, []string{"start", "finish"}) || s.Elapsed < 2*d {
		t.Errorf("calls %q, elapsed %v; want start and finish, at least %v", log, s.Elapsed, 2*d)
	}
	if s.ThreadKnown && s.OnCPU+s.RunQueue+s.Blocked != s.Elapsed {
		t.Errorf("on-CPU %v + run queue %v + blocked %v != elapsed %v", s.OnCPU, s.RunQueue, s.Blocked, s.Elapsed)
	}
}

// spin keeps the calling thread on a CPU for d.
func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

// TestParallelRunSplitsStartAsTheCoordinatorSpentIt: a parallel run's
// Start and Finish run on the coordinating thread while no client runs;
// each client's share of that wall time is what the coordinator did in it
// (here on a CPU), not time the clients were blocked, and that CPU is not
// the runner's background either. One of up to three runs must pass: under
// heavy load the clients' hand-overs wait too.
func TestParallelRunSplitsStartAsTheCoordinatorSpentIt(t *testing.T) {
	const d = 80 * time.Millisecond
	r := Run{
		Start:    func() error { spin(d); return nil },
		Finish:   func() error { spin(d); return nil },
		Parallel: []func(int) error{func(int) error { return nil }, func(int) error { return nil }},
	}
	onceInThree(t, func() error {
		s, err := Measure(r, 0, 10, NewLatencyHistogram())
		if err != nil {
			t.Fatal(err)
		}
		if !s.ThreadKnown {
			t.Skipf("no thread times on this machine: %s", s.Why)
		}
		if s.OnCPU+s.RunQueue != s.Elapsed-s.Blocked {
			t.Fatalf("on-CPU %v + run queue %v + blocked %v != elapsed %v", s.OnCPU, s.RunQueue, s.Blocked, s.Elapsed)
		}
		// The coordinator spun for 2d: on a CPU, or waiting for one.
		if busy := s.OnCPU + s.RunQueue; busy < 2*d*8/10 || s.Blocked > d/2 {
			return fmt.Errorf(
				"on-CPU %v + run queue %v, blocked %v of %v: want the 2×%v spin as the clients' time, not blocked",
				s.OnCPU, s.RunQueue, s.Blocked, s.Elapsed, d)
		}
		if s.BackgroundCPU > d/2 {
			return fmt.Errorf("background CPU %v: the coordinator's spin counted as the runner's background",
				s.BackgroundCPU)
		}
		return nil
	})
}
