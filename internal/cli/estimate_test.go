package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/targets"
)

// TestEstimateExtrapolatesToScale1: a per-operation workload keeps its
// ns/op, a workload whose tables grow with the scale has its ns/op divided
// by the scale it ran at (taken from smoke-scales where listed), and both
// are multiplied by the scale-1 operations and the default 6 runs plus 10%
// warm-up for the workloads a session warms up.
func TestEstimateExtrapolatesToScale1(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results", "sqlbench-20261121-000000.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	file := "scale: 0.01\nsmoke-scales: SuiteSimpleQuery=0.001\n\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 100 1000 ns/op\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 100 3000 ns/op\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 100 2000 ns/op\n" +
		"BenchmarkSimpleQuery/db=mariadb/driver=mymysql/api=native/net=unix 100 5000 ns/op\n" +
		"BenchmarkSuiteSimpleQuery/db=sqlite/driver=mattn/api=sql 1 2000000 ns/op\n" +
		"BenchmarkSingleInsert/db=sqlite/driver=mattn/api=sql/data=fixed/conns=2/prepare=each 50 4000000 ns/op\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	est, err := estimateFrom(path)
	if err != nil {
		t.Fatal(err)
	}
	ops := func(id string) float64 {
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Fatalf("no workload %s", id)
		}
		return float64(w.Ops)
	}
	warm, cold := 6*1.1, 6.0 // the suites and single inserts run cold, as their published programs
	want := map[string]time.Duration{
		"SimpleQuery":      time.Duration((2000 + 5000) * ops("SimpleQuery") * warm), // medians of two cells
		"SuiteSimpleQuery": time.Duration(2e6 / 0.001 * ops("SuiteSimpleQuery") * cold),
		"SingleInsert/data=fixed/conns=2/prepare=each": time.Duration(
			4e6 * ops("SingleInsert/data=fixed/conns=2/prepare=each") * cold),
	}
	for id, w := range want {
		if got := est.byID[id]; got < w-time.Microsecond || got > w+time.Microsecond {
			t.Errorf("%s: estimate %v, want %v", id, got, w)
		}
	}
	if est.cells["SimpleQuery"] != 2 || len(est.byID) != 3 {
		t.Errorf("cells %v, workloads %d; want 2 SimpleQuery cells, 3 workloads", est.cells, len(est.byID))
	}

	// sqlbench list finds the newest results file in results/ by itself.
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	if code := Main(context.Background(), []string{"list"}, env); code != ExitOK {
		t.Fatalf("list: exit %d: %s", code, errb.String())
	}
	total := want["SimpleQuery"] + want["SuiteSimpleQuery"] + want["SingleInsert/data=fixed/conns=2/prepare=each"]
	if s := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(s, "EST. AT SCALE 1") ||
		!strings.Contains(s, "measured in "+path+", on the targets it has for each: "+formatEstimate(total)+" (") {
		t.Errorf("list output lacks the estimate (%s):\n%s", formatEstimate(total), s)
	}
}

func TestListEstimateOfACorruptFileIsBadInput(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"list", "--estimate", "testdata/corrupt.txt"}, fakeEnv(&out, &errb))
	if code != ExitUsage || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 ||
		!strings.Contains(errb.String(), "corrupt.txt") {
		t.Errorf("exit %d, stderr %q; want exit %d and one line naming the file", code, errb.String(), ExitUsage)
	}
}

