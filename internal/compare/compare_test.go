package compare

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// comparisonFixture returns two sets of 10 runs: cell R regresses by about
// 20% with distinct distributions, cell U draws from the same values.
func comparisonFixture() (old, new []*benchfmt.Result) {
	for i := range 10 {
		jitter := float64(i%5) * 10
		old = append(
			old,
			result("R/db=sqlite/driver=a/api=sql", 1000+jitter),
			result("U/db=sqlite/driver=a/api=sql", 500+jitter),
		)
		new = append(
			new,
			result("R/db=sqlite/driver=a/api=sql", 800+jitter),
			result("U/db=sqlite/driver=a/api=sql", 500+float64((i+2)%5)*10),
		)
	}
	return old, new
}

func TestCompareFindsTheRegressionAndNotTheNoise(t *testing.T) {
	old, new := comparisonFixture()
	c := Units("old", old, "new", new).Units[0]
	if c.Unit != "ops/s" || len(c.Changes) != 2 {
		t.Fatalf("comparison %+v", c)
	}
	r, u := c.Changes[0], c.Changes[1]
	if !r.Significant || !r.Worse || r.DeltaString() != "-19.61%" {
		t.Errorf("regressed cell: %+v %s", r, r.DeltaString())
	}
	if u.Significant || u.DeltaString() != "~" {
		t.Errorf("unchanged cell: %+v %s", u, u.DeltaString())
	}
	// The p-value is benchmath's Mann-Whitney U test.
	vals := func(rs []*benchfmt.Result, name string) []float64 {
		var out []float64
		for _, x := range rs {
			if x.Name.String() == name {
				out = append(out, x.Values[1].Value)
			}
		}
		return out
	}
	want := benchmath.AssumeNothing.Compare(
		benchmath.NewSample(vals(old, r.Name), &benchmath.DefaultThresholds),
		benchmath.NewSample(vals(new, r.Name), &benchmath.DefaultThresholds),
	)
	if r.P != want.P {
		t.Errorf("p = %v, benchmath says %v", r.P, want.P)
	}
	if got := c.Regressions(0.05); len(got) != 1 || got[0].Name != r.Name {
		t.Errorf("regressions over 5%%: %+v", got)
	}
	if got := c.Regressions(0.25); len(got) != 0 {
		t.Errorf("regressions over 25%%: %+v", got)
	}
	var buf bytes.Buffer
	if err := c.Text(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-19.61%", " ~ ", "geomean", "Mann-Whitney"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("comparison lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestMinRunsForSignificance(t *testing.T) {
	// Two-sided exact Mann-Whitney U test, no overlap: p = 2/C(n1+n2, n1).
	// 3 against 3 gives 2/20 = 0.1, 4 against 4 gives 2/70 = 0.029.
	if got := MinRuns(); got != 4 {
		t.Errorf("MinRuns() = %d, want 4", got)
	}
	for _, c := range []struct {
		n1, n2 int
		want   bool
	}{
		{3, 3, false}, {4, 4, true}, {3, 5, true}, {2, 8, true}, {2, 5, false}, {1, 100, false}, {0, 5, false},
	} {
		if got := CanBeSignificant(c.n1, c.n2); got != c.want {
			t.Errorf("CanBeSignificant(%d, %d) = %v, want %v", c.n1, c.n2, got, c.want)
		}
	}
}

// TestGeomeanSaysWhatItLeavesOut: a cell with a zero median in either set
// cannot enter the geometric mean; the comparison counts it and says so.
func TestGeomeanSaysWhatItLeavesOut(t *testing.T) {
	var old, new []*benchfmt.Result
	for i := range 6 {
		j := float64(i)
		old = append(
			old,
			result("A/db=sqlite/driver=a/api=sql", 1000+j),
			result("Z/db=sqlite/driver=a/api=sql", 1000+j),
		)
		z := result("Z/db=sqlite/driver=a/api=sql", 1000+j)
		z.Values[1].Value = 0 // no operation done: 0 ops/s
		new = append(new, result("A/db=sqlite/driver=a/api=sql", 1100+j), z)
	}
	c := Units("old", old, "new", new).Units[0]
	if c.GeoSkipped != 1 || len(c.Changes) != 2 {
		t.Fatalf("skipped %d of %d cells, want 1 of 2", c.GeoSkipped, len(c.Changes))
	}
	var b bytes.Buffer
	if err := c.Text(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "geomean of 1 of 2 cells: 1 with a zero median left out") {
		t.Errorf("the text does not say the geomean left a cell out:\n%s", b.String())
	}
	b.Reset()
	cs := Units("old", old, "new", new)
	if err := cs.Markdown(&b, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(1 zero cells left out)") {
		t.Errorf("the markdown does not say the geomean left a cell out:\n%s", b.String())
	}
}

func TestMeasuredSetting(t *testing.T) {
	for key, want := range map[string]bool{
		"scale": true, "count": true, "slices": true, "pin": true, "warmup": true, "smoke-scales": true,
		"mattn-module": true, "mattn-sqlite": true, "postgres-version": true, "sqlite-synchronous": true,
		"mariadb-innodb-flush-log-at-trx-commit": true, "jdbc-postgres-driver": true, "postgres-profile": true,
		"jdbc-jvm": true, "timing-thread": true, "jit-warmup": true,
		"session-id": false, "started": false, "sqlbench-command": false, "sqlbench": false, "runner-source": false,
		"postgres-server": false, "postgres-server-cpu": false, "postgres-server-pid": false, "goos": false,
		"postgres-server-ready": false, "cpu": true, "kernel": false,
		// idle-latency is a measured setting, the wake-up readings are not
		"idle-latency": true, "wakeup": false, "wakeup-run-1": false,
	} {
		if got := MeasuredSetting(key); got != want {
			t.Errorf("MeasuredSetting(%q) = %v, want %v", key, got, want)
		}
	}
}

// result is one run of a cell at ops operations per second.
func result(name string, ops float64) *benchfmt.Result {
	return &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
		{Value: 1e9 / ops, Unit: "ns/op"}, {Value: ops, Unit: "ops/s"},
	}}
}

// sessionResult is a result of a session of the given id.
func sessionResult(name string, ops float64, session string) *benchfmt.Result {
	r := result(name, ops)
	if session != "" {
		r.SetConfig("session-id", session)
		pos, _ := r.ConfigIndex("session-id")
		r.Config[pos].File = true
	}
	return r
}

// driftRuns are six runs whose machine sped up and slowed down from pass to
// pass by far more than the 10% between the two targets.
var driftRuns = []float64{1000, 1600, 700, 1300, 900, 1800}
