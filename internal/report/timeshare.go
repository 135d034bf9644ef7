package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/sqlbench/sqlbench/internal/charts"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// Units of results files written before the thread's time was divided:
// the whole runner's CPU and the rest of ns/op, which is not a division of
// the timed thread's time (it can go negative). They are read (compare,
// CSV), never divided.
const (
	oldClientCPUUnit = "client-cpu-ns/op"
	oldWaitUnit      = "wait-ns/op"
)

// timeShareNote says what the decomposition tables show.
const timeShareNote = "on CPU + run queue + blocked = ns/op: the thread that ran the operations, " +
	"by the kernel's accounting (medians of the runs' shares; several clients: their mean). " +
	"background (rest of the runner) and server CPU run in parallel: % of ns/op, can exceed 100%."

// TimeShare is one cell's time per operation, divided (ns). OnCPU,
// RunQueue and Blocked add up to Wall (the median ns/op): each is Wall
// times the median over the runs of its share of that run's ns/op, the
// three medians scaled to add up to 1. Background and Server are medians
// of CPU time spent in parallel (not parts of Wall), NaN when not read.
type TimeShare struct {
	Wall, OnCPU, RunQueue, Blocked float64
	Background, Server             float64
	// Divided is false when the runs carry no division of the thread's
	// time (OnCPU, RunQueue and Blocked are then NaN).
	Divided bool
}

// TimeShare returns the cell's decomposition; ok is false when its
// results carry none of it.
func (s Summary) TimeShare() (ts TimeShare, ok bool) {
	ts = TimeShare{Wall: s.NsPerOp.Center, OnCPU: math.NaN(), RunQueue: math.NaN(), Blocked: math.NaN(),
		Background: math.NaN(), Server: math.NaN()}
	if st, ok := s.Stats[unit.ServerCPU]; ok {
		ts.Server = st.Median
	}
	if st, ok := s.Stats[unit.BackgroundCPU]; ok {
		ts.Background = st.Median
	}
	if shares, ok := s.threadShares(); ok {
		ts.OnCPU, ts.RunQueue, ts.Blocked = ts.Wall*shares[0], ts.Wall*shares[1], ts.Wall*shares[2]
		ts.Divided = true
	}
	return ts, ts.Divided || !math.IsNaN(ts.Server)
}

// threadShares returns the medians over the runs of each run's on-CPU,
// run-queue and blocked shares of its ns/op, scaled to add up to 1; ok is
// false when some run lacks them.
func (s Summary) threadShares() (shares [3]float64, ok bool) {
	wall := s.Values["ns/op"]
	parts := [3][]float64{s.Values[unit.OnCPU], s.Values[unit.RunQueue], s.Values[unit.Blocked]}
	for _, p := range parts {
		if len(wall) == 0 || len(p) != len(wall) {
			return shares, false
		}
	}
	total := 0.0
	for k, p := range parts {
		var each []float64
		for i, v := range p {
			if wall[i] > 0 {
				each = append(each, max(v, 0)/wall[i])
			}
		}
		if len(each) == 0 {
			return shares, false
		}
		shares[k] = Median(each)
		total += shares[k]
	}
	if !(total > 0) {
		return shares, false
	}
	for k := range shares {
		shares[k] /= total
	}
	return shares, true
}

