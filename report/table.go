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
)

// Failure is a cell that produced no result, and why.
type Failure struct {
	Name   string
	Reason string
}

// Text writes one table per database: rows are workloads, columns are
// drivers, each value the median operations per second over the runs with
// its 95% confidence interval as ±%; the best value in each row is marked
// with '*'. Failed cells show FAIL.
func Text(w io.Writer, sums []Summary, failed []Failure) error {
	dbs, byDB := splitByDB(sums, failed)
	for i, db := range dbs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		t := byDB[db]
		fmt.Fprintf(w, "%s: operations/s, median of %s (±: %s confidence interval; *: best in row)\n", db, runsLabel(t.sums), confLabel(t.sums))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for _, c := range t.cols {
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
		for _, row := range t.rows {
			fmt.Fprintf(tw, "%s\t", row)
			best := t.best(row)
			for _, col := range t.cols {
				fmt.Fprintf(tw, "%s\t", t.cell(row, col, best))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if med, worst, ok := t.spread(); ok {
			fmt.Fprintf(w, "run-to-run spread (coefficient of variation of ops/s): median %.1f%%, worst %.1f%% (%s)\n", 100*med.CV, 100*worst.CV, worst.Name)
		}
	}
	if err := writeTimeShareText(w, sums); err != nil {
		return err
	}
	if len(failed) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "failed cells:")
		for _, f := range failed {
			fmt.Fprintf(w, "  %s: %s\n", f.Name, f.Reason)
		}
	}
	return nil
}

// grid is one database's table.
type grid struct {
	rows, cols []string
	sums       map[[2]string]Summary
	failed     map[[2]string]bool
}

func splitByDB(sums []Summary, failed []Failure) ([]string, map[string]*grid) {
	var dbs []string
	byDB := map[string]*grid{}
	get := func(db string) *grid {
		g, ok := byDB[db]
		if !ok {
			g = &grid{sums: map[[2]string]Summary{}, failed: map[[2]string]bool{}}
			byDB[db] = g
			dbs = append(dbs, db)
		}
		return g
	}
	add := func(g *grid, row, col string) {
		g.rows, g.cols = appendNew(g.rows, row), appendNew(g.cols, col)
	}
	for _, s := range sums {
		g := get(s.Keys["db"])
		add(g, s.Row(), s.Column())
		g.sums[[2]string{s.Row(), s.Column()}] = s
	}
	for _, f := range failed {
		fs := nameSummary(f.Name)
		g := get(fs.Keys["db"])
		add(g, fs.Row(), fs.Column())
		if _, ok := g.sums[[2]string{fs.Row(), fs.Column()}]; !ok {
			g.failed[[2]string{fs.Row(), fs.Column()}] = true
		}
	}
	return dbs, byDB
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

// spread returns the cells with the median and the largest coefficient of
// variation; ok is false when no cell has two runs.
func (g *grid) spread() (median, worst Summary, ok bool) {
	var cells []Summary
	for _, s := range g.sums {
		if s.Runs > 1 {
			cells = append(cells, s)
		}
	}
	if len(cells) == 0 {
		return Summary{}, Summary{}, false
	}
	slices.SortFunc(cells, func(a, b Summary) int { return cmp.Compare(a.CV, b.CV) })
	return cells[(len(cells)-1)/2], cells[len(cells)-1], true
}

func (g *grid) best(row string) string {
	best, bestCol := math.Inf(-1), ""
	for _, col := range g.cols {
		if s, ok := g.sums[[2]string{row, col}]; ok && s.Ops.Center > best {
			best, bestCol = s.Ops.Center, col
		}
	}
	return bestCol
}

func (g *grid) cell(row, col, best string) string {
	s, ok := g.sums[[2]string{row, col}]
	if !ok {
		if g.failed[[2]string{row, col}] {
			return "FAIL"
		}
		return "-"
	}
	mark := " "
	if col == best {
		mark = "*"
	}
	return fmt.Sprintf("%s%s ±%s", mark, Thousands(s.Ops.Center), s.Ops.PctRangeString())
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
