package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Markdown writes the report as Markdown: one table per workload family and
// database (rows = workloads, columns = driver/api, each value the median
// operations per second with its confidence interval as ±%, the best in
// each row in bold), the derived views (database/sql overhead, distance to
// the floor, scaling), and the environment the results were measured in.
func Markdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# sqlbench results\n\n")
	writeSourceLine(bw, r)
	fmt.Fprintf(bw, "Values are operations per second, the median of %s; ± is the %s confidence interval of the median as a share of it; **bold** is the best in its row.\n",
		r.RunsLabel(), r.ConfLabel())
	for _, t := range r.Tables() {
		fmt.Fprintf(bw, "\n## %s · %s\n\n", t.Family, t.DB)
		header := append([]string{"workload", "unit"}, t.Cols...)
		var rows [][]string
		for _, row := range t.Rows {
			best := t.Best(row)
			line := []string{row, t.RowUnit[row]}
			for _, col := range t.Cols {
				line = append(line, mdCell(t, row, col, best))
			}
			rows = append(rows, line)
		}
		mdTable(bw, header, rows)
	}
	writeOverheadMarkdown(bw, r.Overhead())
	writeFloorMarkdown(bw, r.Floor())
	writeScalingMarkdown(bw, Scalings(r.Sweeps()))
	if len(r.Failed) > 0 {
		fmt.Fprintf(bw, "\n## Failed cells\n\n")
		for _, f := range r.Failed {
			fmt.Fprintf(bw, "- `%s`: %s\n", f.Name, mdEscape(f.Reason))
		}
	}
	writeEnvMarkdown(bw, r.Env)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

func writeSourceLine(w io.Writer, r *Report) {
	if len(r.Sources) > 0 {
		fmt.Fprintf(w, "From %s: %d results in %d cells.\n", strings.Join(r.Sources, ", "), r.Results, len(r.Cells))
	} else {
		fmt.Fprintf(w, "%d results in %d cells.\n", r.Results, len(r.Cells))
	}
}

// mdCell formats one value of a family table.
func mdCell(t *Table, row, col, best string) string {
	c := t.Cell(row, col)
	if c == nil {
		if t.Failed(row, col) {
			return "FAIL"
		}
		return "-"
	}
	v := FormatValue(c.Ops.Center)
	if col == best {
		v = "**" + v + "**"
	}
	return v + " ±" + c.Ops.PctRangeString()
}

