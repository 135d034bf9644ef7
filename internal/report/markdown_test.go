package report

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/golden"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/targets"
)

// classicLookup knows the fixture's classic workloads, as the registry
// would; the others fall back to "other".
func classicLookup(name string) (WorkloadInfo, bool) {
	if strings.HasPrefix(name, "Simple") {
		return WorkloadInfo{Family: "classic", Unit: "queries"}, true
	}
	return WorkloadInfo{}, false
}

func fixtureReport(t testing.TB) *Report {
	t.Helper()
	set, err := benchfile.ReadFile("testdata/fixture.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := New(set.Results, []Failure{{Name: "SimpleQuery/db=sqlite/driver=crawshaw/api=native", Reason: "wrong row"}},
		classicLookup)
	r.Sources = []string{"fixture.txt"}
	return r
}

// rawValues reads the fixture's values of unit by benchmark name straight
// from its lines, without benchfmt or Summarize.
func rawValues(t *testing.T, unit string) map[string][]float64 {
	t.Helper()
	b, err := os.ReadFile("testdata/fixture.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		for i := 2; i+1 < len(f); i += 2 {
			if f[i+1] == unit {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					t.Fatal(err)
				}
				name := strings.TrimPrefix(f[0], "Benchmark")
				out[name] = append(out[name], v)
			}
		}
	}
	return out
}

func TestMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, fixtureReport(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "fixture.md", buf.Bytes())
}

// TestMarkdownFiguresTraceToResultLines regenerates the Markdown from the
// fixture and checks every figure of the family tables against benchmath's
// summary of the fixture's own lines, and the derived views against those
// medians.
func TestMarkdownFiguresTraceToResultLines(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, fixtureReport(t)); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	raw, rawNs := rawValues(t, "ops/s"), rawValues(t, "ns/op")
	medianOf := func(vals []float64) benchmath.Summary {
		vals = append([]float64(nil), vals...)
		return benchmath.AssumeNothing.Summary(benchmath.NewSample(vals, &benchmath.DefaultThresholds), 0.95)
	}
	median := func(name string) benchmath.Summary { return medianOf(raw[name]) }
	// Parse the family tables: a header row of columns, then one row per
	// workload.
	tableRe := regexp.MustCompile(`(?m)^## (\S+) · (\S+)\n\n(\|.*\|)\n\|[-:|]+\n((?:\|.*\|\n)+)`)
	checked := 0
	for _, m := range tableRe.FindAllStringSubmatch(md, -1) {
		db := m[2]
		cols := splitRow(m[3])
		for _, row := range strings.Split(strings.TrimSpace(m[4]), "\n") {
			cells := splitRow(row)
			workload, extra, _ := strings.Cut(cells[0], "/")
			for i, cell := range cells[2:] {
				if cell == "-" || cell == "FAIL" {
					continue
				}
				spec, ok := targets.Lookup(cols[i+2])
				if !ok {
					t.Errorf("column %q is not a target's name", cols[i+2])
					continue
				}
				name := fmt.Sprintf("%s/db=%s/driver=%s/api=%s", workload, db, spec.Driver, spec.API)
				if extra != "" {
					name += "/" + extra
				}
				if raw[name] == nil {
					t.Errorf("table cell %q (%s) has no result lines", name, cell)
					continue
				}
				s := median(name)
				want := textlayout.FormatValue(s.Center) + " ±" + s.PctRangeString()
				if strings.ReplaceAll(cell, "**", "") != want {
					t.Errorf("%s: markdown says %q, benchmath says %q", name, cell, want)
				}
				checked++
			}
		}
	}
	if checked != 26 {
		t.Errorf("checked %d cells, want all 26 of the fixture", checked)
	}
	// The derived views come from the same medians.
	ratio := median("SimpleQuery/db=postgres/driver=pgx/api=native/net=tcp").Center / median(
		"SimpleQuery/db=postgres/driver=pgx/api=sql/net=tcp").Center
	if want := "| SimpleQuery/net=tcp | " + FormatRatio(ratio) + " |"; !strings.Contains(md, want) {
		t.Errorf("overhead table lacks %q", want)
	}
	floor := medianOf(rawNs["TCPRoundTrip/db=loopback/driver=tcp/api=raw/size=16"]).Center
	times := medianOf(rawNs["SimpleQuery/db=postgres/driver=pq/api=sql/net=unix"]).Center / floor
	if want := FormatRatio(times); !strings.Contains(md, "| SimpleQuery/net=unix | ") || !strings.Contains(md, want) {
		t.Errorf("floor table lacks %s for pq over unix", want)
	}
	for _, want := range []string{"**bold** is the best", "## Scaling", "ConcurrentQuery · postgres · net=tcp",
		"(1.00×)", "| ideal |",
		"### Machine", "| cpu | Test CPU @ 3.0GHz |", "postgres-version", "mattn-sqlite",
		"- `SimpleQuery/db=sqlite/driver=crawshaw/api=native`: wrong row", "FAIL"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if strings.Contains(md, "hunter2secret") {
		t.Error("the password of the DSN in the config lines is in the markdown")
	}
}

func splitRow(row string) []string {
	parts := strings.Split(strings.Trim(row, "|"), " | ")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func TestNoFloorRowsSaySo(t *testing.T) {
	r := New(fixture(), nil, nil)
	var md, html bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "No loopback round trip") {
		t.Errorf("markdown does not say there is no floor:\n%s", md.String())
	}
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html.String(), `id="floor"`) {
		t.Error("the HTML has a floor section without floor rows")
	}
}
