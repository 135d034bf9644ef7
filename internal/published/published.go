// Package published sets the published studies' figures beside what a session measured, for sqlbench reproduce
// and the reports of its results: each comparison's published ratio beside the measured one with its interval
// (For, Tables), the verdict at the study resolution (agrees, disagrees, undecided) with the study's known cause or
// hypothesis of a disagreement, the published memory figures, as text (Text) and as the sections of the Markdown and
// HTML reports (Parts, set as report.Report.Parts).
package published

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/internal/report"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/internal/variant"
	"github.com/sqlbench/sqlbench/targets"
)

// StudyKey is the results file's configuration key naming the published
// study a session reproduced (sqlbench reproduce).
const StudyKey = benchfile.KeyStudy

// Row is one headline comparison of a study: the published ratio
// beside the measured one.
type Row struct {
	studies.Comparison
	// Measured is the measured ratio of ops/s, Num over Den (measure), Lo
	// and Hi its interval at Confidence. Zero when not measured.
	Measured, Lo, Hi, Confidence float64
	// NumCell and DenCell are the cells measured (nil when missing).
	NumCell, DenCell *report.Cell
	// Verdict is one of the Verdict constants (see judge); Runs the runs
	// of the sides' cells, Settle the runs estimated to settle an
	// inconclusive verdict (-1: more than report.MaxSettleRuns, 0: none), Cause
	// the study's measured cause of a disagreement, when one applies
	// (studies.Study.CauseOf); else Hypothesis is a hypothesis the study
	// names for it, and Missed says the measured cause that names it was
	// measured at other ratios.
	Verdict    string
	Runs       int
	Settle     int
	Cause      string
	Hypothesis string
	Missed     string
	// Versions are the driver versions the comparison ran at:
	// studies.VersionsPinned when both its cells ran their side's
	// catalogue target, else studies.VersionsPeriod (a version target:
	// reproduce's default, the study's own versions).
	Versions string

	// Resolution is the band about the published ratio within which the
	// measured one agrees (0: CrossMachineTolerance).
	Resolution float64
}

// Table is a reproduced study's comparisons, published beside
// measured.
type Table struct {
	Study *studies.Study
	Rows  []Row

	// Resolution is the rows' (report.Report.StudyResolution; 0:
	// CrossMachineTolerance).
	Resolution float64
	// Memory holds the study's published memory figures (B/op, allocs/op)
	// beside the measured ones, one row per test and side; empty when the
	// study published none.
	Memory []Memory
}

// Memory is one side's published B/op and allocs/op on one test
// beside the medians measured.
type Memory struct {
	Test      studies.Test
	Side      studies.Side
	Published studies.Memory
	// Cell is the cell measured (nil when missing); Bytes and Allocs are
	// its medians of B/op and allocs/op.
	Cell          *report.Cell
	Bytes, Allocs float64
}

// Tables returns the published-beside-measured table of every study the
// results record (the reproduce-study configuration line), in the order
// they appear; nil when they record none.
func Tables(r *report.Report) []*Table {
	var ids []string
	for _, c := range r.Cells {
		for _, kv := range c.Config {
			if kv.Key == StudyKey && !slices.Contains(ids, kv.Value) {
				ids = append(ids, kv.Value)
			}
		}
	}
	var out []*Table
	for _, id := range ids {
		if s, ok := studies.Lookup(id); ok {
			out = append(out, For(r, s))
		}
	}
	return out
}

// For sets study s's comparisons beside the report's cells.
func For(r *report.Report, s *studies.Study) *Table {
	t := &Table{Study: s, Resolution: r.StudyResolution}
	for _, c := range s.Comparisons() {
		row := Row{Comparison: c, Verdict: VerdictNotMeasured, Resolution: r.StudyResolution}
		var numBuild, denBuild bool
		row.NumCell, numBuild = studyCell(r, s, c.Num, c.Test)
		row.DenCell, denBuild = studyCell(r, s, c.Den, c.Test)
		row.Versions = studies.VersionsPinned
		if numBuild || denBuild {
			row.Versions = studies.VersionsPeriod
		}
		if n, d := row.NumCell, row.DenCell; n != nil && d != nil && n.Ops.Center > 0 && d.Ops.Center > 0 {
			row.measure(n, d)
			row.judge(s)
		}
		t.Rows = append(t.Rows, row)
	}
	for _, test := range s.Tests {
		for _, side := range s.Sides {
			m, ok := test.Memory[side.Name]
			if !ok {
				continue
			}
			cell, _ := studyCell(r, s, side, test)
			row := Memory{Test: test, Side: side, Published: m, Cell: cell}
			if row.Cell != nil {
				row.Bytes, row.Allocs = row.Cell.Medians["B/op"], row.Cell.Medians["allocs/op"]
			}
			t.Memory = append(t.Memory, row)
		}
	}
	return t
}

