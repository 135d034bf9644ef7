package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Failure is a cell that produced no result, and why.
type Failure struct {
	Name   string
	Reason string
}

// Text writes the report as text tables, one per workload family and
// database: rows are workloads, columns targets in catalogue order, each
// value the median operations per second over the runs with its confidence
// interval as ±%; the best value in a row is marked with '*' where its
// interval clears every other target's (no mark: a tie at that confidence). Failed cells show FAIL. Each is followed by the
// family's memory-and-latency table (B/op, allocs/op, latency percentiles,
// any other unit) and the run-to-run spread.
func Text(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "operations/s, median of %s (±: %s confidence interval)\n", r.RunsLabel(), r.ConfLabel())
	fmt.Fprintln(w, "*: best in row, its interval clear of every other target's; no mark: a tie")
	fmt.Fprintf(w, "ratio tables: ops/s ÷ the baseline's (%s), median and interval;\n", r.baselineLabel())
	fmt.Fprintln(w, "  paired: median of the per-pass ratios of one session, order-statistic interval (benchmath);")
	fmt.Fprintln(w, "  unpaired: ratio of the medians, bootstrap interval; ≈: no clear difference (interval holds 1)")
	for _, t := range r.Tables() {
		for _, g := range familyGrids(t, r.Baseline) {
			if err := writeGridText(w, g); err != nil {
				return err
			}
		}
		if med, worst, ok := tableSpread(t); ok {
			fmt.Fprintf(w, "run-to-run spread (coefficient of variation of ops/s): median %.1f%%, worst %.1f%% (%s)\n", 100*med.CV, 100*worst.CV, worst.Name)
		}
	}
	if note := r.BaselineNote(); note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
	if len(r.Failed) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "failed cells:")
		for _, f := range r.Failed {
			fmt.Fprintf(w, "  %s: %s\n", f.Name, f.Reason)
		}
	}
	return nil
}

// writeGridText writes g as a titled text table: label columns aligned
// left, values right, the best marked with '*'.
func writeGridText(w io.Writer, g textGrid) error {
	fmt.Fprintf(w, "\n%s\n", g.Title)
	widths := make([]int, g.Left)
	for i := range g.Left {
		widths[i] = utf8.RuneCountInString(g.Header[i])
		for _, row := range g.Rows {
			widths[i] = max(widths[i], utf8.RuneCountInString(row[i].Text))
		}
	}
	pad := func(s string, i int) string {
		if i < g.Left {
			return s + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s))
		}
		return s
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for i, h := range g.Header {
		fmt.Fprintf(tw, "%s\t", pad(h, i))
	}
	fmt.Fprintln(tw)
	for _, row := range g.Rows {
		for i, c := range row {
			v := c.Text
			if i >= g.Left {
				mark := " "
				if c.Bold {
					mark = "*"
				}
				v = strings.TrimRight(mark+v+" "+c.Note, " ")
			}
			fmt.Fprintf(tw, "%s\t", pad(v, i))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range g.Notes {
		if _, err := io.WriteString(w, WrapText("  "+n, TextWidth, "  ")); err != nil {
			return err
		}
	}
	return nil
}

// nameSummary parses a benchmark name into an empty Summary.
func nameSummary(name string) Summary {
	parts := strings.Split(name, "/")
	s := Summary{Name: name, Workload: parts[0], Keys: map[string]string{}}
	for _, p := range parts[1:] {
		if k, v, ok := strings.Cut(p, "="); ok {
			s.Keys[k] = v
		}
	}
	return s
}

// tableSpread returns the cells of t with the median and the largest
// coefficient of variation; ok is false when no cell has two runs.
func tableSpread(t *Table) (median, worst *Cell, ok bool) {
	var cells []*Cell
	for _, row := range t.Rows {
		for _, col := range t.Cols {
			if c := t.Cell(row, col); c != nil && c.Runs > 1 {
				cells = append(cells, c)
			}
		}
	}
	if len(cells) == 0 {
		return nil, nil, false
	}
	slices.SortStableFunc(cells, func(a, b *Cell) int { return cmp.Compare(a.CV, b.CV) })
	return cells[(len(cells)-1)/2], cells[len(cells)-1], true
}

func runsLabel(sums map[[2]string]Summary) string {
	lo, hi := math.MaxInt, 0
	for _, s := range sums {
		lo, hi = min(lo, s.Runs), max(hi, s.Runs)
	}
	switch {
	case hi == 0:
		return "0 runs"
	case lo == hi:
		return strconv.Itoa(lo) + " runs"
	default:
		return fmt.Sprintf("%d-%d runs", lo, hi)
	}
}

// confLabel names the confidence level of a table's intervals, or the range
// of levels when the run counts differ.
func confLabel(sums map[[2]string]Summary) string {
	lo, hi := 1.0, 0.0
	for _, s := range sums {
		if math.IsInf(s.Ops.Lo, 0) || math.IsInf(s.Ops.Hi, 0) {
			continue // too few runs for any interval: shown as ±∞
		}
		lo, hi = min(lo, s.Ops.Confidence), max(hi, s.Ops.Confidence)
	}
	if hi == 0 {
		return "no"
	}
	pct := func(c float64) string { return strconv.FormatFloat(math.Floor(c*1000)/10, 'f', -1, 64) + "%" }
	if lo >= hi {
		return pct(hi)
	}
	return pct(lo) + "-" + pct(hi)
}

// Thousands formats v rounded to an integer with ',' between thousands.
func Thousands(v float64) string {
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
