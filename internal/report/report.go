package report

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// WorkloadInfo is what a binary knows of a workload: the family it is
// reported in and the name of its operations ("queries", "rows").
type WorkloadInfo struct {
	Family, Unit string
	// Spread asks for the runs' median ± standard deviation, minimum and
	// maximum beside the confidence interval (the bulk-insert study's
	// statistics).
	Spread bool
	// Rank is the workload's place in the catalogue; tables come in the
	// order of their families' first workloads.
	Rank int
}

// Lookup returns what is known of the workload named name; ok is false for
// a workload the binary does not know (a plain `go test -bench` file, or a
// workload added after it was built). The cli passes bench.LookupWorkload
// through it, so that this package does not depend on registration.
type Lookup func(name string) (info WorkloadInfo, ok bool)

// Defaults for workloads that Lookup does not know.
const (
	OtherFamily = "other"
	OtherUnit   = "ops"
)

// Cell is one summarized cell with what is known of its workload.
type Cell struct {
	Summary
	// Family and Unit come from the Lookup (OtherFamily and OtherUnit when
	// it does not know the workload).
	Family, Unit string
	// Spread and Rank are the Lookup's (Rank is after every known workload
	// when it does not know this one).
	Spread bool
	Rank   int
}

// Extra returns the cell's keys other than db, driver and api, in name
// order ("net=tcp/conns=4"), or "" when it has none.
func (c *Cell) Extra() string { return extraLabel(c.Name, "") }

// extraLabel returns the key=value parts of a benchmark name other than
// db, driver, api and skip, joined by '/', then the name's GOMAXPROCS
// suffix ("-4"), if any.
func extraLabel(name, skip string) string {
	_, cpu := SplitCPU(name)
	return strings.Join(NameKeys(name, "db", "driver", "api", skip), "/") + cpu
}

// SplitCPU splits a benchmark name into the name without its GOMAXPROCS
// suffix and the suffix ("-4", as go test -cpu writes it; "" without one).
func SplitCPU(name string) (base, suffix string) {
	_, parts := benchfmt.Name(name).Parts()
	if n := len(parts); n > 0 && bytes.HasPrefix(parts[n-1], []byte("-")) {
		suffix = string(parts[n-1])
	}
	return strings.TrimSuffix(name, suffix), suffix
}

// Report is one or more results files, summarized: what every output
// format shows.
type Report struct {
	// Sources names the results files read, for the heading.
	Sources []string
	// Width is the columns Text fits its tables in: a wider table is
	// split into parts of as many targets as fit. 0 writes every table
	// whole, however wide; New sets textlayout.Width.
	Width int
	// Results is the number of result lines summarized.
	Results int
	// Cells in report order, whatever order the results came in:
	// database, workload and target in catalogue order (compareCells).
	Cells []*Cell
	// Failed is the cells that produced no result (from a run).
	Failed []Failure
	// Env is the configuration lines of the results, grouped.
	Env []EnvGroup
	// Partial, when set, says the results are of a session that did not
	// finish (and how to finish it); the reports say so at the top.
	Partial string
	// Baseline is the target every other is set against in the ratio
	// tables (Table.Ratios); "" takes the first target of each table in
	// catalogue order.
	Baseline string
	// Resolution is the smallest relative difference of a ratio that
	// matters (0.05: 5% either way): a ratio whose interval lies within
	// [1/(1+Resolution), 1+Resolution] is equivalent (Classify). 0 takes
	// DefaultResolution.
	Resolution float64
	// StudyResolution is the resolution of the published-beside-measured
	// comparisons (the measured ratio over the published one); 0 takes
	// published.CrossMachineTolerance.
	StudyResolution float64
	// Parts are sections a caller puts at the head of the Markdown and
	// HTML reports, before the tables (published.Parts: the studies the
	// results reproduce).
	Parts []Part
}

