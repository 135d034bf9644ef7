package report

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// familyGrids is the table of one family on one database, its ratios to
// the baseline (baseline: a target, or "" for the first in catalogue
// order; ratioGrids, at resolution p) and, when the family asks for it, the table of its
// runs' spread.
func familyGrids(t *Table, baseline string, p float64) []textlayout.Table {
	out := append([]textlayout.Table{familyGrid(t)}, ratioGrids([]*Table{t}, baseline, p)...)
	if t.Spread {
		out = append(out, spreadGrid(t))
	}
	if g := measureGrid(t); g != nil {
		out = append(out, *g)
	}
	if g := stmtGrid(t); g != nil {
		out = append(out, *g)
	}
	return append(out, timeShareGrids(t)...)
}

// spreadGrid is the spread of a family's runs on one database: per cell,
// the median ± standard deviation of operations per second, then the
// minimum and maximum run.
func spreadGrid(t *Table) textlayout.Table {
	return cellGrid(
		t,
		" · median ± standard deviation (min–max) of the runs",
		func(c *Cell, _ bool) (textlayout.Cell, bool) {
			st, ok := c.Stats["ops/s"]
			return textlayout.Cell{Text: textlayout.FormatValue(st.Median) + " ± " + textlayout.FormatValue(st.StdDev),
				Note: "(" + textlayout.FormatValue(st.Min) + "–" + textlayout.FormatValue(st.Max) + ")"}, ok
		},
	)
}

// familyGrid is the table of one family on one database.
func familyGrid(t *Table) textlayout.Table {
	return cellGrid(t, "", func(c *Cell, best bool) (textlayout.Cell, bool) {
		return textlayout.Cell{
			Text: textlayout.FormatValue(c.Ops.Center),
			Note: "±" + c.Ops.PctRangeString(),
			Bold: best,
		}, true
	})
}

// cellGrid lays out a family's table on one database, titled by family,
// database and suffix: a row per workload, a column per target. show
// renders a cell that has runs (best: it is clearly the best in its row) and says
// whether it could; a cell it cannot show reads FAIL if the cell failed,
// else -.
func cellGrid(t *Table, suffix string, show func(c *Cell, best bool) (textlayout.Cell, bool)) textlayout.Table {
	g := textlayout.Table{
		Title:  t.Family + " · " + t.DB + suffix,
		Header: append([]string{"workload", "unit"}, t.Cols...),
		Left:   2,
	}
	for _, row := range t.Rows {
		best := t.Best(row)
		line := []textlayout.Cell{textlayout.Label(row), textlayout.Label(t.RowUnit[row])}
		for _, col := range t.Cols {
			cell, ok := textlayout.Cell{}, false
			if c := t.Cell(row, col); c != nil {
				cell, ok = show(c, slices.Contains(best, col))
			}
			switch {
			case ok:
				line = append(line, cell)
			case t.Failed(row, col):
				line = append(line, textlayout.Label("FAIL"))
			default:
				line = append(line, textlayout.Label("-"))
			}
		}
		g.Rows = append(g.Rows, line)
	}
	return g
}

// overheadGrids is the database/sql overhead, one table per database: rows
// are workloads, columns drivers.
func overheadGrids(pairs []OverheadPair) []textlayout.Table {
	var out []textlayout.Table
	for _, db := range groupBy(pairs, func(p OverheadPair) string { return p.DB }) {
		var ps []OverheadPair
		for _, p := range pairs {
			if p.DB == db {
				ps = append(ps, p)
			}
		}
		drivers := groupBy(ps, func(p OverheadPair) string { return p.Driver })
		g := textlayout.Table{Title: db, Header: append([]string{"workload"}, drivers...), Left: 1}
		for _, row := range groupBy(ps, func(p OverheadPair) string { return p.Row }) {
			line := []textlayout.Cell{textlayout.Label(row)}
			for _, d := range drivers {
				v := textlayout.Label("-")
				for _, p := range ps {
					if p.Row == row && p.Driver == d {
						v = textlayout.Label(FormatRatio(p.Ratio()))
					}
				}
				line = append(line, v)
			}
			g.Rows = append(g.Rows, line)
		}
		out = append(out, g)
	}
	return out
}

// floorGrids is the distance to the floor, one table per database: rows
// are workloads, columns driver/api.
func floorGrids(ds []FloorDistance) []textlayout.Table {
	var out []textlayout.Table
	for _, db := range groupBy(ds, func(d FloorDistance) string { return d.Cell.Keys["db"] }) {
		var sub []FloorDistance
		for _, d := range ds {
			if d.Cell.Keys["db"] == db {
				sub = append(sub, d)
			}
		}
		cols := groupBy(sub, func(d FloorDistance) string { return d.Cell.Column() })
		slices.SortStableFunc(cols, compareColumns)
		times := map[[2]string]float64{}
		for _, d := range sub {
			times[[2]string{d.Cell.Row(), d.Cell.Column()}] = d.Times
		}
		g := textlayout.Table{Title: db, Header: append([]string{"workload"}, cols...), Left: 1}
		for _, row := range groupBy(sub, func(d FloorDistance) string { return d.Cell.Row() }) {
			line := []textlayout.Cell{textlayout.Label(row)}
			for _, col := range cols {
				v := textlayout.Label("-")
				if x, ok := times[[2]string{row, col}]; ok {
					v = textlayout.Label(FormatRatio(x))
				}
				line = append(line, v)
			}
			g.Rows = append(g.Rows, line)
		}
		out = append(out, g)
	}
	return out
}

