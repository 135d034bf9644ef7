// Package progress shows a session's progress on stderr: a progress bar
// (github.com/schollz/progressbar) with the current cell, run, elapsed time
// and ETA on a terminal, updated in place; otherwise a line of the steps and
// cells done every 10 seconds, a line for each cell that fails as it
// fails, and one line at the end. Cells finish together in the session's
// last pass (each run is sliced over the whole session), so a line per
// finished cell would come in a burst at the end: off a terminal they are
// counted instead.
package progress

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
)

// Quiet is the longest a display off a terminal stays silent.
const Quiet = 10 * time.Second

// Event reports one step of a session: one slice of one run of one cell.
type Event struct {
	// Cell is the cell's benchmark name; Workload and Target its workload's
	// and target's names.
	Cell, Workload, Target string
	// Label is the cell as a person reads it (the target's name for its
	// keys: SimpleQuery/jdbc-sqlite); "" shows Cell.
	Label string
	// Run, Slice and Slices place the step in the cell's runs.
	Run, Slice, Slices int
	// Done and Total count steps, skipped ones included.
	Done, Total int
	// Finished is set when the step finished a run (its result was
	// written).
	Finished bool
	// Err is why the cell failed, at the step where it failed.
	Err error
	// Elapsed is the time since the session started.
	Elapsed time.Duration
}

// Display receives a session's events.
type Display struct {
	w     io.Writer
	count int
	bar   *progressbar.ProgressBar

	mu      sync.Mutex
	runs    map[string]int
	cells   int           // the cells finished or failed
	events  int           // the events taken
	last    time.Time     // when the last line was written (off a terminal)
	started time.Time     // when the display was made
	latest  Event         // the last event
	stop    chan struct{} // closed by Finish; nil on a terminal
	done    chan struct{} // closed when the ticker has ended
}

// New returns a display of total steps, count runs per cell, on w; tty
// selects the progress bar.
func New(w io.Writer, total, count int, tty bool) *Display {
	return newDisplay(w, total, count, tty, Quiet)
}

// newDisplay is New with the longest silence off a terminal.
func newDisplay(w io.Writer, total, count int, tty bool, quiet time.Duration) *Display {
	d := &Display{w: w, count: count, runs: map[string]int{}, started: time.Now()}
	d.last = d.started
	d.latest.Total = total
	if tty {
		d.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("starting"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionFullWidth(),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
		)
		return d
	}
	d.stop, d.done = make(chan struct{}), make(chan struct{})
	go d.tick(quiet)
	return d
}

// tick writes a line of the steps done whenever quiet has passed since the
// last line, until Finish.
func (d *Display) tick(quiet time.Duration) {
	defer close(d.done)
	t := time.NewTicker(quiet / 4)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case now := <-t.C:
			d.mu.Lock()
			if now.Sub(d.last) >= quiet {
				ev := d.latest
				what := "starting"
				if ev.Done > 0 {
					what = fmt.Sprintf("last %s %s run %d/%d slice %d/%d", ev.Workload, ev.Target, ev.Run, d.count,
						ev.Slice, ev.Slices)
				}
				if d.cells > 0 {
					what = cellsDone(d.cells) + ", " + what
				}
				writeLine(d.w, fmt.Sprintf("[%d/%d %s%s] %s", ev.Done, ev.Total, now.Sub(d.started).Round(time.Second),
					eta(ev), what))
				d.last = now
			}
			d.mu.Unlock()
		}
	}
}

// eta is ", ETA D" from the pace of the steps done so far, or "".
func eta(ev Event) string {
	if ev.Done == 0 {
		return ""
	}
	d := time.Duration(float64(ev.Elapsed) / float64(ev.Done) * float64(ev.Total-ev.Done))
	return ", ETA " + d.Round(time.Second).String()
}

// Event takes the news of one step of the session.
func (d *Display) Event(ev Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.latest = ev
	d.events++
	name := ev.Cell
	if ev.Finished {
		d.runs[name]++
	}
	cellDone := ev.Err != nil || (ev.Run == d.count && ev.Slice >= ev.Slices)
	if d.bar != nil {
		if ev.Err != nil {
			_ = d.bar.Clear()
			fmt.Fprintf(d.w, "FAIL %s: %v\n", cmp.Or(ev.Label, name), ev.Err)
		}
		d.bar.Describe(fmt.Sprintf("%s %s run %d/%d slice %d/%d", ev.Workload, ev.Target,
			ev.Run, d.count, ev.Slice, ev.Slices))
		_ = d.bar.Add(1)
		return
	}
	if cellDone {
		d.cells++
	}
	if ev.Err == nil {
		return // counted, said in the next line of the steps done
	}
	writeLine(d.w, fmt.Sprintf("[%d/%d %s%s] %s: FAIL: %v", ev.Done, ev.Total, ev.Elapsed.Round(time.Second), eta(ev),
		cmp.Or(ev.Label, name), ev.Err))
	d.last = time.Now()
}

// cellsDone is "N cells done" (finished or failed).
func cellsDone(n int) string {
	if n == 1 {
		return "1 cell done"
	}
	return fmt.Sprintf("%d cells done", n)
}

// Finish clears the progress bar, or ends the lines of steps done with
// one of the steps and cells done in all (when there was a step).
func (d *Display) Finish() {
	if d.bar != nil {
		_ = d.bar.Finish()
		return
	}
	if d.stop == nil {
		return
	}
	select {
	case <-d.stop:
		return // finished before
	default:
		close(d.stop)
	}
	<-d.done
	d.mu.Lock()
	defer d.mu.Unlock()
	if ev := d.latest; d.events > 0 {
		runs := 0
		for _, n := range d.runs {
			runs += n
		}
		writeLine(d.w, fmt.Sprintf("[%d/%d %s] %s, %d runs written", ev.Done, ev.Total, ev.Elapsed.Round(time.Second),
			cellsDone(d.cells), runs))
	}
}

// Width is the columns a line off a terminal fits in.
const Width = 100

// writeLine writes s to w within Width columns: a longer line breaks at its
// last spaces before the edge, the rest indented by two (a word longer
// than a line stays whole).
func writeLine(w io.Writer, s string) {
	var b strings.Builder
	for utf8.RuneCountInString(s) > Width {
		cut := strings.LastIndexByte(string([]rune(s)[:Width+1]), ' ')
		if cut <= 2 {
			break
		}
		b.WriteString(s[:cut] + "\n")
		s = "  " + strings.TrimLeft(s[cut:], " ")
	}
	b.WriteString(s + "\n")
	io.WriteString(w, b.String())
}