// Part is a section of the Markdown and HTML reports that the report does
// not build itself: a reproduced study's published-beside-measured tables
// (package published).
type Part struct {
	// ID and Title name the HTML section; Text is its text, Tables its
	// tables.
	ID, Title, Text string
	Tables          []textlayout.Table
	// Markdown is the part as Markdown, its heading included.
	Markdown string
}

// BaselineNote says when the baseline asked for is in no table, so that
// no ratio table is shown: "" when it is in one, or none was asked for.
func (r *Report) BaselineNote() string {
	if r.Baseline == "" {
		return ""
	}
	for _, t := range r.Tables() {
		if _, ok := t.BaselineOf(r.Baseline); ok {
			return ""
		}
	}
	return "no ratio tables: no table has the baseline " + r.Baseline + " beside another target"
}

// baselineLabel names the baseline of the ratio tables.
func (r *Report) baselineLabel() string {
	if r.Baseline != "" {
		return r.Baseline
	}
	return "the first target of each table"
}

// New summarizes results into a Report. lookup may be nil.
func New(rs []*benchfmt.Result, failed []Failure, lookup Lookup) *Report {
	r := &Report{Results: len(rs), Failed: failed, Width: textlayout.Width}
	for _, s := range Summarize(rs) {
		c := &Cell{Summary: s, Family: OtherFamily, Unit: OtherUnit, Rank: math.MaxInt}
		if lookup != nil {
			if info, ok := lookup(s.Workload); ok {
				c.Family, c.Unit, c.Spread, c.Rank = info.Family, info.Unit, info.Spread, info.Rank
			}
		}
		r.Cells = append(r.Cells, c)
	}
	sortCells(r.Cells)
	r.Env = groupEnv(r.Cells)
	return r
}

// Table is one table of the report: one workload family on one database;
// rows are workloads (with any keys beyond db, driver and api), columns are
// driver/api.
type Table struct {
	Family, DB string
	Rows, Cols []string
	// RowUnit is the unit of each row's values ("queries/s").
	RowUnit map[string]string
	// Spread is set when a cell of the table asks for the runs' spread
	// (WorkloadInfo.Spread).
	Spread bool
	cells  map[[2]string]*Cell
	failed map[[2]string]bool
}

// Cell returns the cell at row, col, or nil.
func (t *Table) Cell(row, col string) *Cell { return t.cells[[2]string{row, col}] }

// Failed reports whether the cell at row, col failed in the run.
func (t *Table) Failed(row, col string) bool { return t.failed[[2]string{row, col}] }

// Best returns the column with clearly the most operations per second in
// row (BestIn).
func (t *Table) Best(row string) []string {
	return t.BestIn(row, "ops/s", true)
}

// BestIn returns the column with the best median of unit in row (the
// highest when higher is better, else the lowest) when its confidence
// interval clears the interval of every other column with a value there:
// the intervals do not overlap, so the runs support calling it the best.
// It returns nil when there is no such column: fewer than two columns have
// a value, the best medians tie, an interval is unknown (too few runs), or
// the best's interval overlaps another's (a tie at this confidence).
func (t *Table) BestIn(row, unit string, higher bool) []string {
	var cols []string
	var sts []Stat
	for _, col := range t.Cols {
		if c := t.Cell(row, col); c != nil {
			if st, ok := c.Stats[unit]; ok && !math.IsNaN(st.Median) {
				cols, sts = append(cols, col), append(sts, st)
			}
		}
	}
	if len(sts) < 2 {
		return nil
	}
	b := 0
	for i, st := range sts {
		if higher && st.Median > sts[b].Median || !higher && st.Median < sts[b].Median {
			b = i
		}
	}
	for i, st := range sts {
		if i != b && !clears(sts[b], st, higher) {
			return nil
		}
	}
	return []string{cols[b]}
}

