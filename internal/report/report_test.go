package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

func result(name string, ops float64) *benchfmt.Result {
	return &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
		{Value: 1e9 / ops, Unit: "ns/op"}, {Value: ops, Unit: "ops/s"},
	}}
}

func fixture() []*benchfmt.Result {
	var rs []*benchfmt.Result
	a := []float64{1000, 1100, 900, 1050, 950, 1020}
	b := []float64{2000, 2100, 1900, 2050, 1950, 2020}
	for i := range a {
		rs = append(rs, result("Q/db=sqlite/driver=a/api=sql", a[i]), result("Q/db=sqlite/driver=b/api=native", b[i]))
	}
	return rs
}

func TestSummarizeAgreesWithBenchmath(t *testing.T) {
	sums := Summarize(fixture())
	if len(sums) != 2 || sums[0].Column() != "a/sql" || sums[1].Column() != "b/native" || sums[0].Row() != "Q" {
		t.Fatalf("summaries %+v", sums)
	}
	want := benchmath.AssumeNothing.Summary(
		benchmath.NewSample([]float64{1000, 1100, 900, 1050, 950, 1020}, &benchmath.DefaultThresholds), 0.95)
	got := sums[0].Ops
	if got.Center != want.Center || got.Lo != want.Lo || got.Hi != want.Hi || sums[0].Runs != 6 {
		t.Errorf("ops/s summary %+v, benchmath says %+v", got, want)
	}
	// The median of an even count is the mean of the middle two.
	if m, want := sums[0].Medians["ns/op"], (1e9/1000+1e9/1020)/2; m < want-1e-6 || m > want+1e-6 {
		t.Errorf("ns/op median %v, want %v", m, want)
	}
}

func TestSummarizeFallsBackToMinMaxWithFewRuns(t *testing.T) {
	rs := fixture()[:10] // five runs each
	s := Summarize(rs)[0]
	if s.Ops.Lo != 900 || s.Ops.Hi != 1100 || s.Ops.Confidence < 0.937 || s.Ops.Confidence > 0.938 {
		t.Errorf("5-run interval [%v, %v] at %v, want [900, 1100] at 0.9375", s.Ops.Lo, s.Ops.Hi, s.Ops.Confidence)
	}
}

