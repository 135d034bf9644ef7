package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// briefReport is a report of three SQLite targets on two workloads, six
// runs each: on Q1 b is clearly the fastest; on Q2 a and b tie at the
// top, c clearly behind. Each run's thread is blocked for blocked of its
// time, the rest on a CPU but for 2% in the run queue. drivers picks
// the targets (all three when none).
func briefReport(t *testing.T, blocked float64, drivers ...string) *Report {
	t.Helper()
	ops := map[string][2]float64{"a": {1000, 2000}, "b": {2000, 2010}, "c": {900, 1000}}
	var b strings.Builder
	b.WriteString("goos: linux\n\n")
	for run := range 6 {
		jitter := 1 + 0.01*float64(run%3-1)
		if len(drivers) == 0 {
			drivers = []string{"a", "b", "c"}
		}
		for _, d := range drivers {
			for w, name := range []string{"Q1", "Q2"} {
				v := ops[d][w] * jitter
				ns := 1e9 / v
				fmt.Fprintf(&b,
					"Benchmark%s/db=sqlite/driver=%s/api=sql 100 %.1f ns/op %.2f ops/s 64 B/op 2 allocs/op "+
						"%.1f oncpu-ns/op %.1f runq-ns/op %.1f blocked-ns/op\n", name, d, ns, v, ns*(0.98-blocked),
					ns*0.02,
					ns*blocked)
			}
		}
	}
	set, err := benchfile.Read(strings.NewReader(b.String()), "brief.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := New(set.Results, nil, nil)
	r.Baseline = "a/sql"
	return r
}

// TestBriefSaysTheVerdictsNotTheDetails: Brief writes the ops/s table,
// the verdicts counted, per workload the clear best or the targets tied
// at the top, and a CPU-bound where-the-time-goes table as one line; the
// memory-and-latency and ratio tables, which Text writes, it leaves out.
func TestBriefSaysTheVerdictsNotTheDetails(t *testing.T) {
	r := briefReport(t, 0)
	var brief, text bytes.Buffer
	if err := Brief(&brief, r); err != nil {
		t.Fatal(err)
	}
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	got := brief.String()
	words := strings.Join(strings.Fields(got), " ") // lines wrap at 100 columns
	for _, want := range []string{
		"no mark: a tie",
		"verdicts of ops/s ÷ a/sql's (unpaired 95%), 4 of 4 decided: 1 faster, 2 slower, 1 equivalent; 0 undecided " +
			"at ±5%",
		"where the time goes · other · sqlite: CPU-bound, every cell's thread on a CPU 98% of its time",
	} {
		if !strings.Contains(words, want) {
			t.Errorf("the brief lacks %q:\n%s", want, got)
		}
	}
	for _, re := range []string{`(?m)^  Q1  best: b/sql \(2,000/s\)$`, `(?m)^  Q2  tie: b/sql, a/sql$`} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("the brief has no line %s:\n%s", re, got)
		}
	}
	for _, detail := range []string{"memory and latency", "where the time goes (ns per operation",
		"ops/s ÷ a/sql's (baseline)"} {
		if strings.Contains(got, detail) {
			t.Errorf("the brief has the detail table %q:\n%s", detail, got)
		}
		if !strings.Contains(text.String(), detail) {
			t.Errorf("Text lacks the detail table %q:\n%s", detail, text.String())
		}
	}
}

// TestBriefShowsATimeTableThatSaysSomething: where a cell's thread waited
// blocked for a tenth of its time, the where-the-time-goes table is not
// one line: Brief writes it whole.
func TestBriefShowsATimeTableThatSaysSomething(t *testing.T) {
	var brief bytes.Buffer
	if err := Brief(&brief, briefReport(t, 0.1)); err != nil {
		t.Fatal(err)
	}
	if got := brief.String(); !strings.Contains(got, "where the time goes (ns per operation") ||
		strings.Contains(got, "CPU-bound") {
		t.Errorf("a table of threads blocked 10%% of the time is not written whole:\n%s", got)
	}
}

// TestBriefWritesTheRatioTableOfTwoTargets: where each workload compares
// two targets, the ratio table is as short as the verdicts and written; a
// row where every target ties says so.
func TestBriefWritesTheRatioTableOfTwoTargets(t *testing.T) {
	var brief bytes.Buffer
	if err := Brief(&brief, briefReport(t, 0, "a", "b")); err != nil {
		t.Fatal(err)
	}
	if got := brief.String(); !strings.Contains(got, "ops/s ÷ a/sql's (baseline)") {
		t.Errorf("the ratio table of two targets is not written:\n%s", got)
	}
	if got := brief.String(); !strings.Contains(got,
		"\n  Q2  tie: all 2 targets' intervals overlap (b/sql highest)\n") {
		t.Errorf("a tie of every target is not said so:\n%s", got)
	}
}