// clears reports whether best's confidence interval lies wholly on the
// better side of other's, without touching it; never when either interval
// is unknown (infinite bounds).
func clears(best, other Stat, higher bool) bool {
	for _, v := range []float64{best.Lo, best.Hi, other.Lo, other.Hi} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	if higher {
		return best.Lo > other.Hi
	}
	return best.Hi < other.Lo
}

// Tables returns one table per family and database: families in catalogue
// order (WorkloadInfo.Rank; unknown ones last), databases in order of first
// appearance.
func (r *Report) Tables() []*Table {
	var out []*Table
	get := func(family, db string) *Table {
		for _, t := range out {
			if t.Family == family && t.DB == db {
				return t
			}
		}
		t := &Table{
			Family:  family,
			DB:      db,
			RowUnit: map[string]string{},
			cells:   map[[2]string]*Cell{},
			failed:  map[[2]string]bool{},
		}
		out = append(out, t)
		return t
	}
	add := func(t *Table, row, col string) {
		t.Rows, t.Cols = appendNew(t.Rows, row), appendNew(t.Cols, col)
	}
	familyOf := map[string]string{}
	rank := map[string]int{}
	for _, c := range r.Cells {
		if have, ok := rank[c.Family]; !ok || c.Rank < have {
			rank[c.Family] = c.Rank
		}
		t := get(c.Family, c.Keys["db"])
		add(t, c.Row(), c.Column())
		t.cells[[2]string{c.Row(), c.Column()}] = c
		t.RowUnit[c.Row()] = c.Unit + "/s"
		t.Spread = t.Spread || c.Spread
		familyOf[c.Workload] = c.Family
	}
	for _, f := range r.Failed {
		s := nameSummary(f.Name)
		family, ok := familyOf[s.Workload]
		if !ok {
			family = OtherFamily
		}
		t := get(family, s.Keys["db"])
		add(t, s.Row(), s.Column())
		if t.Cell(s.Row(), s.Column()) == nil {
			t.failed[[2]string{s.Row(), s.Column()}] = true
		}
	}
	rowRank := map[string]int{}
	for _, c := range r.Cells {
		rowRank[c.Workload] = c.Rank
	}
	for _, t := range out {
		slices.SortStableFunc(t.Cols, compareColumns)
		slices.SortStableFunc(t.Rows, func(a, b string) int { return compareRows(a, b, rowRank) })
	}
	slices.SortStableFunc(out, func(a, b *Table) int {
		ra, oka := rank[a.Family]
		rb, okb := rank[b.Family]
		if !oka {
			ra = math.MaxInt // only failures: after the measured families
		}
		if !okb {
			rb = math.MaxInt
		}
		return cmp.Or(cmp.Compare(ra, rb), compareDBs(a.DB, b.DB))
	})
	return out
}

// compareRows orders row labels by their workload's catalogue rank (rank,
// by workload; a workload without one last), workload name, then the other
// keys (compareExtras).
func compareRows(a, b string, rank map[string]int) int {
	wa, ea, _ := strings.Cut(a, "/")
	wb, eb, _ := strings.Cut(b, "/")
	ra, ok := rank[wa]
	if !ok {
		ra = math.MaxInt
	}
	rb, ok := rank[wb]
	if !ok {
		rb = math.MaxInt
	}
	return cmp.Or(cmp.Compare(ra, rb), strings.Compare(wa, wb), compareExtras(ea, eb))
}

// RunsLabel describes the run counts of the report's cells: "5 runs",
// "3-10 runs".
func (r *Report) RunsLabel() string {
	m := map[[2]string]Summary{}
	for _, c := range r.Cells {
		m[[2]string{c.Name}] = c.Summary
	}
	return runsLabel(m)
}

// ConfLabel describes the confidence level of the report's intervals.
func (r *Report) ConfLabel() string {
	m := map[[2]string]Summary{}
	for _, c := range r.Cells {
		m[[2]string{c.Name}] = c.Summary
	}
	return confLabel(m)
}