func writeOverheadMarkdown(w io.Writer, pairs []OverheadPair) {
	if len(pairs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## database/sql overhead\n\n")
	fmt.Fprintf(w, "Native ops/s over database/sql ops/s for drivers that have both: how many times slower the database/sql path is (above 1: database/sql is slower).\n")
	for _, db := range groupBy(pairs, func(p OverheadPair) string { return p.DB }) {
		fmt.Fprintf(w, "\n### %s\n\n", db)
		var ps []OverheadPair
		for _, p := range pairs {
			if p.DB == db {
				ps = append(ps, p)
			}
		}
		drivers := groupBy(ps, func(p OverheadPair) string { return p.Driver })
		var rows [][]string
		for _, row := range groupBy(ps, func(p OverheadPair) string { return p.Row }) {
			line := []string{row}
			for _, d := range drivers {
				v := "-"
				for _, p := range ps {
					if p.Row == row && p.Driver == d {
						v = FormatRatio(p.Ratio())
					}
				}
				line = append(line, v)
			}
			rows = append(rows, line)
		}
		mdTable(w, append([]string{"workload"}, drivers...), rows)
	}
}

func writeFloorMarkdown(w io.Writer, ds []FloorDistance) {
	fmt.Fprintf(w, "\n## Distance to the floor\n\n")
	if len(ds) == 0 {
		fmt.Fprintf(w, "No loopback round trip (%s/db=%s) in these results: no distance to the floor.\n", FloorWorkload, FloorDB)
		return
	}
	fmt.Fprintf(w, "Each networked cell's ns/op as a multiple of the loopback TCP round trip measured in the same results (floors used:")
	for i, f := range groupBy(ds, func(d FloorDistance) string { return d.Floor.Name }) {
		sep := ","
		if i == 0 {
			sep = ""
		}
		for _, d := range ds {
			if d.Floor.Name == f {
				fmt.Fprintf(w, "%s `%s` %s ns/op", sep, f, FormatValue(d.Floor.NsPerOp.Center))
				break
			}
		}
	}
	fmt.Fprintf(w, ").\n")
	for _, db := range groupBy(ds, func(d FloorDistance) string { return d.Cell.Keys["db"] }) {
		fmt.Fprintf(w, "\n### %s\n\n", db)
		var sub []FloorDistance
		for _, d := range ds {
			if d.Cell.Keys["db"] == db {
				sub = append(sub, d)
			}
		}
		cols := groupBy(sub, func(d FloorDistance) string { return d.Cell.Column() })
		var rows [][]string
		for _, row := range groupBy(sub, func(d FloorDistance) string { return d.Cell.Row() }) {
			line := []string{row}
			for _, col := range cols {
				v := "-"
				for _, d := range sub {
					if d.Cell.Row() == row && d.Cell.Column() == col {
						v = FormatRatio(d.Times)
					}
				}
				line = append(line, v)
			}
			rows = append(rows, line)
		}
		mdTable(w, append([]string{"workload"}, cols...), rows)
	}
}

func writeScalingMarkdown(w io.Writer, ss []Scaling) {
	if len(ss) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Scaling\n\n")
	fmt.Fprintf(w, "Operations per second by number of concurrent connections, and in parentheses the speed-up over the fewest connections; the ideal row is linear scaling.\n")
	for _, s := range ss {
		fmt.Fprintf(w, "\n### %s\n\n", s.Title())
		header := []string{"driver"}
		for _, x := range s.Xs {
			header = append(header, s.Key+"="+strconv.FormatFloat(x, 'g', -1, 64))
		}
		var rows [][]string
		for _, l := range s.Lines {
			line := []string{l.Name}
			for _, x := range s.Xs {
				v := "-"
				for i, p := range l.Points {
					if p.X == x {
						v = fmt.Sprintf("%s (%s)", FormatValue(p.Cell.Ops.Center), FormatRatio(s.Speedup(l, i)))
					}
				}
				line = append(line, v)
			}
			rows = append(rows, line)
		}
		ideal := []string{"ideal"}
		for _, x := range s.Xs {
			ideal = append(ideal, "("+FormatRatio(s.Ideal(x))+")")
		}
		mdTable(w, header, append(rows, ideal))
	}
}

func writeEnvMarkdown(w io.Writer, groups []EnvGroup) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Environment\n")
	for _, g := range groups {
		fmt.Fprintf(w, "\n### %s\n\n", g.Title)
		var rows [][]string
		for _, l := range g.Lines {
			rows = append(rows, []string{l.Key, l.Value})
		}
		mdTableAligned(w, []string{"setting", "value"}, rows, 2)
	}
}

// mdTable writes a Markdown table: the first column left-aligned, the
// others right-aligned.
func mdTable(w io.Writer, header []string, rows [][]string) { mdTableAligned(w, header, rows, 1) }

// mdTableAligned writes a Markdown table whose first left columns are
// left-aligned and the others right-aligned.
func mdTableAligned(w io.Writer, header []string, rows [][]string, left int) {
	row := func(cells []string) {
		fmt.Fprint(w, "|")
		for _, c := range cells {
			fmt.Fprintf(w, " %s |", mdEscape(c))
		}
		fmt.Fprintln(w)
	}
	row(header)
	fmt.Fprint(w, "|")
	for i := range header {
		if i < left {
			fmt.Fprint(w, "---|")
		} else {
			fmt.Fprint(w, "--:|")
		}
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		row(r)
	}
}

// mdEscape makes s safe inside a Markdown table cell.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;").Replace(s)
}

// FormatRatio formats a ratio as "1.23×".
func FormatRatio(v float64) string {
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}
