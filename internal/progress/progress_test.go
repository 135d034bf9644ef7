package progress

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sqlbench/sqlbench/targets"
)

// lockedBuffer is a bytes.Buffer safe for the display's goroutine and
// the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// step is an event of a step of a cell of a SQLite target.
func step(run, slice int) Event {
	return Event{Cell: "SimpleExec/" + targets.All()[0].Key(), Workload: "SimpleExec", Target: targets.All()[0].Name,
		Run: run, Slice: slice, Slices: 5}
}

// at is ev with the steps done and the time taken.
func at(ev Event, done, total int, elapsed time.Duration) Event {
	ev.Done, ev.Total, ev.Elapsed = done, total, elapsed
	return ev
}

// TestNotATerminalSaysSomethingEveryQuietPeriod: off a terminal the
// display writes a line of the steps done whenever it has been silent for
// its quiet period, one of the steps and cells done at Finish, and none
// after it.
func TestNotATerminalSaysSomethingEveryQuietPeriod(t *testing.T) {
	var out lockedBuffer
	const quiet = 50 * time.Millisecond
	d := newDisplay(&out, 20, 2, false, quiet)
	// The display's timer fires every quiet period; a loaded machine may
	// run it late, so each check waits (up to seconds) for what must come.
	if got := waitFor(&out, func(got string) bool {
		return strings.Contains(got, "[0/20 ") &&
			strings.Contains(got, "] starting\n")
	}); got == "" {
		t.Errorf("after a quiet period before any step: %q, want a line of 0/20 steps", out.String())
	}
	d.Event(at(step(1, 1), 1, 20, time.Second))
	if got := waitFor(&out, func(got string) bool { return strings.Count(got, "last SimpleExec ") >= 2 }); got == "" ||
		!strings.Contains(got, "[1/20 ") ||
		!strings.Contains(got, "ETA 19s] last SimpleExec "+step(1, 1).Target+" run 1/2 slice 1/5\n") {
		t.Errorf("quiet periods after a step that finished no cell: %q, want a line of the steps done every period",
			out.String())
	}
	// A finished cell is counted, said in the line Finish writes.
	ev := at(step(2, 5), 20, 20, 2*time.Second)
	ev.Finished = true
	d.Event(ev)
	d.Finish()
	got := out.String()
	if !strings.HasSuffix(got, "\n[20/20 2s] 1 cell done, 1 runs written\n") {
		t.Errorf("the last line is %q, want the steps and cells done",
			got[strings.LastIndex(got[:len(got)-1], "\n")+1:])
	}
	time.Sleep(4 * quiet)
	if again := out.String(); again != got {
		t.Errorf("the display wrote after Finish: %q", again[len(got):])
	}
	d.Finish() // twice is harmless
}

// waitFor returns out's text once ok holds of it, or "" after 5 s.
func waitFor(out *lockedBuffer, ok func(string) bool) string {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got := out.String(); ok(got) {
			return got
		}
	}
	return ""
}

// TestNoColour: the display, on a terminal too, writes no ANSI colour
// (NO_COLOR has nothing to turn off).
func TestNoColour(t *testing.T) {
	var out lockedBuffer
	d := New(&out, 3, 1, true)
	for i := 1; i <= 3; i++ {
		d.Event(at(step(1, 5), i, 3, time.Second))
	}
	d.Finish()
	if strings.Contains(out.String(), "\x1b[") {
		t.Errorf("the display wrote an escape sequence: %q", out.String())
	}
}

// TestLinesFitOffATerminal: a finished cell's line with a long failure
// fits in Width columns, broken at spaces, nothing lost.
func TestLinesFitOffATerminal(t *testing.T) {
	var out lockedBuffer
	d := newDisplay(&out, 1, 1, false, time.Hour)
	reason := strings.Repeat("the server went away while the runner waited for its answer; ", 3)
	ev := at(step(1, 5), 1, 1, time.Second)
	ev.Err = errors.New(reason)
	d.Event(ev)
	got := out.String() // the failure is said as it happens, before Finish
	d.Finish()
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if n := utf8.RuneCountInString(line); n > Width {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	if words := strings.Fields(got); strings.Join(words, " ") != strings.Join(
		strings.Fields("[1/1 1s, ETA 0s] "+step(1, 5).Cell+": FAIL: "+reason), " ") {
		t.Errorf("the words of the line changed: %q", got)
	}
}

// TestNoBurstOffATerminal: cells that finish together, as every cell does
// in a session's last pass, make no line each off a terminal: within the
// quiet period the display writes only its line at Finish, which counts
// them; a failure is a line of its own at once.
func TestNoBurstOffATerminal(t *testing.T) {
	var out lockedBuffer
	const cells, count = 63, 5
	d := newDisplay(&out, cells*count, count, false, time.Hour)
	done := 0
	for run := 1; run <= count; run++ {
		for c := range cells {
			done++
			ev := at(step(run, 5), done, cells*count, time.Duration(done)*time.Millisecond)
			ev.Cell = fmt.Sprintf("SimpleExec/cell=%d", c)
			ev.Finished = true
			if c == 7 && run == count {
				ev.Err, ev.Finished = errors.New("the runner crashed"), false
			}
			d.Event(ev)
		}
	}
	d.Finish()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "SimpleExec/cell=7: FAIL: the runner crashed") ||
		lines[1] != "[315/315 0s] 63 cells done, 314 runs written" {
		t.Errorf("%d lines for %d cells finishing at once, want the failure's and the final one:\n%s", len(lines),
			cells, out.String())
	}
}

// TestLinesNameTheTarget: a failed cell's line names the target as
// --targets does (Label), not by its result keys.
func TestLinesNameTheTarget(t *testing.T) {
	var out lockedBuffer
	d := newDisplay(&out, 1, 1, false, time.Hour)
	ev := at(step(1, 5), 5, 5, time.Second)
	ev.Cell, ev.Label, ev.Err = "SimpleQuery/db=sqlite/driver=xerial/api=jdbc", "SimpleQuery/jdbc-sqlite",
		errors.New("gone")
	d.Event(ev)
	d.Finish()
	if got := out.String(); !strings.Contains(got, "] SimpleQuery/jdbc-sqlite: FAIL: gone\n") ||
		strings.Contains(got, "xerial") {
		t.Errorf("failed cell's line: %q, want it to name jdbc-sqlite", got)
	}
}