func TestFormatEstimate(t *testing.T) {
	for d, want := range map[time.Duration]string{
		300 * time.Millisecond:                "<1s",
		45*time.Second + 400*time.Millisecond: "45s",
		73*time.Second + 200*time.Millisecond: "1m13s",
		12*time.Minute + 20*time.Second:       "12m",
		2*time.Hour + 3*time.Minute:           "2h",
		126*time.Hour + 17*time.Minute:        "126h20m",
	} {
		if got := formatEstimate(d); got != want {
			t.Errorf("formatEstimate(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestQuickRunsTheLongestWorkloadsAtTheirSmokeScale: --quick alone gives
// BulkInsert its smoke scale and lists it for the results file; with an
// explicit --scale every workload runs at that scale.
func TestQuickRunsTheLongestWorkloadsAtTheirSmokeScale(t *testing.T) {
	bulk, _ := bench.LookupWorkload("BulkInsert/shape=3x8/path=copy/args=bytes")
	classic, _ := bench.LookupWorkload("SimpleQuery")
	var out, errb bytes.Buffer
	o, err := parseRun([]string{"--quick"}, fakeEnv(&out, &errb))
	if err != nil {
		t.Fatal(err)
	}
	if o.ScaleOf(bulk) != bulk.Smoke || bulk.Smoke >= session.QuickScale || o.ScaleOf(classic) != session.QuickScale {
		t.Errorf("--quick: BulkInsert at %g (Smoke %g), SimpleQuery at %g; want Smoke and %g", o.ScaleOf(bulk),
			bulk.Smoke, o.ScaleOf(classic), session.QuickScale)
	}
	if got, want := o.SmokeScales([]bench.Workload{classic, bulk, bulk}),
		[]benchfile.NamedScale{{Name: "BulkInsert", Scale: bulk.Smoke}}; !slices.Equal(got, want) {
		t.Errorf("smoke-scales %v, want %v", got, want)
	}
	if o, err = parseRun([]string{"--quick", "--scale", "0.05"}, fakeEnv(&out, &errb)); err != nil {
		t.Fatal(err)
	}
	if o.ScaleOf(bulk) != 0.05 || len(o.SmokeScales([]bench.Workload{bulk})) != 0 {
		t.Errorf("--quick --scale 0.05: BulkInsert at %g, smoke-scales %v; want 0.05 and none", o.ScaleOf(bulk),
			o.SmokeScales([]bench.Workload{bulk}))
	}
}

// parseRun parses sqlbench run's flags as the run command does, without
// running anything.
func parseRun(args []string, env Env) (session.Config, error) {
	f := defineRun(&cobra.Command{Use: "run"}, env)
	if err := f.c.Flags().Parse(args); err != nil {
		return *f.cfg, err
	}
	err := checkRun(f)
	return *f.cfg, err
}

// TestCellTimeCountsWarmupOnlyWhereTheSessionWarmsUp: a cold workload's
// estimate has no warm-up unless --warmup-all asks for it; a warm one has
// --warmup's share on top of its runs.
func TestCellTimeCountsWarmupOnlyWhereTheSessionWarmsUp(t *testing.T) {
	mattn, ok := targets.Lookup("mattn")
	if !ok {
		t.Fatal("no mattn target")
	}
	for _, tc := range []struct {
		id        string
		warmupAll bool
		factor    float64
	}{
		{"SimpleQuery", false, 1.5},
		{"SuiteSimpleQuery", false, 1},
		{"SuiteSimpleQuery", true, 1.5},
	} {
		w, ok := bench.LookupWorkload(tc.id)
		if !ok {
			t.Fatalf("no workload %s", tc.id)
		}
		cell := session.Cell{Workload: w, Placement: session.Placement{Target: mattn}}
		est := &estimate{perOp: map[string]float64{cell.Name(): 1000}}
		cfg := &session.Config{Count: 4, Warmup: 0.5, WarmupAll: tc.warmupAll, Scale: 1}
		got, ok := cellTime(est, cell, cfg)
		want := time.Duration(1000 * float64(w.OpsAt(1)) * 4 * tc.factor)
		if !ok || got != want {
			t.Errorf("%s (warmup-all %v): %v, %v; want %v", tc.id, tc.warmupAll, got, ok, want)
		}
	}
}

// TestCellTimeCountsTheReplayOfTheProgramsEarlierTests: a run of the
// 200 KB large read follows a replay of the 50 and 100 KB tests (each its
// insert and its read) in its runner, which the estimate counts once per
// run, unless --preceding-tests none.
func TestCellTimeCountsTheReplayOfTheProgramsEarlierTests(t *testing.T) {
	mattn, ok := targets.Lookup("mattn")
	if !ok {
		t.Fatal("no mattn target")
	}
	cellOf := func(id string) session.Cell {
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Fatalf("no workload %s", id)
		}
		return session.Cell{Workload: w, Placement: session.Placement{Target: mattn}}
	}
	est := &estimate{perOp: map[string]float64{
		cellOf("SuiteLargeQuery/size=200000").Name():  1e9,
		cellOf("SuiteLargeQuery/size=50000").Name():   1e8,
		cellOf("SuiteLargeInsert/size=50000").Name():  1e4, // a row; 10,000 a run
		cellOf("SuiteLargeQuery/size=100000").Name():  2e8,
		cellOf("SuiteLargeInsert/size=100000").Name(): 2e4,
	}}
	cell := cellOf("SuiteLargeQuery/size=200000")
	for _, none := range []bool{false, true} {
		cfg := &session.Config{Count: 2, Scale: 1, NoPreceding: none}
		want := 2 * (time.Second + 600*time.Millisecond)
		if none {
			want = 2 * time.Second
		}
		if got, ok := cellTime(est, cell, cfg); !ok || got != want {
			t.Errorf("preceding none %v: %v, %v; want %v", none, got, ok, want)
		}
	}
}

// TestEstimateCountsTheStepsAndTheStartUp: from a file with began, started
// and finished lines the estimate takes the start-up (began to started)
// and, per step, what the runs took beyond their operations; a dry run
// adds both to the timed part, for its own steps.
func TestEstimateCountsTheStepsAndTheStartUp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results", "sqlbench-20261126-050000.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// Two cells of SimpleQuery (100 queries a run at 0.01), 2 runs of 5
	// slices each: 20 steps; each run times 100 queries of 1 ms and warms
	// up 10% more: 2 x 2 x 110 ms = 0.44 s of operations in 20.44 s of
	// runs, after 12 s of start-up.
	file := "count: 2\nslices: 5\nscale: 0.01\nwarmup: 0.1\nwarmup-all: false\n" +
		"# began: 2026-11-26T05:00:00.000Z\n# started: 2026-11-26T05:00:12.000Z\n# finished: " +
		"2026-11-26T05:00:32.440Z\n\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 1000000 ns/op\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 1000000 ns/op\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 10 1000000 ns/op\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 10 1000000 ns/op\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	est, err := estimateFrom(path)
	if err != nil {
		t.Fatal(err)
	}
	if !est.overhead || est.setUp != 12*time.Second || est.perStep != time.Second {
		t.Fatalf("start-up %v, per step %v (%v); want 12s and 1s", est.setUp, est.perStep, est.overhead)
	}
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	args := []string{"run", "--dry-run", "--targets", "mattn,modernc", "--workloads", "SimpleQuery", "--count", "2",
		"--slices", "5", "--scale", "0.01",
		"--cache", t.TempDir()} // no build recorded there to add
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// The same plan: 0.44 s timed + 20 steps x 1 s + 12 s.
	if s := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(s, "estimated time: 32s: <1s timed,") ||
		!strings.Contains(s, "+ 20s for the 20 steps (1s each beyond their operations, there:") ||
		!strings.Contains(s, "+ 12s start-up") {
		t.Errorf("dry run:\n%s", out.String())
	}

	// Two more sessions of the same cells, one slower and one quicker:
	// the overhead is the median of the three.
	for i, finished := range []string{"05:01:12.440", "05:00:22.440"} {
		other := filepath.Join(dir, "results", fmt.Sprintf("sqlbench-older-%d.txt", i))
		slow := strings.Replace(strings.Replace(file, "05:00:12.000Z", "05:00:02.000Z", 1), "05:00:32.440", finished, 1)
		if err := os.WriteFile(other, []byte(slow), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Duration(i+1) * time.Hour)
		os.Chtimes(other, old, old)
	}
	out.Reset()
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// Per step: (70 - 0.44) / 20, 1 s, (20.44 - 0.44) / 20 = 0.5 s: 1 s;
	// start-up 2 s, 12 s, 2 s: 2 s.
	if s := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(s,
		"estimated time: 22s: <1s timed, from each cell's median ns/op in "+path) ||
		!strings.Contains(s, "(1s each beyond their operations, the median of 3 sessions of these cells:") ||
		!strings.Contains(s, "+ 2s start-up") {
		t.Errorf("dry run from three sessions:\n%s", out.String())
	}
}

// TestEstimateLeavesTheReplayOutOfTheStepOverhead: a file whose session
// replayed the program's earlier tests before its 100 KB cell (its
// preceding-tests line) spent that time in its runs but not in the cells'
// operations: the estimate counts it as the replay's, not as each step's
// overhead. One run a cell at scale 0.01 (100 rows): the 50 KB insert
// 10 ms a row (1 s), its read 1 ms, the 100 KB read's 2 ms: 1.003 s of
// operations, and 3 steps in 4.003 s of runs: 1 s a step, or 0.666 s once
// the 100 KB read's replay (the 50 KB insert and read, 1.001 s) is out.
func TestEstimateLeavesTheReplayOutOfTheStepOverhead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sqlbench-20261128-190000.txt")
	head := "count: 1\nslices: 1\nscale: 0.01\nwarmup: 0\nwarmup-all: false\n" +
		"# began: 2026-11-28T19:00:00.000Z\n# started: 2026-11-28T19:00:00.000Z\n# finished: " +
		"2026-11-28T19:00:04.003Z\n"
	cells := "\nBenchmarkSuiteLargeInsert/db=sqlite/driver=mattn/api=sql/size=50000 100 10000000 ns/op\n" +
		"BenchmarkSuiteLargeQuery/db=sqlite/driver=mattn/api=sql/size=50000 1 1000000 ns/op\n" +
		"BenchmarkSuiteLargeQuery/db=sqlite/driver=mattn/api=sql/size=100000 1 2000000 ns/op\n"
	for _, c := range []struct {
		line string
		want time.Duration
	}{
		{"preceding-tests: replay: the program's earlier tests first\n", 666 * time.Millisecond},
		{"preceding-tests: none: a settled heap\n", time.Second},
		{"", time.Second}, // a file from before the replay
	} {
		if err := os.WriteFile(path, []byte(head+c.line+cells), 0o644); err != nil {
			t.Fatal(err)
		}
		est, err := estimateFrom(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := est.perStep.Round(time.Millisecond); !est.overhead || got != c.want {
			t.Errorf("%q: per step %v, want %v", c.line, got, c.want)
		}
	}
}

// TestDryRunHonoursCPU: --cpu makes one cell per GOMAXPROCS value of a Go
// target, as the session does (Config.CPUs), each estimated from the
// file's cell.
func TestDryRunHonoursCPU(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	file := "scale: 0.01\n\nBenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 1000000 ns/op\n"
	os.WriteFile(filepath.Join(dir, "results", "sqlbench-x.txt"), []byte(file), 0o644)
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	args := []string{"run", "--dry-run", "--targets", "mattn", "--workloads", "SimpleQuery", "--cpu", "1,2"}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	for _, want := range []string{"SimpleQuery/mattn-1 ", "SimpleQuery/mattn-2 ",
		"2 cells x 7 runs"} {
		if !strings.Contains(got, want) {
			t.Errorf("dry run --cpu 1,2 lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "SimpleQuery/mattn ") || strings.Contains(got, "?") {
		t.Errorf("dry run --cpu 1,2: a cell without -N, or one unestimated:\n%s", got)
	}
}

// TestDryRunTakesTheFileWithItsCells: the dry run estimates from the
// newest results file that has every cell of its plan, not from a newer
// one of other cells (a server run after a SQLite one).
func TestDryRunTakesTheFileWithItsCells(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results")
	os.MkdirAll(res, 0o755)
	sqlite := filepath.Join(res, "sqlbench-1.txt")
	os.WriteFile(sqlite,
		[]byte("scale: 0.01\n\nBenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 1000000 ns/op\n"), 0o644)
	pg := filepath.Join(res, "sqlbench-2.txt")
	os.WriteFile(pg,
		[]byte("scale: 0.01\n\nBenchmarkSimpleQuery/db=postgres/driver=pq/api=sql/net=tcp 10 1000000 ns/op\n"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(sqlite, old, old)
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	if code := Main(context.Background(),
		[]string{"run", "--dry-run", "--targets", "mattn", "--workloads", "SimpleQuery"}, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(s, "median ns/op in "+sqlite) ||
		strings.Contains(s, "?") {
		t.Errorf("dry run of a SQLite cell, a newer file of PostgreSQL's: want the estimate from %s:\n%s", sqlite,
			out.String())
	}
}
