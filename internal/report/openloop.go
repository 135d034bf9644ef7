package report

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/internal/charts"
)

// seriesKeyPrefix begins the configuration key of an open-loop run's time
// series (sqlbench run --rate --progress; the session's recordProgress):
// "series-K: NAME: t=1s ops/s=… p50=… p99=… … | t=2s …".
const seriesKeyPrefix = "series-"

// openLoopRun is one run's time series: per interval, its end from the
// start of the run's operations (slices laid end to end), the operations
// finished per second and their p99 latency from the scheduled start.
type openLoopRun struct {
	name      string
	t, rate   []float64 // seconds, operations per second
	p99Millis []float64
}

// openLoopRuns reads the time series the cells' configuration carries, in
// the order of their keys (series-1, series-2 …); a series that does not
// parse is left out.
func openLoopRuns(cells []*Cell) []openLoopRun {
	seen := map[string]bool{}
	type keyed struct {
		k   int
		run openLoopRun
	}
	var runs []keyed
	for _, c := range cells {
		for _, kv := range c.Config {
			k, err := strconv.Atoi(strings.TrimPrefix(kv.Key, seriesKeyPrefix))
			if !strings.HasPrefix(kv.Key, seriesKeyPrefix) || err != nil || seen[kv.Key] {
				continue
			}
			seen[kv.Key] = true
			if r, ok := parseSeries(kv.Value); ok {
				runs = append(runs, keyed{k, r})
			}
		}
	}
	slices.SortFunc(runs, func(a, b keyed) int { return a.k - b.k })
	out := make([]openLoopRun, len(runs))
	for i, r := range runs {
		out[i] = r.run
	}
	return out
}

// parseSeries reads one series value: "NAME: iv | iv …", each interval
// "t=D ops/s=F p50=D p99=D …". An interval's t restarting lower begins a
// run's next slice, laid after the one before.
func parseSeries(v string) (openLoopRun, bool) {
	name, rest, ok := strings.Cut(v, ": ")
	if !ok {
		return openLoopRun{}, false
	}
	r := openLoopRun{name: name}
	var offset, last float64
	for _, iv := range strings.Split(rest, " | ") {
		f := map[string]string{}
		for _, field := range strings.Fields(iv) {
			if k, val, ok := strings.Cut(field, "="); ok {
				f[k] = val
			}
		}
		t, err1 := time.ParseDuration(f["t"])
		rate, err2 := strconv.ParseFloat(f["ops/s"], 64)
		p99, err3 := time.ParseDuration(f["p99"])
		if err1 != nil || err2 != nil || err3 != nil {
			return openLoopRun{}, false
		}
		if t.Seconds() < last {
			offset += last
		}
		last = t.Seconds()
		r.t = append(r.t, offset+t.Seconds())
		r.rate = append(r.rate, rate)
		r.p99Millis = append(r.p99Millis, float64(p99)/float64(time.Millisecond))
	}
	return r, len(r.t) > 0
}

// openLoopCharts returns two line charts per cell of an open-loop session
// with a time series: the p99 latency from the scheduled start per
// interval, and the operations finished per second, one line per run.
func openLoopCharts(cells []*Cell) []charts.Chart {
	byName := map[string][]openLoopRun{}
	var names []string
	for _, r := range openLoopRuns(cells) {
		if byName[r.name] == nil {
			names = append(names, r.name)
		}
		byName[r.name] = append(byName[r.name], r)
	}
	var out []charts.Chart
	for i, name := range names {
		label := shortName(name)
		p99 := charts.Chart{ID: fmt.Sprintf("open-loop-%d-p99", i+1), Title: label + ": p99 from the scheduled start",
			XLabel: "seconds into the run", YLabel: "p99 latency (ms)"}
		rate := charts.Chart{ID: fmt.Sprintf("open-loop-%d-rate", i+1), Title: label + ": finished per second",
			XLabel: "seconds into the run", YLabel: "ops/s"}
		for k, r := range byName[name] {
			run := fmt.Sprintf("run %d", k+1)
			p99.Lines = append(p99.Lines, charts.LineSeries{Name: run, X: r.t, Y: r.p99Millis, Lo: nan(len(r.t)),
				Hi: nan(len(r.t))})
			rate.Lines = append(rate.Lines, charts.LineSeries{Name: run, X: r.t, Y: r.rate, Lo: nan(len(r.t)),
				Hi: nan(len(r.t))})
		}
		out = append(out, p99, rate)
	}
	return out
}

// openLoopText introduces the open-loop section of the HTML report.
const openLoopText = "Each open-loop run's time series (run --rate with --progress): per interval, the p99 " +
	"latency of the operations finished in it, measured from their scheduled starts (a stall shows as a peak), " +
	"and how many finished per second. See docs/open-loop.md."

// openLoopHTML returns the HTML report's open-loop section, or nil when no
// run recorded a time series.
func openLoopHTML(r *Report) (*htmlSection, error) {
	cs := openLoopCharts(r.Cells)
	if len(cs) == 0 {
		return nil, nil
	}
	hs := &htmlSection{ID: "open-loop", Title: "Open-loop load over time", Text: openLoopText}
	for _, c := range cs {
		svg, err := c.SVG()
		if err != nil {
			return nil, err
		}
		hs.Charts = append(hs.Charts, htmlChart{ID: c.ID, Title: c.Title, Points: c.Points(), SVG: template.HTML(svg)})
	}
	return hs, nil
}

// shortName is a run's name as a chart's title holds it: the workload and
// the values of its keys ("Script postgres pgx sql tcp").
func shortName(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts[1:] {
		if _, v, ok := strings.Cut(p, "="); ok {
			parts[i+1] = v
		}
	}
	return strings.Join(parts, " ")
}

// nan returns n NaNs: no error bars.
func nan(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}