// measure sets the measured ratio of cells n and d. In a budgeted
// session's file (KeyLookBounds) it is the paired ratio of the last look
// both cells reached (rankedRatio). Else, with as many runs in
// each, run i of the one paired with run i of the other (they ran in the
// same passes of the interleaved schedule), it is the median of the
// per-run ratios with its confidence interval (benchmath, as every cell's
// own); else the ratio of the medians, bounded by n's interval over d's.
func (row *Row) measure(n, d *report.Cell) {
	if q, ok := report.LookedRatio(n, d); ok { // a budgeted session's: the look the two reached
		row.Measured, row.Lo, row.Hi, row.Confidence = q.Ratio, q.Lo, q.Hi, q.Confidence
		return
	}
	if len(n.OpsRuns) == len(d.OpsRuns) && len(n.OpsRuns) >= 2 {
		ratios := make([]float64, len(n.OpsRuns))
		for i := range ratios {
			if d.OpsRuns[i] <= 0 {
				ratios = nil
				break
			}
			ratios[i] = n.OpsRuns[i] / d.OpsRuns[i]
		}
		if ratios != nil {
			sum := report.SummarizeValues(ratios)
			row.Measured, row.Lo, row.Hi, row.Confidence = sum.Center, sum.Lo, sum.Hi, sum.Confidence
			return
		}
	}
	row.Measured = n.Ops.Center / d.Ops.Center
	row.Lo, row.Hi = n.Ops.Lo/d.Ops.Hi, n.Ops.Hi/d.Ops.Lo
	row.Confidence = min(n.Ops.Confidence, d.Ops.Confidence)
}

// studyCell finds the cell of side running test's workload: the side's
// target (db, driver, api), the workload's name and keys exactly, the
// test's GOMAXPROCS suffix, and the study's first transport when the cell
// ran over several; the bool reports that it is a version target's (the
// catalogue target's own cell comes first).
func studyCell(r *report.Report, s *studies.Study, side studies.Side, test studies.Test) (*report.Cell, bool) {
	spec, ok := targets.Lookup(side.Target)
	if !ok {
		return nil, false
	}
	name, keys, _ := strings.Cut(studies.WorkloadOf(side, test), "/")
	var found, build *report.Cell
	for _, c := range r.Cells {
		driver := c.Keys["driver"]
		if c.Workload != name || c.Keys["db"] != string(spec.DB) || c.Keys["api"] != spec.API ||
			cellCPU(c.Name) != test.CPU || workloadKeys(c) != keys {
			continue
		}
		switch {
		case driver == spec.Driver:
			if found == nil || len(s.Plan.Nets) > 0 && c.Keys["net"] == s.Plan.Nets[0] {
				found = c
			}
		case isVersionOf(driver, spec.Driver):
			// A version target of the side's (reproduce's period versions).
			if build == nil || len(s.Plan.Nets) > 0 && c.Keys["net"] == s.Plan.Nets[0] {
				build = c
			}
		}
	}
	if found == nil {
		return build, build != nil
	}
	return found, false
}

// workloadKeys returns the cell's key=value parts other than the target's
// and the transport's, in order: the workload ID's keys.
func workloadKeys(c *report.Cell) string {
	return strings.Join(report.NameKeys(c.Name, "db", "driver", "api", "net"), "/")
}

// cellCPU returns the GOMAXPROCS suffix of a benchmark name (go test -cpu's
// "-N"), 0 when it has none.
func cellCPU(name string) int {
	_, suffix := report.SplitCPU(name)
	n, _ := strconv.Atoi(strings.TrimPrefix(suffix, "-"))
	return n
}

// publishedGrid is the table of a study's comparisons.
func publishedGrid(t *Table) textlayout.Table {
	s := t.Study
	g := textlayout.Table{
		Title:  "Published beside measured: " + s.ID,
		Header: []string{"test", "comparison", "published", "measured", "interval", "verdict"},
		Left:   2,
	}
	verdicts := verdictTexts(t)
	for i, row := range t.Rows {
		cells := []textlayout.Cell{
			textlayout.Label(row.Test.Name),
			textlayout.Label(row.Num.Name + " / " + row.Den.Name),
			{Text: report.FormatRatio(row.Published)},
		}
		if row.Measured > 0 {
			iv := fmt.Sprintf("%s – %s", report.FormatRatio(row.Lo), report.FormatRatio(row.Hi))
			if math.IsInf(row.Hi, 0) || row.Hi <= 0 || math.IsNaN(row.Lo) {
				iv = "—"
			}
			cells = append(cells, textlayout.Cell{Text: report.FormatRatio(row.Measured)}, textlayout.Label(iv))
		} else {
			cells = append(cells, textlayout.Label("—"), textlayout.Label("—"))
		}
		cells = append(cells, textlayout.Cell{Text: verdicts[i], Bold: row.Verdict == VerdictDisagrees})
		g.Rows = append(g.Rows, cells)
	}
	return g
}

