package report

import (
	"math"
	"slices"

	"golang.org/x/perf/benchunit"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Measure is a unit of the result lines shown beside operations per second
// in the memory-and-latency tables: B/op, allocs/op, the latency
// percentiles and any other unit the results hold.
type Measure struct {
	// Unit is the unit as written on the result lines ("p99-ns/op").
	Unit string
	// Label names it in a table ("p99 latency").
	Label string
	// Higher is set when more is better.
	Higher bool
	// Format formats a median of the unit.
	Format func(float64) string
	// Setting is set when the values follow a setting, not the target
	// (benchfile.UnitInfo.Setting): no best is marked.
	Setting bool
}

// knownMeasures are the units sqlbench writes besides ns/op and ops/s
// (benchfile.Units), in the order the tables show them.
func knownMeasures() []Measure {
	var out []Measure
	for _, u := range benchfile.Units() {
		if u.Unit == "ops/s" || u.Unit == "ns/op" { // the main tables' units
			continue
		}
		m := Measure{
			Unit:    u.Unit,
			Label:   u.Label,
			Higher:  u.Better == "higher",
			Format:  textlayout.FormatValue,
			Setting: u.Setting,
		}
		switch u.Of {
		case benchfile.Nanoseconds:
			m.Format = FormatDuration
		case benchfile.Bytes:
			m.Format = FormatBytes
		}
		out = append(out, m)
	}
	return out
}

// UnitOrder is every unit sqlbench writes, in the order tables and files
// show them: ops/s, ns/op, then the measures.
func UnitOrder() []string {
	out := []string{"ops/s", "ns/op"}
	for _, m := range knownMeasures() {
		out = append(out, m.Unit)
	}
	return out
}

// MeasureOf returns how unit is shown: a known one as knownMeasures says,
// any other under its own name, better as benchfile.HigherIsBetter says.
func MeasureOf(unit string) Measure {
	for _, m := range knownMeasures() {
		if m.Unit == unit {
			return m
		}
	}
	return Measure{Unit: unit, Label: unit, Higher: benchfile.HigherIsBetter(unit), Format: textlayout.FormatValue}
}

// measuresOf returns the measures that some cell of cells has, known ones
// first in their order, then the others by name; ops/s and ns/op, which
// the main tables show, and the time decomposition's and a script's
// per-statement units, which have tables of their own, and the machine's
// noise units (noise.go) are left out.
func measuresOf(cells []*Cell) []Measure {
	seen := map[string]bool{}
	var others []string
	for _, c := range cells {
		for u := range c.Stats {
			if !seen[u] {
				seen[u] = true
				known := slices.ContainsFunc(knownMeasures(), func(m Measure) bool { return m.Unit == u })
				if !known && u != "ops/s" && u != "ns/op" && !isTimeShareUnit(u) && !isStmtUnit(u) && !IsNoiseUnit(u) {
					others = append(others, u)
				}
			}
		}
	}
	var out []Measure
	for _, m := range knownMeasures() {
		if seen[m.Unit] {
			out = append(out, m)
		}
	}
	slices.Sort(others)
	for _, u := range others {
		out = append(out, MeasureOf(u))
	}
	return out
}

// measureGrid is the memory-and-latency table of a family on one database:
// for each workload a row per measure its cells have, a column per target,
// each value the median over the runs; the best in a row is marked where
// its interval clears every other target's (Table.BestIn). It is nil when the cells have no
// measure beyond ops/s and ns/op.
func measureGrid(t *Table) *textlayout.Table {
	g := &textlayout.Table{Title: t.Family + " · " + t.DB + " · memory and latency (medians of the runs)",
		Header: append([]string{"workload", "measure"}, t.Cols...), Left: 2, Groups: true}
	for _, row := range t.Rows {
		var cells []*Cell
		for _, col := range t.Cols {
			if c := t.Cell(row, col); c != nil {
				cells = append(cells, c)
			}
		}
		for i, m := range measuresOf(cells) {
			name := row
			if i > 0 {
				name = ""
			}
			var best []string
			if !m.Setting {
				best = t.BestIn(row, m.Unit, m.Higher)
			}
			line := []textlayout.Cell{textlayout.Label(name), textlayout.Label(m.Label)}
			for _, col := range t.Cols {
				v := textlayout.Label("-")
				if c := t.Cell(row, col); c != nil {
					if st, ok := c.Stats[m.Unit]; ok {
						v = textlayout.Cell{Text: m.Format(st.Median), Bold: slices.Contains(best, col)}
					}
				}
				line = append(line, v)
			}
			g.Rows = append(g.Rows, line)
		}
	}
	if len(g.Rows) == 0 {
		return nil
	}
	return g
}

// FormatDuration formats nanoseconds as benchstat does
// (x/perf/benchunit): at least four significant digits in the largest SI
// unit that keeps them at least 1: "850.0ns", "37.89µs", "2.236ms".
func FormatDuration(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return "-"
	}
	return benchunit.Scale(ns/1e9, benchunit.Decimal) + "s"
}

// FormatBytes formats a byte count as benchstat does, in binary units:
// "512.0B", "348.0KiB", "21.51MiB".
func FormatBytes(b float64) string {
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return "-"
	}
	return benchunit.Scale(b, benchunit.Binary) + "B"
}
