package report

import (
	"bytes"
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
	prose := cmp.Or(r.Width, TextWidth)
	for _, line := range []string{
		fmt.Sprintf("operations/s, median of %s (±: %s confidence interval)", r.RunsLabel(), r.ConfLabel()),
		"*: best in row, its interval clear of every other target's; no mark: a tie",
		fmt.Sprintf("ratio tables: ops/s ÷ the baseline's (%s), median and interval;", r.baselineLabel()),
		"  paired: median of the per-pass ratios of one session, order-statistic interval (benchmath);",
		"  unpaired: ratio of the medians, bootstrap interval; faster/slower: the interval excludes 1;",
		fmt.Sprintf("  equivalent: it lies within the resolution %s (--resolution); undecided: neither,", FormatResolution(r.resolution())),
		"  ~N runs: the runs per cell (--count) that would likely decide it",
	} {
		fmt.Fprint(w, WrapText(line, prose, "    "))
	}
	for _, t := range r.Tables() {
		for _, g := range familyGrids(t, r.Baseline, r.resolution()) {
			if err := writeGridTextWithin(w, g, r.Width); err != nil {
				return err
			}
		}
		if med, worst, ok := tableSpread(t); ok {
			fmt.Fprint(w, WrapText(fmt.Sprintf("run-to-run spread (coefficient of variation of ops/s): median %.1f%%, worst %.1f%% (%s)", 100*med.CV, 100*worst.CV, CellLabel(worst.Name)), prose, "  "))
		}
	}
	if d, ok := r.RatioDecisions(); ok && r.ratioTables() > 1 {
		fmt.Fprint(w, WrapText(fmt.Sprintf("\nratio comparisons, every table: %s at %s", d, FormatResolution(r.resolution())),
			prose, "  "))
	}
	writeFooter(w, r)
	return nil
}

// writeGridTextWithin writes g as writeGridText does when it fits in width
// columns (or width is 0 or less); a wider table is split into tables of
// the same rows and label columns, each with as many of the value columns
// (targets) as fit, titled "(part k of n)", its notes under the last.
func writeGridTextWithin(w io.Writer, g textGrid, width int) error {
	parts := splitColumns(g, width)
	if len(parts) == 1 {
		return writeGridText(w, g)
	}
	for k, cols := range parts {
		sub := textGrid{Title: fmt.Sprintf("%s (part %d of %d)", g.Title, k+1, len(parts)), Left: g.Left, Groups: g.Groups,
			LeftLast: g.LeftLast && slices.Contains(cols, len(g.Header)-1)}
		pick := func(cells []gridCell) []gridCell {
			out := slices.Clone(cells[:g.Left])
			for _, c := range cols {
				out = append(out, cells[c])
			}
			return out
		}
		for i := range g.Left {
			sub.Header = append(sub.Header, g.Header[i])
		}
		for _, c := range cols {
			sub.Header = append(sub.Header, g.Header[c])
		}
		for _, row := range g.Rows {
			sub.Rows = append(sub.Rows, pick(row))
		}
		if k == len(parts)-1 {
			sub.Notes = g.Notes
		}
		if err := writeGridText(w, sub); err != nil {
			return err
		}
	}
	return nil
}

// splitColumns groups the value columns of g (by index) so that each
// group, with the label columns, renders within width columns; one group
// of all when width is 0 or less or the table fits.
func splitColumns(g textGrid, width int) [][]int {
	colWidth := func(i int) int {
		n := utf8.RuneCountInString(g.Header[i])
		for _, row := range g.Rows {
			c := row[i]
			v := c.Text
			if i >= g.Left {
				v = strings.TrimRight(" "+v+" "+c.Note, " ")
			}
			n = max(n, utf8.RuneCountInString(v))
		}
		return n + 2 // the tab writer's padding
	}
	labels := 0
	for i := range g.Left {
		labels += colWidth(i)
	}
	var parts [][]int
	var cur []int
	used := labels
	for i := g.Left; i < len(g.Header); i++ {
		cw := colWidth(i)
		if width > 0 && len(cur) > 0 && used+cw > width {
			parts = append(parts, cur)
			cur, used = nil, labels
		}
		cur = append(cur, i)
		used += cw
	}
	if len(cur) > 0 || len(parts) == 0 {
		parts = append(parts, cur)
	}
	// As many parts as needed, of about as many targets each where that
	// fits too (9 targets as 3+3+3, not 4+4+1).
	n, cols := len(parts), len(g.Header)-g.Left
	if n < 2 {
		return parts
	}
	var even [][]int
	for k := range n {
		var part []int
		used := labels
		for i := g.Left + k*cols/n; i < g.Left+(k+1)*cols/n; i++ {
			part = append(part, i)
			used += colWidth(i)
		}
		if used > width {
			return parts
		}
		even = append(even, part)
	}
	return even
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
	last := len(g.Header) - 1
	lastWidth := 0
	if g.LeftLast {
		lastWidth = utf8.RuneCountInString(g.Header[last])
		for _, row := range g.Rows {
			lastWidth = max(lastWidth, utf8.RuneCountInString(row[last].Text)+1) // the mark column
		}
	}
	pad := func(s string, i int) string {
		switch {
		case i < g.Left:
			return s + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s))
		case g.LeftLast && i == last:
			return s + strings.Repeat(" ", max(0, lastWidth-utf8.RuneCountInString(s)))
		}
		return s
	}
	var buf bytes.Buffer // the lines, whose padding after the last column is trimmed
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	for i, h := range g.Header {
		if g.LeftLast && i == last {
			h = " " + h // over the values, which follow a mark column
		}
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
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		body = strings.TrimRight(body, " ")
		if nl {
			body += "\n"
		}
		if _, err := io.WriteString(w, body); err != nil {
			return err
		}
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
	workload, _, _ := strings.Cut(name, "/")
	s := Summary{Name: name, Workload: workload, Keys: map[string]string{}}
	for _, kv := range NameKeys(name) {
		k, v, _ := strings.Cut(kv, "=")
		s.Keys[k] = v
	}
	return s
}

// tableSpread returns the cells of t with the median and the largest
// coefficient of variation; ok is false when no cell has two runs.
func tableSpread(t *Table) (median, worst *Cell, ok bool) { return spread(t) }

// spread returns, of the cells of tables with two runs or more, those
// with the median and the largest coefficient of variation; ok is false
// when there are none.
func spread(tables ...*Table) (median, worst *Cell, ok bool) {
	var cells []*Cell
	for _, t := range tables {
		for _, row := range t.Rows {
			for _, col := range t.Cols {
				if c := t.Cell(row, col); c != nil && c.Runs > 1 {
					cells = append(cells, c)
				}
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

// writeFooter ends the text and brief reports alike: the note on the
// baseline, where there is one, the runs the machine disturbed (noise.go)
// and every failed cell with its reason.
func writeFooter(w io.Writer, r *Report) {
	writeNoise(w, r)
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
}
