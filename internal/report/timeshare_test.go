package report

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/charts"
	"github.com/sqlbench/sqlbench/internal/unit"
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
		"| workload | target | ns/op | on CPU | run queue | blocked | background CPU | server CPU |",
		"| SimpleExec/net=tcp | mysql |",
		"| SimpleExec | mattn |",
		"on CPU + run queue + blocked = ns/op",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	// Every divided row's three shares add up to 100% (within rounding);
	// SQLite has no server CPU; the older file's cell is n/a with a note.
	inShare := false
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "#") {
			inShare = strings.Contains(line, "where the time goes")
		}
		if !inShare || !strings.HasPrefix(line, "| SimpleExec") {
			continue
		}
		f := strings.Split(line, "|")
		if strings.Contains(line, "| pq |") {
			if strings.TrimSpace(f[4]) != "n/a" {
				t.Errorf("older cell %q: want n/a", line)
			}
			continue
		}
		sum := 0.0
		for _, c := range f[4:7] {
			v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(c), "%"), 64)
			if err != nil || v < 0 {
				t.Fatalf("row %q: share %q", line, c)
			}
			sum += v
		}
		if sum < 98 || sum > 102 {
			t.Errorf("row %q: shares add up to %.0f%%, want 100%%", line, sum)
		}
		if strings.Contains(line, "| mattn |") && strings.TrimSpace(f[8]) != "-" {
			t.Errorf("sqlite row %q: want no server CPU", line)
		}
	}
	if !strings.Contains(md.String(), "n/a: the runs carry no division") {
		t.Errorf("markdown does not say why a cell is n/a:\n%s", md.String())
	}
	if err := Text(&txt, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "classic · mariadb · where the time goes") {
		t.Errorf("text lacks the decomposition:\n%s", txt.String())
	}
	inShare = false
	for _, line := range strings.Split(txt.String(), "\n") {
		switch {
		case strings.Contains(line, "where the time goes"):
			inShare = true
		case strings.HasPrefix(line, "run-to-run"), line == "":
			inShare = false
		}
		if n := utf8.RuneCountInString(line); inShare && n > 100 {
			t.Errorf("text line of %d columns: %q", n, line)
		}
	}
	stacked := 0
	for _, s := range r.Sections() {
		for _, c := range s.Charts {
			if c.Bars == nil || !c.Bars.Stacked {
				continue
			}
			stacked++
			if len(c.Bars.Series) != 5 || c.Points() == 0 {
				t.Errorf("stacked chart %s: %d series, %d points", c.ID, len(c.Bars.Series), c.Points())
			}
			// The first stack (on CPU, run queue, blocked) adds up to the
			// cell's median ns/op.
			for j, cat := range c.Bars.Categories {
				sum := 0.0
				for _, ser := range c.Bars.Series {
					if ser.Stack == 0 {
						sum += ser.Values[j]
					}
				}
				var wall float64
				for _, cell := range r.Cells {
					name := cell.Column()
					if x := cell.Extra(); x != "" {
						name += " " + x
					}
					if name == cat && strings.HasPrefix(c.ID, charts.ID(cell.Workload, cell.Keys["db"], "")) {
						wall = cell.NsPerOp.Center / 1e3
					}
				}
				if wall == 0 || math.Abs(sum-wall) > 1e-6*wall {
					t.Errorf("chart %s, %s: stacked %.4f µs, ns/op %.4f µs", c.ID, cat, sum, wall)
				}
			}
		}
	}
	if stacked != 2 { // SimpleExec on mariadb and on sqlite (the undivided postgres cell has none)
		t.Errorf("%d stacked charts, want 2", stacked)
	}
}

// TestThreadSharesAreMediansOfRuns: each part is the median of the runs'
// own shares, scaled so the three add up to 1.
func TestThreadSharesAreMediansOfRuns(t *testing.T) {
	s := Summary{NsPerOp: benchmath.Summary{Center: 100}, Values: map[string][]float64{
		"ns/op":        {100, 200, 100},
		unit.OnCPU:     {50, 50, 60},  // shares .5 .25 .6: median .5
		unit.RunQueue:  {10, 50, 0},   // .1 .25 0: median .1
		unit.Blocked:   {40, 100, 40}, // .4 .5 .4: median .4
		unit.ServerCPU: {1, 2, 3},
		"unrelated/op": {1},
	}}
	shares, ok := s.threadShares()
	if !ok {
		t.Fatal("no shares")
	}
	want := [3]float64{0.5, 0.1, 0.4}
	for i := range want {
		if math.Abs(shares[i]-want[i]) > 1e-9 {
			t.Errorf("shares %v, want %v", shares, want)
		}
	}
	s.Values[unit.Blocked] = s.Values[unit.Blocked][:2] // a run without the part
	if _, ok := s.threadShares(); ok {
		t.Error("shares from runs that lack a part")
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
