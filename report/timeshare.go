package report

import (
	"math"
	"slices"

	"fmt"
)

// Units of the time decomposition a runner writes on each result line
// (runner.ClientCPUUnit and its siblings; the report does not import the
// runner).
const (
	clientCPUUnit = "client-cpu-ns/op"
	serverCPUUnit = "server-cpu-ns/op"
	waitUnit      = "wait-ns/op"
)

// timeShareText says what the decomposition tables and charts show.
const timeShareText = "Where each operation's time goes, medians over the runs: the runner's CPU (client), the server's CPU (every process of the throwaway server or of a local server; - when not measured), and the rest of the wall time (wait: the network, the disk, wakeups, CPUs busy elsewhere). Shares are of the median ns/op; with several clients, or client and server busy at once, CPU can exceed the wall time and wait goes negative."

// TimeShare is one cell's time per operation, decomposed (medians of the
// runs, ns). Server and Wait are NaN when not measured.
type TimeShare struct {
	Wall, Client, Server, Wait float64
}

// TimeShare returns the cell's decomposition; ok is false when its results
// carry none.
func (s Summary) TimeShare() (ts TimeShare, ok bool) {
	client, ok := s.Stats[clientCPUUnit]
	if !ok {
		return ts, false
	}
	ts = TimeShare{Wall: s.NsPerOp.Center, Client: client.Median, Server: math.NaN(), Wait: math.NaN()}
	if st, ok := s.Stats[serverCPUUnit]; ok {
		ts.Server = st.Median
	}
	if st, ok := s.Stats[waitUnit]; ok {
		ts.Wait = st.Median
	}
	return ts, true
}

// timeShareGrids is the decomposition table of a family on one database,
// or none when no cell of it carries the units: a row per cell.
func timeShareGrids(t *Table) []textGrid {
	g := textGrid{Title: t.Family + " · " + t.DB + " · where the time goes (ns per operation, medians)",
		Header: []string{"workload", "target", "ns/op", "client CPU", "server CPU", "wait", "client", "server", "wait"}, Left: 2}
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
			g.Rows = append(g.Rows, []gridCell{label(row), label(col),
				label(FormatValue(ts.Wall)), label(FormatValue(ts.Client)), label(FormatValue(ts.Server)), label(FormatValue(ts.Wait)),
				label(share(ts.Client, ts.Wall)), label(share(ts.Server, ts.Wall)), label(share(ts.Wait, ts.Wall))})
		}
	}
	if len(g.Rows) == 0 {
		return nil
	}
	return []textGrid{g}
}

// share formats part as a percentage of whole, "-" when unknown.
func share(part, whole float64) string {
	if math.IsNaN(part) || !(whole > 0) {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*part/whole)
}

// timeShareChart is the stacked bar chart of one workload on one
// database: a bar per cell (driver/api and other keys), client CPU,
// server CPU and wait stacked, in µs per operation; nil when no cell
// carries the decomposition. A negative wait is drawn as none.
func timeShareChart(workload, db string, cells []*Cell) *Chart {
	var cats []string
	var parts [3][]float64
	for _, c := range cells {
		ts, ok := c.TimeShare()
		if !ok {
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
		for i, v := range []float64{ts.Client, ts.Server, ts.Wait} {
			if math.IsNaN(v) {
				v = 0
			}
			parts[i] = append(parts[i], max(0, v)/1e3)
		}
	}
	if len(cats) == 0 {
		return nil
	}
	bars := &BarData{Categories: cats, Stacked: true}
	for i, name := range []string{"client CPU", "server CPU", "wait"} {
		bars.Series = append(bars.Series, BarSeries{Name: name, Values: parts[i], Lo: nans(len(cats)), Hi: nans(len(cats))})
	}
	return &Chart{ID: chartID(workload, db, "time"), Title: workload + " · " + db + " · where the time goes",
		XLabel: "target", YLabel: "µs per operation (medians)", Bars: bars}
}

// isTimeShareUnit reports whether unit is one of the time decomposition's.
func isTimeShareUnit(unit string) bool {
	return unit == clientCPUUnit || unit == serverCPUUnit || unit == waitUnit
}
