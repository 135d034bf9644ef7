package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// spinSink keeps spinCounted's loop from being optimized away.
var spinSink int

// spinCounted executes some instructions per iteration, n iterations.
//
//go:noinline
func spinCounted(n int) {
	s := spinSink
	for i := range n {
		s += i ^ (s >> 3)
	}
	spinSink = s
}

// TestPausedWorkIsNotCounted runs two runs of this test's binary under
// callgrind, as --measure instructions runs a runner, each operation doing
// a little work on the clock and much with its Timer paused (the second
// run ends paused): each run's count holds the work on the clock and not
// the paused work, which is a thousand times more, and nothing is counted
// after the runs.
func TestPausedWorkIsNotCounted(t *testing.T) {
	if os.Getenv("SQLBENCH_TIMER_COUNT_CHILD") == "1" {
		timerCountChild(t)
		return
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind is not installed")
	}
	out := filepath.Join(t.TempDir(), "cg.out")
	cmd := exec.Command("valgrind", "--tool=callgrind", "--quiet", "--collect-atstart=no",
		"--callgrind-out-file="+out, os.Args[0], "-test.run=^TestPausedWorkIsNotCounted$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SQLBENCH_TIMER_COUNT_CHILD=1",
		"GODEBUG=asyncpreemptoff=1,gcshrinkstackoff=1", "GOGC=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	final := callgrindTotal(t, out)
	if final != 0 {
		t.Errorf("%d instructions counted after the runs, want 0", final)
	}
	for i := 1; i <= 2; i++ {
		got := callgrindTotal(t, fmt.Sprintf("%s.%d", out, i))
		t.Logf("run %d: %d instructions", i, got)
		// 10 operations of 1,000 iterations on the clock; 10 of 1,000,000
		// paused.
		if got < 10_000 || got > 1_000_000 {
			t.Errorf("run %d: %d instructions counted, want those of the work on the clock (10,000-1,000,000), "+
				"not the paused work's (over 10,000,000)", i, got)
		}
	}
	if _, err := os.Stat(out + ".3"); err == nil {
		t.Error("3 counts written, want one per run (2)")
	}
}

// timerCountChild is TestPausedWorkIsNotCounted's runs under callgrind.
func timerCountChild(t *testing.T) {
	for _, endPaused := range []bool{false, true} {
		tm := &Timer{}
		op := func(i int) error {
			spinCounted(1_000)
			tm.Stop()
			spinCounted(1_000_000)
			if !endPaused || i < 9 {
				tm.Start()
			}
			return nil
		}
		if _, err := Measure(Run{Op: op, Timer: tm}, 0, 10, NewLatencyHistogram()); err != nil {
			t.Fatal(err)
		}
	}
	spinCounted(1_000_000) // counted only if a run left the count on
}

// callgrindTotal returns the count of callgrind's dump file.
func callgrindTotal(t *testing.T, file string) int64 {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "totals: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("%s: no totals line", file)
	return 0
}
