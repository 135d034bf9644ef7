package wake

import (
	"fmt"
	"time"
)

// Recorder times every kind of round trip once per pass of a schedule
// whose pass p times run p%Count+1 (session.Schedule) and keeps the
// round trips by run.
type Recorder struct {
	Probe Probe
	// Count is the schedule's runs per cell.
	Count int

	passes int
	trips  map[int]map[Kind][]time.Duration // by run (0-based), then kind
	failed map[Kind]string
}

// Pass times the probes for pass p. A kind that fails is not timed again
// (its error is kept for the reading).
func (r *Recorder) Pass(p int) {
	if r.trips == nil {
		r.trips, r.failed = map[int]map[Kind][]time.Duration{}, map[Kind]string{}
	}
	run := p % max(r.Count, 1)
	if r.trips[run] == nil {
		r.trips[run] = map[Kind][]time.Duration{}
	}
	r.passes++
	for _, k := range Kinds() {
		if _, bad := r.failed[k]; bad {
			continue
		}
		d, err := r.Probe.Time(k)
		if err != nil {
			r.failed[k] = err.Error()
			continue
		}
		r.trips[run][k] = append(r.trips[run][k], d...)
	}
}

// Passes returns the number of passes timed.
func (r *Recorder) Passes() int { return r.passes }

func (r *Recorder) reading(runs ...int) Reading {
	out := Reading{Figures: map[Kind]Figures{}, Failed: r.failed}
	for _, k := range Kinds() {
		var all []time.Duration
		for _, run := range runs {
			all = append(all, r.trips[run][k]...)
		}
		if len(all) > 0 {
			out.Figures[k] = Summarize(all)
		}
	}
	return out
}

// Session returns the reading over every pass timed.
func (r *Recorder) Session() Reading {
	var runs []int
	for run := range r.Count {
		runs = append(runs, run)
	}
	return r.reading(runs...)
}

// Run returns the reading over the passes of run n (1-based), and whether
// any pass of it was timed.
func (r *Recorder) Run(n int) (Reading, bool) {
	_, ok := r.trips[n-1]
	return r.reading(n - 1), ok
}

// Facts returns what the results file keeps of the readings, as
// configuration keys and values: "wakeup" for the session, "wakeup-run-N"
// for each run timed. Nothing when no pass was timed.
func (r *Recorder) Facts() [][2]string {
	if r.passes == 0 {
		return nil
	}
	s := r.Session()
	trips := r.Probe.trips()
	out := [][2]string{
		{"wakeup", fmt.Sprintf("%s (round trip median/p90, %d before each of %d passes)", s, trips, r.passes)}}
	for n := 1; n <= r.Count; n++ {
		if rd, ok := r.Run(n); ok {
			out = append(out, [2]string{fmt.Sprintf("wakeup-run-%d", n), rd.String()})
		}
	}
	return out
}