// publishedMemoryGrid is the table of a study's published memory figures
// beside the measured medians; nil rows when it published none.
func publishedMemoryGrid(t *Table) textlayout.Table {
	g := textlayout.Table{
		Title:  "Published memory beside measured: " + t.Study.ID,
		Header: []string{"test", "side", "published B/op", "measured", "published allocs/op", "measured"},
		Left:   2,
	}
	for _, row := range t.Memory {
		b, a := textlayout.Label("—"), textlayout.Label("—")
		if row.Cell != nil {
			b, a = textlayout.Cell{Text: formatMem(row.Bytes)}, textlayout.Cell{Text: formatMem(row.Allocs)}
		}
		g.Rows = append(g.Rows, []textlayout.Cell{textlayout.Label(row.Test.Name), textlayout.Label(row.Side.Name),
			{Text: formatMem(row.Published.BytesPerOp)}, b, {Text: formatMem(row.Published.AllocsPerOp)}, a})
	}
	return g
}

// formatMem writes a B/op or allocs/op figure: whole numbers as such, others
// with one decimal.
func formatMem(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// Note describes a study's table: its source, how ratios read,
// and how verdicts are reached.
func Note(t *Table) string {
	s := t.Study
	return fmt.Sprintf(
		"%s. Published: %s, %s (%s; %s), %s. Ratios are the first side's speed over the second's (above 1: the "+
			"first is faster), published from the study's figures in %s, measured here as the median of the "+
			"per-run ratios of ops/s (run i of each side ran in the same passes of the interleaved session) with "+
			"its confidence interval. %s",
		s.Title,
		s.Source.Document,
		s.Source.Table,
		s.Source.Date,
		s.Source.Machine,
		sourceAddresses(s),
		s.Unit,
		VerdictNoteAt(t.Resolution),
	)
}

// Parts returns the published-beside-measured section of every study r's
// results reproduce, for r.Parts: the Markdown and HTML reports show them
// before the tables.
func Parts(r *report.Report) []report.Part {
	var out []report.Part
	for i, t := range Tables(r) {
		var md strings.Builder
		writeMarkdown(&md, t)
		text := Note(t)
		for _, g := range t.Study.Unavailable {
			text += " Not reproduced: " + g.What + " (" + g.Why + ")."
		}
		for _, c := range causes(t) {
			text += fmt.Sprintf(" %s (%s): %s.", c.Heading(), strings.Join(c.Labels, "; "), c.Text)
		}
		tables := []textlayout.Table{publishedGrid(t)}
		if len(t.Memory) > 0 {
			tables = append(tables, publishedMemoryGrid(t))
		}
		out = append(out, report.Part{ID: "published-" + strconv.Itoa(i+1),
			Title: "Published beside measured: " + t.Study.ID, Text: text, Tables: tables, Markdown: md.String()})
	}
	return out
}

// writeMarkdown writes the published-beside-measured section of a study.
func writeMarkdown(w io.Writer, t *Table) {
	fmt.Fprintf(w, "\n## Published beside measured: %s\n\n%s\n\n", t.Study.ID, textlayout.EscapeMarkdown(Note(t)))
	g := publishedGrid(t)
	rows := make([][]string, len(g.Rows))
	for i, r := range g.Rows {
		for _, c := range r {
			v := textlayout.EscapeMarkdown(c.Text)
			if c.Bold {
				v = "**" + v + "**"
			}
			rows[i] = append(rows[i], v)
		}
	}
	textlayout.MarkdownRows(w, g.Header, rows, g.Left)
	fmt.Fprintln(w)
	if len(t.Memory) > 0 {
		mg := publishedMemoryGrid(t)
		rows = make([][]string, len(mg.Rows))
		for i, r := range mg.Rows {
			for _, c := range r {
				rows[i] = append(rows[i], textlayout.EscapeMarkdown(c.Text))
			}
		}
		textlayout.MarkdownRows(w, mg.Header, rows, mg.Left)
		fmt.Fprintln(w)
	}
	for _, g := range t.Study.Unavailable {
		fmt.Fprintf(w, "- not reproduced: %s (%s)\n",
			textlayout.EscapeMarkdown(g.What), textlayout.EscapeMarkdown(g.Why))
	}
	for _, c := range causes(t) {
		fmt.Fprintf(w, "- %s (%s): %s\n", c.Heading(), textlayout.EscapeMarkdown(strings.Join(c.Labels, "; ")),
			textlayout.EscapeMarkdown(c.Text))
	}
}

// isVersionOf reports whether driver names a version target of base
// (mattn@v1.14.22, not a spin variant), as reproduce's period versions are.
func isVersionOf(driver, base string) bool {
	n := variant.Parse(driver)
	return n.Base == base && n.HasVersion && !n.HasSpin
}
