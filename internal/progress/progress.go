// Package progress shows a session's progress on stderr: a progress bar
// (github.com/schollz/progressbar) with the current cell, run, elapsed time
// and ETA on a terminal, and one plain line per finished cell otherwise.
package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/sqlbench/sqlbench/internal/orchestrate"
)

// Display receives a session's events.
type Display struct {
	w     io.Writer
	count int
	bar   *progressbar.ProgressBar
	runs  map[string]int
}

// New returns a display of total steps, count runs per cell, on w; tty
// selects the progress bar.
func New(w io.Writer, total, count int, tty bool) *Display {
	d := &Display{w: w, count: count, runs: map[string]int{}}
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
	}
	return d
}

// Event implements orchestrate.Session.Progress.
func (d *Display) Event(ev orchestrate.Event) {
	name := ev.Step.Cell.Name()
	if ev.Result != nil {
		d.runs[name]++
	}
	cellDone := ev.Err != nil || (ev.Step.Run == d.count && ev.Step.Slice >= ev.Step.Slices)
	if d.bar != nil {
		if ev.Err != nil {
			_ = d.bar.Clear()
			fmt.Fprintf(d.w, "FAIL %s: %v\n", name, ev.Err)
		}
		d.bar.Describe(fmt.Sprintf("%s %s run %d/%d slice %d/%d", ev.Step.Cell.Workload.Name, ev.Step.Cell.Target.Name,
			ev.Step.Run, d.count, ev.Step.Slice, ev.Step.Slices))
		_ = d.bar.Add(1)
		return
	}
	if !cellDone {
		return
	}
	eta := time.Duration(0)
	if ev.Done > 0 {
		eta = time.Duration(float64(ev.Elapsed) / float64(ev.Done) * float64(ev.Total-ev.Done))
	}
	status := fmt.Sprintf("%d/%d runs", d.runs[name], d.count)
	if ev.Err != nil {
		status = fmt.Sprintf("FAIL: %v", ev.Err)
	}
	fmt.Fprintf(d.w, "[%d/%d %s, ETA %s] %s: %s\n", ev.Done, ev.Total,
		ev.Elapsed.Round(time.Second), eta.Round(time.Second), name, status)
}

// Finish clears the progress bar.
func (d *Display) Finish() {
	if d.bar != nil {
		_ = d.bar.Finish()
	}
}
