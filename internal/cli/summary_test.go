package cli

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
)

// runsOf is three runs of the cell name at about ops operations per second.
func runsOf(name string, ops float64) []*benchfmt.Result {
	var rs []*benchfmt.Result
	for i := range 3 {
		v := ops + float64(i)
		rs = append(rs, &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100,
			Values: []benchfmt.Value{{Value: 1e9 / v, Unit: "ns/op"}, {Value: v, Unit: "ops/s"}}})
	}
	return rs
}

// TestPrintOutcomePrintsTheSessionsReport: what run prints is the report
// the session built for its files (Outcome.Report), not a second one built
// from its results: given a report of other results than Done, it prints
// that report's cells and none of Done's.
func TestPrintOutcomePrintsTheSessionsReport(t *testing.T) {
	built := report.New(runsOf("SimpleQuery/db=sqlite/driver=mattn/api=sql", 20000), nil, session.WorkloadInfo)
	out := &session.Outcome{Done: runsOf("PreparedExec/db=sqlite/driver=modernc/api=sql", 1000),
		Report: built, Results: "results/x.txt", Runs: 3}
	for _, details := range []bool{false, true} {
		var b strings.Builder
		if err := printOutcome(&b, out, outcomeView{Width: 100, Details: details}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "SimpleQuery") || strings.Contains(b.String(), "PreparedExec") {
			t.Errorf("details %v: not the session's report:\n%s", details, b.String())
		}
	}
	if built.Width != 100 {
		t.Errorf("the report's width is %d, want the view's 100", built.Width)
	}
}
