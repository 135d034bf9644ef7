package report

import (
	"math"
	"slices"
	"strconv"
	"strings"
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
}

// knownMeasures are the units sqlbench writes besides ns/op and ops/s, in
// the order the tables show them.
func knownMeasures() []Measure {
	return []Measure{
		{"B/op", "B/op", false, FormatValue},
		{"allocs/op", "allocs/op", false, FormatValue},
		{"p50-ns/op", "p50 latency", false, FormatDuration},
		{"p99-ns/op", "p99 latency", false, FormatDuration},
		{"p99.9-ns/op", "p99.9 latency", false, FormatDuration},
		{"MB/s", "MB/s", true, FormatValue},
		{"peak-RSS-B", "peak RSS", false, FormatBytes},
		{"RSS-growth-B", "RSS growth", false, FormatBytes},
	}
}

// MeasureOf returns how unit is shown: a known one as knownMeasures says,
// any other under its own name, better higher when it is a rate ("/s").
func MeasureOf(unit string) Measure {
	for _, m := range knownMeasures() {
		if m.Unit == unit {
			return m
		}
	}
	return Measure{Unit: unit, Label: unit, Higher: strings.HasSuffix(unit, "/s"), Format: FormatValue}
}

// measuresOf returns the measures that some cell of cells has, known ones
// first in their order, then the others by name; ops/s and ns/op, which
// the main tables show, and the time decomposition's and a script's
// per-statement units, which have tables of their own, are left out.
func measuresOf(cells []*Cell) []Measure {
	seen := map[string]bool{}
	var others []string
	for _, c := range cells {
		for u := range c.Stats {
			if !seen[u] {
				seen[u] = true
				known := slices.ContainsFunc(knownMeasures(), func(m Measure) bool { return m.Unit == u })
				if !known && u != "ops/s" && u != "ns/op" && !isTimeShareUnit(u) && !isStmtUnit(u) {
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
func measureGrid(t *Table) *textGrid {
	g := &textGrid{Title: t.Family + " · " + t.DB + " · memory and latency (medians of the runs)",
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
			best := t.BestIn(row, m.Unit, m.Higher)
			line := []gridCell{label(name), label(m.Label)}
			for _, col := range t.Cols {
				v := label("-")
				if c := t.Cell(row, col); c != nil {
					if st, ok := c.Stats[m.Unit]; ok {
						v = gridCell{Text: m.Format(st.Median), Bold: slices.Contains(best, col)}
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

// FormatDuration formats nanoseconds with three significant digits in the
// largest unit that keeps them at least 1: "850 ns", "37.9 µs", "2.24 ms".
func FormatDuration(ns float64) string {
	return scaled(ns, 1000, []string{"ns", "µs", "ms", "s"})
}

// FormatBytes formats a byte count with three significant digits in binary
// units: "512 B", "348 KiB", "21.5 MiB".
func FormatBytes(b float64) string {
	return scaled(b, 1024, []string{"B", "KiB", "MiB", "GiB", "TiB"})
}

// scaled divides v by step until it is below step (or the units run out)
// and formats it with three significant digits and the unit.
func scaled(v, step float64, units []string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	i := 0
	for ; i < len(units)-1 && math.Abs(v) >= step*0.9995; i++ {
		v /= step
	}
	var s string
	switch a := math.Abs(v); {
	case a >= 99.95:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 9.995:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	default:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	}
	if i == 0 && v == math.Trunc(v) {
		s = strconv.FormatFloat(v, 'f', 0, 64) // whole bytes and nanoseconds
	}
	return s + " " + units[i]
}
