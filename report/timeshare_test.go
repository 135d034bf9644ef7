package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// timeShareReport is the report of testdata/timeshare.txt: two MariaDB
// cells with client and server CPU, one SQLite cell with client CPU only.
func timeShareReport(t testing.TB) *Report {
	t.Helper()
	set, err := benchfile.ReadFile("testdata/timeshare.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := New(set.Results, nil, classicLookup)
	r.Sources = []string{"timeshare.txt"}
	return r
}

func TestTimeShareTablesAndCharts(t *testing.T) {
	r := timeShareReport(t)
	var md, txt bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### classic · mariadb · where the time goes (ns per operation, medians)",
		"| SimpleExec/net=tcp | mysql |",
		"| SimpleExec | mattn |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	// SQLite: no server, so no server CPU; the client is nearly everything.
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| SimpleExec | mattn |") {
			f := strings.Split(line, "|")
			if strings.TrimSpace(f[5]) != "-" || !strings.HasSuffix(strings.TrimSpace(f[7]), "%") {
				t.Errorf("sqlite row %q: want no server CPU and a client share", line)
			}
		}
	}
	if err := Text(&txt, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "classic · mariadb · where the time goes") {
		t.Errorf("text lacks the decomposition:\n%s", txt.String())
	}
	stacked := 0
	for _, s := range r.Sections() {
		for _, c := range s.Charts {
			if c.Bars != nil && c.Bars.Stacked {
				stacked++
				if len(c.Bars.Series) != 3 || c.Points() == 0 {
					t.Errorf("stacked chart %s: %d series, %d points", c.ID, len(c.Bars.Series), c.Points())
				}
			}
		}
	}
	if stacked != 2 { // SimpleExec on mariadb and on sqlite
		t.Errorf("%d stacked charts, want 2", stacked)
	}
}

// browserReport is the fixture's report with the decomposition's cells
// added, so that the browser test sees the stacked bars too.
func browserReport(t testing.TB) *Report {
	t.Helper()
	r := fixtureReport(t)
	set, err := benchfile.ReadFile("testdata/timeshare.txt")
	if err != nil {
		t.Fatal(err)
	}
	all, err := benchfile.ReadFile("testdata/fixture.txt")
	if err != nil {
		t.Fatal(err)
	}
	merged := New(append(all.Results, set.Results...), r.Failed, classicLookup)
	merged.Sources = []string{"fixture.txt", "timeshare.txt"}
	return merged
}

// TestCompareCoversTheTimeShare: the decomposition's units compare like
// ns/op (lower is better), and a cell without a unit (SQLite has no
// server CPU) is left out of that unit's comparison.
func TestCompareCoversTheTimeShare(t *testing.T) {
	set, err := benchfile.ReadFile("testdata/timeshare.txt")
	if err != nil {
		t.Fatal(err)
	}
	var doubled []*benchfmt.Result
	for _, r := range set.Results {
		r = r.Clone()
		for i, v := range r.Values {
			if v.Unit == "client-cpu-sec/op" {
				r.Values[i].Value, r.Values[i].OrigValue = 2*v.Value, 2*v.OrigValue
			}
		}
		doubled = append(doubled, r)
	}
	cs := CompareUnits("old", set.Results, "new", doubled)
	unit := func(u string) *Comparison {
		for _, c := range cs.Units {
			if c.Unit == u {
				return c
			}
		}
		t.Fatalf("no comparison in %s", u)
		return nil
	}
	c := unit("client-cpu-ns/op")
	if c.HigherIsBetter || len(c.Changes) != 3 {
		t.Fatalf("client CPU: higher better %v, %d changes; want lower better, 3", c.HigherIsBetter, len(c.Changes))
	}
	for _, ch := range c.Changes {
		if !ch.Significant || !ch.Worse || ch.Delta < 0.99 || ch.Delta > 1.01 {
			t.Errorf("%s: %+v, want a significant +100%% for the worse", ch.Name, ch)
		}
	}
	if s := unit("server-cpu-ns/op"); len(s.Changes) != 2 || len(s.OnlyOld) != 1 {
		t.Errorf("server CPU: %d changes, only-old %v; want the two MariaDB cells, SQLite apart", len(s.Changes), s.OnlyOld)
	}
}
