package compare

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/report"
)

// compareRuns are six runs about base, ±spread alternately.
func compareRuns(name string, base, spread float64) []*benchfmt.Result {
	var rs []*benchfmt.Result
	for i := range 6 {
		rs = append(rs, result(name, base*(1+spread*float64(i%3-1))))
	}
	return rs
}

// TestCompareVerdicts: compare calls a significant change faster or
// slower, one it does not find significant equivalent when its interval
// lies within the resolution, else undecided; a wider resolution turns the
// undecided one equivalent.
func TestCompareVerdicts(t *testing.T) {
	var old, new []*benchfmt.Result
	for _, c := range []struct {
		name            string
		old, new, noise float64
	}{
		{"Up/db=sqlite/driver=mattn/api=sql", 1000, 1500, 0.01},
		{"Down/db=sqlite/driver=mattn/api=sql", 1000, 600, 0.01},
		{"Same/db=sqlite/driver=mattn/api=sql", 1000, 1000, 0.01},
		{"Noisy/db=sqlite/driver=mattn/api=sql", 1000, 1000, 0.2},
	} {
		old = append(old, compareRuns(c.name, c.old, c.noise)...)
		new = append(new, compareRuns(c.name, c.new, c.noise)...)
	}
	cs := Units("old", old, "new", new)
	c := cs.Unit("ops/s")
	want := map[string]string{
		"Up":    report.Faster,
		"Down":  report.Slower,
		"Same":  report.Equivalent,
		"Noisy": report.Undecided,
	}
	for _, ch := range c.Changes {
		w := want[strings.Split(ch.Name, "/")[0]]
		if got := c.Kind(ch); got != w {
			t.Errorf("%s: %s (p=%.3f, interval %g–%g), want %s", ch.Name, got, ch.P, ch.Lo, ch.Hi, w)
		}
	}
	var b bytes.Buffer
	if err := cs.Text(&b, nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"verdict", "equivalent", "undecided, ~",
		"ops/s: 3 of 4 decided: 1 faster, 1 slower, 1 equivalent; 1 undecided at ±5%"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the text lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	if err := cs.Markdown(&b, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| equivalent |") || !strings.Contains(b.String(), "resolution ±5%") {
		t.Errorf("the Markdown lacks the verdicts:\n%s", b.String())
	}
	cs.SetResolution(0.5)
	if d := c.Decisions(); d != (report.Decisions{Faster: 1, Slower: 1, Equivalent: 2}) {
		t.Errorf("at ±50%%: %+v", d)
	}
}

// TestSmallSignificantChangeIsEquivalent: a change the U test finds
// significant but whose interval lies within the resolution is
// equivalent (no change that matters); at a resolution it reaches past,
// it is faster.
func TestSmallSignificantChangeIsEquivalent(t *testing.T) {
	name := "Small/db=sqlite/driver=mattn/api=sql"
	cs := Units("old", compareRuns(name, 1000, 0.002), "new", compareRuns(name, 1020, 0.002))
	c := cs.Unit("ops/s")
	ch := c.Changes[0]
	if !ch.Significant || !(ch.Lo > 1) {
		t.Fatalf("the crafted change is not significant with an interval above 1: p=%.3f, %g–%g", ch.P, ch.Lo, ch.Hi)
	}
	if got := c.Kind(ch); got != report.Equivalent {
		t.Errorf("+2%% at ±5%%: %s, want equivalent", got)
	}
	cs.SetResolution(0.01)
	if got := c.Kind(ch); got != report.Faster {
		t.Errorf("+2%% at ±1%%: %s, want faster", got)
	}
}

// TestRatioChangeEquivalentAndUndecided: between two sessions, a standing
// that held within a hair is equivalent, one measured too loosely to say
// is undecided.
func TestRatioChangeEquivalentAndUndecided(t *testing.T) {
	tight := report.Ratio{Ratio: 1.2, Lo: 1.19, Hi: 1.21, N: 8}
	loose := report.Ratio{Ratio: 1.2, Lo: 1.0, Hi: 1.45, N: 8}
	if k := (RatioChange{Old: tight, New: tight}).Kind(0.05); k != report.Equivalent {
		t.Errorf("tight both times: %s", k)
	}
	rc := RatioChange{Old: tight, New: loose}
	if k := rc.Kind(0.05); k != report.Undecided {
		t.Errorf("loose once: %s", k)
	}
	if v := rc.Verdict(0.05); !strings.HasPrefix(v, "undecided, ~") {
		t.Errorf("loose once: %q, want the runs that would decide it", v)
	}
	if k := rc.Kind(0.3); k != report.Equivalent {
		t.Errorf("loose once at ±30%%: %s", k)
	}
}

// TestCompareCoversTheTimeShare: the decomposition's units compare like
// ns/op (lower is better), and a cell without a unit (SQLite has no
// server CPU) is left out of that unit's comparison.
func TestCompareCoversTheTimeShare(t *testing.T) {
	set, err := benchfile.ReadFile("../report/testdata/timeshare.txt")
	if err != nil {
		t.Fatal(err)
	}
	var doubled []*benchfmt.Result
	for _, r := range set.Results {
		r = r.Clone()
		for i, v := range r.Values {
			if v.Unit == "oncpu-sec/op" {
				r.Values[i].Value, r.Values[i].OrigValue = 2*v.Value, 2*v.OrigValue
			}
		}
		doubled = append(doubled, r)
	}
	cs := Units("old", set.Results, "new", doubled)
	unit := func(u string) *Comparison {
		for _, c := range cs.Units {
			if c.Unit == u {
				return c
			}
		}
		t.Fatalf("no comparison in %s", u)
		return nil
	}
	c := unit("oncpu-ns/op")
	if c.HigherIsBetter || len(c.Changes) != 3 {
		t.Fatalf("on CPU: higher better %v, %d changes; want lower better, 3", c.HigherIsBetter, len(c.Changes))
	}
	for _, ch := range c.Changes {
		if !ch.Significant || !ch.Worse || ch.Delta < 0.99 || ch.Delta > 1.01 {
			t.Errorf("%s: %+v, want a significant +100%% for the worse", ch.Name, ch)
		}
	}
	if s := unit("server-cpu-ns/op"); len(s.Changes) != 3 {
		t.Errorf(
			"server CPU: %d changes, only-old %v; want the two MariaDB cells and the older PostgreSQL one",
			len(s.Changes),
			s.OnlyOld,
		)
	}
}
