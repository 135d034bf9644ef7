package report

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
)

// shownUnits are the units the issue asks every cell of the HTML report to
// show beside ops/s.
func shownUnits() []string { return []string{"B/op", "allocs/op", "p99-ns/op"} }

// rawMedian is benchmath's median of the fixture's own values of unit for
// the cell named name, read from its lines.
func rawMedian(t *testing.T, unit, name string) (float64, bool) {
	t.Helper()
	vals := rawValues(t, unit)[name]
	if len(vals) == 0 {
		return 0, false
	}
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(vals), &benchmath.DefaultThresholds),
		Confidence).Center, true
}

// shownValue is a value of a report's tables: its result cell and unit,
// its text as displayed, and whether it is visible.
type shownValue struct {
	Cell    string `json:"cell"`
	Unit    string `json:"unit"`
	Text    string `json:"text"`
	Visible bool   `json:"visible"`
}

// checkShownMeasures checks that shown holds, for every cell of r, B/op,
// allocs/op and p99 formatted from the median of the fixture's own lines,
// and visible.
func checkShownMeasures(t *testing.T, r *Report, shown []shownValue) {
	t.Helper()
	got := map[[2]string]string{}
	for _, v := range shown {
		if !v.Visible {
			t.Errorf("%s %s is not visible", v.Cell, v.Unit)
		}
		got[[2]string{v.Cell, v.Unit}] = v.Text
	}
	checked := 0
	for _, c := range r.Cells {
		for _, unit := range shownUnits() {
			med, ok := rawMedian(t, unit, c.Name)
			if !ok {
				t.Fatalf("the fixture has no %s for %s", unit, c.Name)
			}
			want := MeasureOf(unit).Format(med)
			if text, ok := got[[2]string{c.Name, unit}]; !ok {
				t.Errorf("%s: no %s shown", c.Name, unit)
			} else if text != want {
				t.Errorf("%s: %s shown as %q, the result lines give %q", c.Name, unit, text, want)
			}
			checked++
		}
	}
	if want := 3 * 26; checked != want {
		t.Errorf("checked %d values, want %d (3 units of the fixture's 26 cells)", checked, want)
	}
}

// shownTable is a memory-and-latency table as displayed: its title
// ("family · db · memory and latency ..."), header and rows of cell texts,
// each with whether it is visible.
type shownTable struct {
	Title  string      `json:"title"`
	Header []string    `json:"header"`
	Rows   [][]shownTD `json:"rows"`
}

// shownTD is one displayed table cell.
type shownTD struct {
	Text    string `json:"text"`
	Visible bool   `json:"visible"`
}

// tableValues reads displayed memory-and-latency tables back into values
// of r's cells: the database from the title, the workload row from the
// first column (blank: the row above's), the unit from the measure's label,
// the cell from the row, the database and the column's target.
func tableValues(t *testing.T, r *Report, tables []shownTable) []shownValue {
	t.Helper()
	labels := map[string]string{}
	for _, u := range shownUnits() {
		labels[MeasureOf(u).Label] = u
	}
	byName := map[[3]string]*Cell{}
	for _, c := range r.Cells {
		byName[[3]string{c.Keys["db"], c.Row(), c.Column()}] = c
	}
	var out []shownValue
	for _, tb := range tables {
		parts := strings.Split(tb.Title, " · ")
		if len(parts) < 3 {
			t.Fatalf("table title %q", tb.Title)
		}
		db, row := parts[1], ""
		for _, cells := range tb.Rows {
			if cells[0].Text != "" {
				row = cells[0].Text
			}
			unit, ok := labels[cells[1].Text]
			if !ok {
				continue
			}
			for i, v := range cells[2:] {
				if c := byName[[3]string{db, row, tb.Header[i+2]}]; c != nil && v.Text != "-" {
					out = append(out, shownValue{c.Name, unit, strings.ReplaceAll(v.Text, "**", ""), v.Visible})
				}
			}
		}
	}
	return out
}

// TestMarkdownMeasuresTraceToResultLines: the memory-and-latency tables of
// the Markdown report hold every cell's B/op, allocs/op and p99 as the
// fixture's lines give them.
func TestMarkdownMeasuresTraceToResultLines(t *testing.T) {
	r := fixtureReport(t)
	var buf bytes.Buffer
	if err := Markdown(&buf, r); err != nil {
		t.Fatal(err)
	}
	tableRe := regexp.MustCompile(`(?m)^### (.* · memory and latency.*)\n\n(\|.*\|)\n\|[-:|]+\n((?:\|.*\|\n)+)`)
	var tables []shownTable
	for _, m := range tableRe.FindAllStringSubmatch(buf.String(), -1) {
		tb := shownTable{Title: m[1], Header: splitRow(m[2])}
		for _, line := range strings.Split(strings.TrimSpace(m[3]), "\n") {
			var row []shownTD
			for _, c := range splitRow(line) {
				row = append(row, shownTD{c, true})
			}
			tb.Rows = append(tb.Rows, row)
		}
		tables = append(tables, tb)
	}
	checkShownMeasures(t, r, tableValues(t, r, tables))
}

func TestFormatDurationAndBytes(t *testing.T) {
	for v, want := range map[float64]string{850: "850.0ns", 999.4: "999.4ns", 37886: "37.89µs", 343001: "343.0µs",
		2236320: "2.236ms", 1.5e9: "1.500s", 100.5: "100.5ns", math.NaN(): "-"} {
		if got := FormatDuration(v); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{512: "512.0B", 4096: "4.000KiB", 356352: "348.0KiB",
		2.2556672e7: "21.51MiB"} {
		if got := FormatBytes(v); got != want {
			t.Errorf("FormatBytes(%v) = %q, want %q", v, got, want)
		}
	}
}