func TestTextMarksTheBestAndTheFailures(t *testing.T) {
	var buf bytes.Buffer
	err := Text(&buf, New(fixture(), []Failure{{Name: "Q/db=sqlite/driver=c/api=sql", Reason: "wrong row"}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"median of 6 runs", "96.8% confidence", "a/sql", "b/native", "c/sql", " 1,010 ±",
		"*2,010 ±", "FAIL", "Q/db=sqlite/driver=c/api=sql: wrong row"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "*1,010") {
		t.Errorf("the slower driver is marked best:\n%s", out)
	}
}

// TestSpreadTableShowsTheStudysStatistics: a family whose workloads ask for
// the spread gets a second table of median ± standard deviation (min–max),
// the figures computed here from the runs by hand; other families do not.
func TestSpreadTableShowsTheStudysStatistics(t *testing.T) {
	vals := []float64{1000, 1100, 900, 1050, 950, 1020, 980, 1010, 1500, 700}
	var rs []*benchfmt.Result
	for _, v := range vals {
		rs = append(rs, result("Bulk/db=sqlite/driver=a/api=sql/path=copy", v),
			result("Q/db=sqlite/driver=a/api=sql", v))
	}
	r := New(rs, nil, func(name string) (WorkloadInfo, bool) {
		return WorkloadInfo{Family: strings.ToLower(name), Unit: "rows", Spread: name == "Bulk"}, true
	})
	var md bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	var sum, sq float64
	for _, v := range vals {
		sum += v
	}
	mean := sum / float64(len(vals))
	for _, v := range vals {
		sq += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(sq / float64(len(vals)-1)) // sample standard deviation
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	median := (sorted[4] + sorted[5]) / 2
	want := fmt.Sprintf("| Bulk/path=copy | rows/s | %s ± %s (%s–%s) |", textlayout.FormatValue(median),
		textlayout.FormatValue(sd), textlayout.FormatValue(700), textlayout.FormatValue(1500))
	if !strings.Contains(md.String(), "### bulk · sqlite · median ± standard deviation (min–max) of the runs") ||
		!strings.Contains(md.String(), want) {
		t.Errorf("markdown lacks the spread table row %q:\n%s", want, md.String())
	}
	if strings.Contains(md.String(), "q · sqlite · median ±") {
		t.Error("a family that does not ask for the spread got a spread table")
	}
}

// TestTablesComeInCatalogueOrder: a family whose results were written first
// (whole bulk runs finish first) still comes after a family that is earlier
// in the catalogue; unknown workloads come last; databases come in the
// targets catalogue's order (sqlite, mariadb, postgres), not the results'.
func TestTablesComeInCatalogueOrder(t *testing.T) {
	rs := []*benchfmt.Result{
		result("Unknown/db=sqlite/driver=a/api=sql", 1),
		result("Bulk/db=sqlite/driver=a/api=sql", 1),
		result("Q/db=mariadb/driver=a/api=sql", 1),
		result("Q/db=sqlite/driver=a/api=sql", 1),
	}
	r := New(rs, nil, func(name string) (WorkloadInfo, bool) {
		rank, ok := map[string]int{"Q": 1, "Bulk": 7}[name]
		return WorkloadInfo{Family: strings.ToLower(name), Unit: "ops", Rank: rank}, ok
	})
	var got []string
	for _, tb := range r.Tables() {
		got = append(got, tb.Family+"·"+tb.DB)
	}
	if want := []string{"q·sqlite", "q·mariadb", "bulk·sqlite", "other·sqlite"}; !slices.Equal(got, want) {
		t.Errorf("tables %v, want %v", got, want)
	}
}

// TestCellLabel: a cell is labelled with its target's name in place of its
// db=, driver= and api= keys, a variant too; a pair the catalogue lacks
// keeps its keys.
func TestCellLabel(t *testing.T) {
	for name, want := range map[string]string{
		"SimpleQuery/db=sqlite/driver=xerial/api=jdbc":                   "SimpleQuery/jdbc-sqlite",
		"SimpleQuery/db=mariadb/driver=connectorj/api=jdbc/net=tcp/n=10": "SimpleQuery/jdbc-mysql/net=tcp/n=10",
		"SimpleQuery/db=postgres/driver=pgx/api=native/net=unix-4":       "SimpleQuery/pgx-native/net=unix-4",
		"SimpleQuery/db=sqlite/driver=mattn@v1.14.22/api=sql":            "SimpleQuery/mattn@v1.14.22",
		"R/db=sqlite/driver=a/api=sql":                                   "R/db=sqlite/driver=a/api=sql",
		"Foo-2":                                                          "Foo-2",
	} {
		if got := CellLabel(name); got != want {
			t.Errorf("CellLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSpreadLineNamesTheTarget: the run-to-run spread line names its worst
// cell by its target, not by its driver= and api= keys.
func TestSpreadLineNamesTheTarget(t *testing.T) {
	var b strings.Builder
	if err := Text(&b, fixtureReport(t)); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	i := strings.Index(text, "run-to-run spread")
	j := strings.Index(text[max(i, 0):], ", worst ")
	if i < 0 || j < 0 {
		t.Fatalf("no spread line:\n%s", b.String())
	}
	line, _, _ := strings.Cut(text[i+j:], ")")
	if !strings.Contains(line, "(") {
		t.Fatalf("the spread line names no cell: %s", line)
	}
	if strings.Contains(line, "driver=") {
		t.Errorf("the spread line names a cell by its keys: %s)", line)
	}
}
