package compare

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/report"
)

// ratioSession is one session of three targets over driftRuns: modernc at
// modern× mattn's speed, crawshaw at 1.2× in every pass, all of it scaled
// by machine (the session's own speed).
func ratioSession(id string, machine, modern float64) []*benchfmt.Result {
	var rs []*benchfmt.Result
	for i, ops := range driftRuns {
		wobble := 1 + 0.01*float64(i%3-1) // ±1% between the targets of a pass
		ops *= machine
		rs = append(rs,
			sessionResult("Q/db=sqlite/driver=mattn/api=sql", ops, id),
			sessionResult("Q/db=sqlite/driver=modernc/api=sql", ops*modern*wobble, id),
			sessionResult("Q/db=sqlite/driver=crawshaw/api=native", ops*1.2/wobble, id))
	}
	return rs
}

// TestRatioChangesCancelTheMachine: between two sessions the machine ran
// 40% slower; modernc's standing against mattn fell from 1.10× to 0.85×,
// crawshaw's stayed at 1.2×. compare --baseline says modernc is slower
// relative to before and crawshaw unchanged, whatever the machine did.
func TestRatioChangesCancelTheMachine(t *testing.T) {
	old := report.New(ratioSession("aaa111", 1, 1.10), nil, nil)
	new := report.New(ratioSession("bbb222", 0.6, 0.85), nil, nil)
	changes, ok := RatioChanges(old, new, "mattn")
	if !ok || len(changes) != 2 {
		t.Fatalf("ok %v, %d changes: %+v", ok, len(changes), changes)
	}
	verdicts := map[string]string{}
	for _, rc := range changes {
		verdicts[rc.Old.Col] = rc.Verdict(report.DefaultResolution)
		if rc.Old.How != report.RatioPaired || rc.New.How != report.RatioPaired {
			t.Errorf("%s: ratios not paired by pass: %s, %s", rc.Old.Col, rc.Old.How, rc.New.How)
		}
	}
	if verdicts["modernc"] != "slower" || verdicts["crawshaw"] != "equivalent" {
		t.Errorf("verdicts %v: want modernc slower, crawshaw equivalent", verdicts)
	}
	var b bytes.Buffer
	if err := WriteRatioChanges(&b, "old", "new", changes, 100, report.DefaultResolution); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ops/s ÷ mattn's, old → new", "modernc", "1.10× [", "0.85× [", "-22.7%", "slower",
		"equivalent",
		"2 of 2 decided: 0 faster, 1 slower, 1 equivalent; 0 undecided at ±5%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
	if _, ok := RatioChanges(old, new, "pgx"); ok {
		t.Error("a baseline in no table gave ratios")
	}
}