// timeShareGrids is the decomposition table of a family on one database,
// or none when no cell of it carries the units: a row per cell.
func timeShareGrids(t *Table) []textlayout.Table {
	g := textlayout.Table{Title: t.Family + " · " + t.DB + " · where the time goes (ns per operation, medians)",
		Header: []string{
			"workload",
			"target",
			"ns/op",
			"on CPU",
			"run queue",
			"blocked",
			"background CPU",
			"server CPU",
		},
		Left: 2}
	undivided := false
	for _, row := range t.Rows {
		for _, col := range t.Cols {
			c := t.Cell(row, col)
			if c == nil {
				continue
			}
			ts, ok := c.TimeShare()
			if !ok {
				continue
			}
			part := func(v float64) textlayout.Cell {
				if !ts.Divided {
					return textlayout.Label("n/a")
				}
				return textlayout.Label(share(v, ts.Wall))
			}
			undivided = undivided || !ts.Divided
			g.Rows = append(
				g.Rows,
				[]textlayout.Cell{
					textlayout.Label(row),
					textlayout.Label(col),
					textlayout.Label(textlayout.FormatValue(ts.Wall)),
					part(ts.OnCPU),
					part(ts.RunQueue),
					part(ts.Blocked),
					parallelCPU(ts.Background, ts.Wall),
					parallelCPU(ts.Server, ts.Wall),
				},
			)
		}
	}
	if len(g.Rows) == 0 {
		return nil
	}
	g.Notes = []string{timeShareNote}
	if undivided {
		g.Notes = append(g.Notes, "n/a: the runs carry no division of the thread's time: a Go cell on a socket under "+
			"--timing-thread auto (the default; locked divides it, at a thread hand-over per round trip), "+
			"--timing-thread free, a kernel without schedstat, or an older sqlbench's file.")
	}
	if !slices.ContainsFunc(g.Rows, func(r []textlayout.Cell) bool { return r[7].Text != "-" }) {
		g.Notes = append(
			g.Notes,
			"server CPU -: no server process (SQLite), or not one this user can read on this machine.",
		)
	}
	return []textlayout.Table{g}
}

// parallelCPU formats CPU time spent in parallel with an operation: ns and
// its ratio to the operation's wall time (which can exceed 100%); "-" when
// not read.
func parallelCPU(v, wall float64) textlayout.Cell {
	if math.IsNaN(v) {
		return textlayout.Label("-")
	}
	return textlayout.Cell{Text: textlayout.FormatValue(v), Note: "(" + share(v, wall) + ")"}
}

// share formats part as a percentage of whole, "-" when unknown.
func share(part, whole float64) string {
	if math.IsNaN(part) || !(whole > 0) {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*part/whole)
}

// timeShareChart is the chart of where one workload's time goes on one
// database: per cell (driver/api and other keys), a bar of the thread's
// on-CPU, run-queue and blocked time stacked up to its ns/op, and beside
// it a bar of the CPU time spent in parallel (background and server
// stacked), in µs per operation; nil when no cell carries the division.
func timeShareChart(workload, db string, cells []*Cell) *charts.Chart {
	var cats []string
	var parts [5][]float64
	for _, c := range cells {
		ts, ok := c.TimeShare()
		if !ok || !ts.Divided {
			continue
		}
		cat := c.Column()
		if x := c.Extra(); x != "" {
			cat += " " + x
		}
		if slices.Contains(cats, cat) {
			continue
		}
		cats = append(cats, cat)
		for i, v := range []float64{ts.OnCPU, ts.RunQueue, ts.Blocked, ts.Background, ts.Server} {
			if math.IsNaN(v) {
				v = 0
			}
			parts[i] = append(parts[i], v/1e3)
		}
	}
	if len(cats) == 0 {
		return nil
	}
	bars := &charts.BarData{Categories: cats, Stacked: true}
	names := []string{"on CPU", "run queue", "blocked", "background CPU (in parallel)", "server CPU (in parallel)"}
	for i, name := range names {
		bars.Series = append(
			bars.Series,
			charts.BarSeries{Name: name, Values: parts[i], Lo: nans(len(cats)), Hi: nans(len(cats)),
				Stack: min(i/3, 1)},
		)
	}
	return &charts.Chart{ID: charts.ID(workload, db, "time"), Title: workload + " · " + db + " · where the time goes",
		XLabel: "target (left bar: the operation's time; right bar: CPU in parallel)",
		YLabel: "µs per operation (medians)", Bars: bars}
}

// isTimeShareUnit reports whether unit is one of the time decomposition's
// units, including those of results files written before the division.
func isTimeShareUnit(u string) bool {
	switch u {
	case unit.OnCPU, unit.RunQueue, unit.Blocked, unit.BackgroundCPU, unit.ServerCPU, oldClientCPUUnit, oldWaitUnit:
		return true
	}
	return false
}
