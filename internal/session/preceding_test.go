package session

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
)

// TestPrecedingTestsLineSaysWhatTheLargeCellsFollowed: a session that
// runs a workload whose published program ran other tests before it
// (bench.Workload.Follows) on SQLite records whether they were replayed
// (the default) or not (--preceding-tests none); a session without one has
// no such line.
func TestPrecedingTestsLineSaysWhatTheLargeCellsFollowed(t *testing.T) {
	mattn, ok := targets.Lookup("mattn")
	if !ok {
		t.Fatal("no mattn target")
	}
	pgx, ok := targets.Lookup("pgx")
	if !ok {
		t.Fatal("no pgx target")
	}
	follows := bench.Workload{Name: "Later", FreshDB: true, Follows: []string{"Earlier"}}
	alone := bench.Workload{Name: "Alone", FreshDB: true}
	for _, c := range []struct {
		target targets.Spec
		w      bench.Workload
		none   bool
		want   string // the line's beginning; "" for no line
	}{
		{mattn, follows, false, "replay: "},
		{mattn, follows, true, "none: "},
		{mattn, alone, false, ""},
		{pgx, follows, false, ""},
	} {
		p := &Plan{Workloads: []bench.Workload{c.w}, Runnable: []targets.Spec{c.target}}
		line, ok := precedingLine(&Config{NoPreceding: c.none}, p)
		if ok != (c.want != "") || !strings.HasPrefix(line, c.want) {
			t.Errorf("%s on %s, none %v: %q, %v; want a line beginning %q", c.w.Name, c.target.Name, c.none, line,
				ok, c.want)
		}
	}
	for _, s := range []string{PrecedingReplay, PrecedingNone, "some"} {
		none, err := ParsePreceding(s)
		if (err != nil) != (s == "some") || none != (s == PrecedingNone) {
			t.Errorf("ParsePreceding(%q) = %v, %v", s, none, err)
		}
	}
}
