package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/internal/textlayout"
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
// interval clears every other target's (no mark: a tie at that confidence).
// Failed cells show FAIL. Each is followed by the family's
// memory-and-latency table (B/op, allocs/op, latency percentiles,
// any other unit) and the run-to-run spread.
func Text(w io.Writer, r *Report) error {
	prose := cmp.Or(r.Width, textlayout.Width)
	for _, line := range []string{
		fmt.Sprintf("operations/s, median of %s (±: %s confidence interval)", r.RunsLabel(), r.ConfLabel()),
		"*: best in row, its interval clear of every other target's; no mark: a tie",
		fmt.Sprintf("ratio tables: ops/s ÷ the baseline's (%s), median and interval;", r.baselineLabel()),
		"  paired: median of the per-pass ratios of one session, order-statistic interval (benchmath);",
		fmt.Sprintf("  unpaired: ratio of the medians, bootstrap interval; equivalent: the interval lies within "+
			"the resolution %s (--resolution); faster/slower: else, it excludes 1; undecided: neither,",
			FormatResolution(r.resolution())),
		"  ~N runs: the runs per cell (--count) that would likely decide it",
	} {
		fmt.Fprint(w, textlayout.Wrap(line, prose, "    "))
	}
	for _, t := range r.Tables() {
		for _, g := range familyGrids(t, r.Baseline, r.resolution()) {
			if err := g.WriteTextWithin(w, r.Width); err != nil {
				return err
			}
		}
		if med, worst, ok := tableSpread(t); ok {
			fmt.Fprint(
				w,
				textlayout.Wrap(
					fmt.Sprintf(
						"run-to-run spread (coefficient of variation of ops/s): median %.1f%%, worst %.1f%% (%s)",
						100*med.CV,
						100*worst.CV,
						CellLabel(worst.Name),
					),
					prose,
					"  ",
				),
			)
		}
	}
	if d, ok := r.RatioDecisions(); ok && r.ratioTables() > 1 {
		fmt.Fprint(
			w,
			textlayout.Wrap(
				fmt.Sprintf("\nratio comparisons, every table: %s at %s", d, FormatResolution(r.resolution())),
				prose,
				"  ",
			),
		)
	}
	writeFooter(w, r)
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