// floorNote names the floors used.
func floorNote(ds []FloorDistance) string {
	s := ""
	for i, f := range groupBy(ds, func(d FloorDistance) string { return d.Floor.Name }) {
		if i > 0 {
			s += ", "
		}
		for _, d := range ds {
			if d.Floor.Name == f {
				s += fmt.Sprintf("%s %s ns/op", f, textlayout.FormatValue(d.Floor.NsPerOp.Center))
				break
			}
		}
	}
	return s
}

// scalingGrids is one table per concurrency sweep: rows are driver/api,
// columns the connection counts, each value ops/s with the speed-up over
// the fewest connections in parentheses; the last row is the ideal.
func scalingGrids(ss []Scaling) []textlayout.Table {
	var out []textlayout.Table
	for _, s := range ss {
		g := textlayout.Table{Title: s.Title(), Header: []string{"driver"}, Left: 1}
		for _, x := range s.Xs {
			g.Header = append(g.Header, s.Key+"="+strconv.FormatFloat(x, 'g', -1, 64))
		}
		for _, l := range s.Lines {
			line := []textlayout.Cell{textlayout.Label(l.Name)}
			for _, x := range s.Xs {
				v := textlayout.Label("-")
				for i, p := range l.Points {
					if p.X == x {
						v = textlayout.Cell{
							Text: textlayout.FormatValue(p.Cell.Ops.Center),
							Note: "(" + FormatRatio(s.Speedup(l, i)) + ")",
						}
					}
				}
				line = append(line, v)
			}
			g.Rows = append(g.Rows, line)
		}
		ideal := []textlayout.Cell{textlayout.Label("ideal")}
		for _, x := range s.Xs {
			ideal = append(ideal, textlayout.Cell{Note: "(" + FormatRatio(s.Ideal(x)) + ")"})
		}
		out = append(out, textlayout.Table{Title: g.Title, Header: g.Header, Rows: append(g.Rows, ideal), Left: 1})
	}
	return out
}

// envGrids is the environment, one table per group.
func envGrids(groups []EnvGroup) []textlayout.Table {
	var out []textlayout.Table
	for _, eg := range groups {
		g := textlayout.Table{Title: eg.Title, Header: []string{"setting", "value"}, Left: 2, Wrap: true}
		for _, l := range eg.Lines {
			g.Rows = append(g.Rows, []textlayout.Cell{textlayout.Label(l.Key), textlayout.Label(l.Value)})
		}
		out = append(out, g)
	}
	return out
}

// Texts used by both the Markdown and the HTML outputs.
const (
	overheadText = "Native ops/s divided by database/sql ops/s, for each driver that has both paths: how many " +
		"times slower the database/sql path is (above 1: database/sql is slower; below 1: faster). Columns \"A vs " +
		"B\" set two drivers on one engine side by side, A native and B through database/sql, as a published study " +
		"did: eatonphil vs mattn is the database/sql-overhead study's gosqlite vs mattn/go-sqlite3 (both cgo " +
		"SQLite), bvinc vs mattn its origin go-sqlite-lite, zombiezen vs modernc two APIs on modernc's SQLite " +
		"engine (compared by go-sqlite-bench), crawshaw vs mattn the Sqinn-Go study's two cgo SQLite drivers, pgx " +
		"vs pq the database/sql-overhead study's PostgreSQL pair (pgx native, lib/pq through database/sql; the " +
		"same wire protocol)."
	floorText = "Each networked cell's ns/op as a multiple of the loopback TCP round trip measured in the same " +
		"results: how far the cell is from what the transport alone costs."
	noFloorText = "No loopback round trip (" + FloorWorkload + "/db=" + FloorDB + ") in these results, so no " +
		"distance to the floor."
	measuresText = "Each family's memory-and-latency table gives, per cell, the medians over the runs of bytes and " +
		"allocations per operation (B/op, allocs/op; absent on the JDBC runner), the 50th, 99th and 99.9th latency " +
		"percentiles of single operations (from each run's HDR histogram), and any other unit measured (MB/s, the " +
		"runner's peak resident memory and its growth)."
	scalingText = "Operations per second by number of concurrent connections; in parentheses the speed-up over " +
		"the fewest connections. The ideal row is linear scaling."
)
