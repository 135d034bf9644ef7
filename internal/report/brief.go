package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// cpuBoundBlocked is the largest share of a cell's time its thread may
// spend blocked for the cell to count as CPU-bound (Brief): its thread
// ran or waited for a CPU, and never waited on a disk, a socket or a lock
// for longer.
const cpuBoundBlocked = 0.05

// tiedNames is the most targets a tie at the top of a row is named with
// (Brief); the rest are counted.
const tiedNames = 4

// Brief writes what a person reads on the terminal after a session, the
// detail tables left to Text and the Markdown and HTML reports: per table
// the operations-per-second table (with the spread and per-statement
// tables of the families that ask for them), the verdicts of its ratios to
// the baseline counted, and per workload the target whose interval clears
// every other's (Table.Best) or else the targets whose intervals overlap
// the highest median's. The ratio table itself is written only where each
// workload compares two targets (it is then as short as the verdicts); the
// where-the-time-goes table only where it says more than that every cell
// was CPU-bound, which is one line.
func Brief(w io.Writer, r *Report) error {
	prose := cmp.Or(r.Width, textlayout.Width)
	for _, line := range []string{
		fmt.Sprintf("operations/s, median of %s (±: %s confidence interval)", r.RunsLabel(), r.ConfLabel()),
		"*: best in row, its interval clear of every other target's; no mark: a tie",
	} {
		fmt.Fprint(w, textlayout.Wrap(line, prose, "    "))
	}
	for _, t := range r.Tables() {
		grids := []textlayout.Table{familyGrid(t)}
		if t.Spread {
			grids = append(grids, spreadGrid(t))
		}
		if g := stmtGrid(t); g != nil {
			grids = append(grids, *g)
		}
		if base, ok := t.BaselineOf(r.Baseline); ok && len(t.Ratios(base)) <= len(t.Rows) {
			grids = append(grids, ratioGrids([]*Table{t}, r.Baseline, r.resolution())...)
		}
		for _, g := range grids {
			if err := g.WriteTextWithin(w, r.Width); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, verdictLines(t, r.Baseline, r.resolution(), prose)); err != nil {
			return err
		}
		if line, ok := cpuBoundLine(t); ok {
			fmt.Fprint(w, textlayout.Wrap(line, prose, "  "))
			continue
		}
		for _, g := range timeShareGrids(t) {
			if err := g.WriteTextWithin(w, r.Width); err != nil {
				return err
			}
		}
	}
	writeFooter(w, r)
	return nil
}

// verdictLines is the verdicts of t's ratios to its baseline (want, as
// Table.BaselineOf) at resolution p, counted, then a line per workload naming its clearly
// best target or the targets tied at the top; "" when t has one target.
func verdictLines(t *Table, want string, p float64, width int) string {
	if len(t.Cols) < 2 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n")
	if base, ok := t.BaselineOf(want); ok {
		if qs := t.Ratios(base); len(qs) > 0 {
			how := howLabel(qs[0])
			for _, q := range qs {
				if howLabel(q) != how {
					how = "paired and unpaired" // the ratio table says which
				}
			}
			var d Decisions
			for _, q := range qs {
				d.Add(q.Kind(p))
			}
			b.WriteString(
				textlayout.Wrap(
					fmt.Sprintf("verdicts of ops/s ÷ %s's (%s), %s at %s", base, how, d, FormatResolution(p)),
					width,
					"  ",
				),
			)
		}
	}
	b.WriteString(textlayout.Wrap("leaders: the best (interval clear of every other's), else those tied at the top:",
		width, "  "))
	left := 0
	for _, row := range t.Rows {
		left = max(left, len([]rune(row)))
	}
	for _, row := range t.Rows {
		b.WriteString(
			textlayout.Wrap(
				fmt.Sprintf("  %-*s  %s", left, row, rowLeader(t, row)),
				width,
				strings.Repeat(" ", left+4),
			),
		)
	}
	return b.String()
}

// rowLeader names the target of row that is clearly the best
// (Table.Best), with its median, or else the targets whose ops/s
// intervals overlap the highest median's: a tie at the table's confidence.
func rowLeader(t *Table, row string) string {
	if best := t.Best(row); len(best) == 1 {
		return fmt.Sprintf(
			"best: %s (%s/s)",
			best[0],
			textlayout.FormatValue(t.Cell(row, best[0]).Stats["ops/s"].Median),
		)
	}
	var cols []string
	var sts []Stat
	for _, col := range t.Cols {
		if c := t.Cell(row, col); c != nil {
			if st, ok := c.Stats["ops/s"]; ok && !math.IsNaN(st.Median) {
				cols, sts = append(cols, col), append(sts, st)
			}
		}
	}
	if len(cols) < 2 {
		return "one target measured"
	}
	top := 0
	for i, st := range sts {
		if st.Median > sts[top].Median {
			top = i
		}
	}
	var at []int // the tied, highest median first
	for i, st := range sts {
		if i == top || !clears(sts[top], st, true) {
			at = append(at, i)
		}
	}
	slices.SortStableFunc(at, func(a, b int) int { return cmp.Compare(sts[b].Median, sts[a].Median) })
	var tied []string
	for _, i := range at {
		tied = append(tied, cols[i])
	}
	if len(tied) == len(cols) {
		return fmt.Sprintf("tie: all %d targets' intervals overlap (%s highest)", len(cols), cols[top])
	}
	names := strings.Join(tied[:min(len(tied), tiedNames)], ", ")
	if len(tied) > tiedNames {
		names += fmt.Sprintf(" and %d more", len(tied)-tiedNames)
	}
	return "tie: " + names
}

// cpuBoundLine says in one line that every cell of t was CPU-bound: its
// thread was on a CPU or in the run queue, blocked at most cpuBoundBlocked
// of the time, with no server CPU read; ok is false when some cell was
// not, lacks the division, or no cell has it (the table then says more).
func cpuBoundLine(t *Table) (line string, ok bool) {
	lo, hi, blocked, n := 1.0, 0.0, 0.0, 0
	for _, row := range t.Rows {
		for _, col := range t.Cols {
			c := t.Cell(row, col)
			if c == nil {
				continue
			}
			ts, has := c.TimeShare()
			if !has {
				continue
			}
			if !ts.Divided || !math.IsNaN(ts.Server) || !(ts.Wall > 0) || ts.Blocked/ts.Wall > cpuBoundBlocked {
				return "", false
			}
			on := ts.OnCPU / ts.Wall
			lo, hi, blocked, n = min(lo, on), max(hi, on), max(blocked, ts.Blocked/ts.Wall), n+1
		}
	}
	if n == 0 {
		return "", false
	}
	on := fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
	if math.Round(100*lo) == math.Round(100*hi) {
		on = fmt.Sprintf("%.0f%%", 100*hi)
	}
	return fmt.Sprintf("where the time goes · %s · %s: CPU-bound, every cell's thread on a CPU %s of its time, "+
		"the rest in the run queue, blocked at most %.0f%% (the table: --details, the reports)",
		t.Family, t.DB, on, 100*blocked), true
}

// Spread returns the cells of every table of r with the median and the
// largest coefficient of variation of ops/s over their runs (the
// run-to-run noise); ok is false when no cell has two runs.
func (r *Report) Spread() (median, worst *Cell, ok bool) { return spread(r.Tables()...) }
