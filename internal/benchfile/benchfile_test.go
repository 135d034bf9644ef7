package benchfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/unit"
)

func TestWriteReadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.txt")
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	w.SetConfig("cpu", "Test CPU")
	if err := w.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	name := "SimpleQuery/db=sqlite/driver=mattn/api=sql"
	for i := 1; i <= 3; i++ {
		r := &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
			{Value: float64(1000 * i), Unit: "ns/op"}, {Value: 1e6 / float64(i), Unit: "ops/s"},
			{Value: 24, Unit: "B/op"},
		}}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		// Each run reaches the file as it is written.
		if b, _ := os.ReadFile(path); strings.Count(string(b), "\nBenchmark") != i {
			t.Fatalf("after %d writes the file holds %d results", i, strings.Count(string(b), "\nBenchmark"))
		}
	}
	w.SetConfig("cpu", "Other CPU")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	set, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Results) != 3 {
		t.Fatalf("read %d results, want 3", len(set.Results))
	}
	r := set.Results[2]
	if r.Name.String() != name || r.Iters != 100 || r.GetConfig("cpu") != "Test CPU" {
		t.Errorf("read back %s %d cpu=%q", r.Name, r.Iters, r.GetConfig("cpu"))
	}
	if v, ok := r.Value("ops/s"); !ok || v < 333333 || v > 333334 {
		t.Errorf("ops/s = %v", v)
	}
	if set.Units.GetBetter("ops/s") != 1 || set.Units.GetBetter("p99-ns/op") != -1 {
		t.Errorf("unit metadata not read back: ops/s %d, p99 %d", set.Units.GetBetter("ops/s"),
			set.Units.GetBetter("p99-ns/op"))
	}
}

func TestReadRejectsCorruptFiles(t *testing.T) {
	for _, content := range []string{
		"BenchmarkX 100 12 ns/op\nBenchmarkY notanumber 5 ns/op\n",
		"BenchmarkX 100 12\n",
	} {
		if _, err := Read(strings.NewReader(content), "bad.txt"); err == nil ||
			!strings.Contains(err.Error(), "bad.txt:") {
			t.Errorf("Read(%q) = %v, want an error naming the position", content, err)
		}
	}
}

func TestCreateFailsOnUnwritablePath(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(filepath.Join(f, "out.txt"), Exclusive); err == nil {
		t.Error("Create under a regular file succeeded")
	}
	if _, err := ReadFile(filepath.Join(f, "missing")); err == nil {
		t.Error("ReadFile of a missing file succeeded")
	}
}

// TestCreateModes: Exclusive refuses an existing file and leaves it alone,
// Unique takes the next free name (two sessions in the same second),
// Overwrite truncates.
func TestCreateModes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, Exclusive); !errors.Is(err, ErrExists) {
		t.Errorf("Exclusive on an existing file: %v, want ErrExists", err)
	}
	var names []string
	for range 2 {
		w, err := Create(path, Unique)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(w.Name()))
		w.Close()
	}
	if names[0] != "r-2.txt" || names[1] != "r-3.txt" {
		t.Errorf("Unique names %v, want r-2.txt r-3.txt", names)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep" {
		t.Errorf("the existing file holds %q", b)
	}
	w, err := Create(path, Overwrite)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("Discard left %s: %v", path, err)
	}
}

// TestDiscardRemovesTheDirectoriesCreateMade: a session that ends before
// anything ran leaves neither its file nor the results/ directory made for
// it; a directory that was there, or that holds another file, stays.
func TestDiscardRemovesTheDirectoriesCreateMade(t *testing.T) {
	root := t.TempDir()
	w, err := Create(filepath.Join(root, "results", "day", "r.txt"), Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "results")); !os.IsNotExist(err) {
		t.Errorf("Discard left the directory it made: %v", err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Errorf("Discard removed the directory that was there: %v", err)
	}

	keep := filepath.Join(root, "results", "keep.txt")
	w, err = Create(filepath.Join(root, "results", "day", "r.txt"), Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.Discard(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "results", "day")); !os.IsNotExist(err) {
		t.Errorf("Discard left the empty directory it made: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("Discard removed another's file: %v", err)
	}
}

// writeSession writes a results file as a session of the given id does:
// the same settings as any other, the session's own facts, six runs of two
// cells.
func writeSession(t *testing.T, path, id string, scale float64) {
	t.Helper()
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{
		{"goos", "linux"}, {"cpu", "Test CPU"}, {"mattn-module", "github.com/mattn/go-sqlite3 v1.14.52"},
		{"postgres-version", "15.18"}, {"postgres-server", "throwaway"}, {"postgres-server-ready", id + "ms"},
		{"postgres-server-cpu", "the server's process and its descendants"}, {"postgres-server-pid", id},
		{"runner-source", "source tree /src/" + id}, {"sqlbench", "devel " + id},
		{"sqlbench-command", "sqlbench run -o " + id + ".txt"}, {"count", "6"}, {"scale", "0.1"},
		{"started", "2026-01-01T00:00:0" + id + "Z"}, {"session-id", "abc12" + id},
	} {
		w.SetConfig(kv[0], kv[1])
	}
	if err := w.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		for j, name := range []string{"SimpleQuery/db=sqlite/driver=mattn/api=sql",
			"SimpleQuery/db=postgres/driver=pgx/api=native/net=tcp"} {
			ns := scale * float64(1000*(j+1)+10*i)
			if err := w.Write(&benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
				{Value: ns, Unit: "ns/op"}, {Value: 1e9 / ns, Unit: "ops/s"}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Measured during the session, known at its end: written by Close.
	w.SetConfig("wakeup", "thread 4"+id+".0/60.0 µs")
	w.SetConfig("wakeup-run-1", "thread 4"+id+".5/61.0 µs")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSessionFactsAreCommentsReadBackAsConfig: the facts of one session
// are comment lines in the file, not configuration lines, and Read gives
// them back to every result as configuration.
func TestSessionFactsAreCommentsReadBackAsConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txt")
	writeSession(t, path, "1", 1)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, _, ok := strings.Cut(line, ":")
		if ok && !strings.HasPrefix(line, "Benchmark") && !strings.HasPrefix(line, "# ") && IsSessionFact(k) {
			t.Errorf("a session fact is a configuration line benchstat groups by: %q", line)
		}
	}
	for _, want := range []string{"# session-id: abc121\n", "# started: 2026-01-01T00:00:01Z\n",
		"# postgres-server-pid: 1\n", "\npostgres-server: throwaway\n", "\ncount: 6\n",
		"# wakeup: thread 41.0/60.0 µs\n# wakeup-run-1: thread 41.5/61.0 µs\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the file lacks %q:\n%s", want, b)
		}
	}
	set, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Results {
		for k, v := range map[string]string{"session-id": "abc121", "sqlbench-command": "sqlbench run -o 1.txt",
			"postgres-server-ready": "1ms", "count": "6", "wakeup": "thread 41.0/60.0 µs"} {
			if got := r.GetConfig(k); got != v {
				t.Fatalf("%s of %s read back as %q, want %q", k, r.Name, got, v)
			}
		}
	}
}

// TestBenchstatComparesTwoSessions runs the real benchstat (the module's
// pinned tool) on two files the writer wrote for two sessions of the same
// settings: one table per unit, each with the old and the new file as
// columns and a change per cell, not a table per session.
func TestBenchstatComparesTwoSessions(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to run benchstat with")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	writeSession(t, a, "1", 1)
	writeSession(t, b, "2", 1.25)
	out, err := exec.Command("go", "tool", "benchstat", a, b).CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	s := string(out)
	if n := strings.Count(s, "vs base"); n != 2 {
		t.Errorf("benchstat printed %d comparison tables, want 2 (sec/op, ops/s):\n%s", n, s)
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "SimpleQuery/") && !strings.Contains(line, "%") {
			t.Errorf("a cell without a change: %q", line)
		}
		if strings.Contains(line, "│") && strings.Contains(line, "a.txt") && !strings.Contains(line, "b.txt") {
			t.Errorf("the old file's column stands alone: %q\n%s", line, s)
		}
	}
	if strings.Count(s, "SimpleQuery/db=sqlite/driver=mattn/api=sql") != 2 || !strings.Contains(s, "+25.00%") {
		t.Errorf("want each cell once per unit and the 25%% slowdown:\n%s", s)
	}
	for _, fact := range []string{"session-id", "started", "sqlbench-command", "server-pid", "wakeup"} {
		if strings.Contains(s, fact) {
			t.Errorf("benchstat shows %s, so it split the sessions by it:\n%s", fact, s)
		}
	}
}

// TestReadLeavesOutALineCutOff: a file that ends in the middle of a line
// (a full disk, a killed process) is read to its last complete line, and
// Cut says so; a corrupt complete line is still an error, and a file that
// ends its last line has no Cut.
func TestReadLeavesOutALineCutOff(t *testing.T) {
	const whole = "goos: linux\nUnit ns/op better=lower\n" +
		"BenchmarkA/db=sqlite/driver=mattn/api=sql 100 1000 ns/op 1000000 ops/s\n" +
		"BenchmarkB/db=sqlite/driver=mattn/api=sql 100 2000 ns/op 500000 ops/s\n"
	for _, cut := range []int{len(whole) - 1, len(whole) - 8, len(whole) - 30} {
		set, err := Read(strings.NewReader(whole[:cut]), "r.txt")
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if len(set.Results) != 1 || set.Results[0].Name.String() != "A/db=sqlite/driver=mattn/api=sql" {
			t.Errorf("cut at %d: %d results, want the one complete line's", cut, len(set.Results))
		}
		if !strings.Contains(set.Cut, "r.txt ends in the middle of line 4") {
			t.Errorf("cut at %d: Cut = %q", cut, set.Cut)
		}
	}
	set, err := Read(strings.NewReader(whole), "r.txt")
	if err != nil || len(set.Results) != 2 || set.Cut != "" {
		t.Errorf("whole file: %d results, Cut %q, %v", len(set.Results), set.Cut, err)
	}
	if _, err := Read(strings.NewReader("BenchmarkA 100 x ns/op\nBenchmarkB 100 1"), "r.txt"); err == nil {
		t.Error("a corrupt complete line was accepted")
	}
}

// TestTargetKey: a cell written with its target's name carries it as the
// key target= after db=, keeping driver= and api=; Read gives the name back
// without it, as files of earlier versions have it, and the result in
// memory keeps its name.
func TestTargetKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.txt")
	w, err := Create(path, Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	r := &benchfmt.Result{Name: benchfmt.Name("SimpleQuery/db=sqlite/driver=xerial/api=jdbc/n=10-2"), Iters: 100,
		Values: []benchfmt.Value{{Value: 1000, Unit: "ns/op"}}}
	if err := w.WriteTarget(r, "jdbc-sqlite"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b),
		"BenchmarkSimpleQuery/db=sqlite/target=jdbc-sqlite/driver=xerial/api=jdbc/n=10-2 ") {
		t.Errorf("the file does not name the target:\n%s", b)
	}
	if r.Name.String() != "SimpleQuery/db=sqlite/driver=xerial/api=jdbc/n=10-2" {
		t.Errorf("the result in memory is renamed %s", r.Name)
	}
	set, err := ReadFile(path)
	if err != nil || len(set.Results) != 1 || set.Results[0].Name.String() != r.Name.String() {
		t.Fatalf("read back %v, %v", set, err)
	}
	for name, want := range map[string]string{
		"A/db=x/target=t/driver=d/api=s": "A/db=x/driver=d/api=s", "A/db=x/driver=d": "A/db=x/driver=d", "A": "A",
		"A/target=mattn+spin=2us/k=1-4": "A/k=1-4",
	} {
		if got := WithoutTarget(name); got != want {
			t.Errorf("WithoutTarget(%q) = %q, want %q", name, got, want)
		}
	}
	if got := WithTarget("A", "t"); got != "A/target=t" {
		t.Errorf("WithTarget(A) = %q", got)
	}
}

// TestHigherIsBetter: the units sqlbench writes go as Units says, a
// study's own units by their kind: rates higher, times lower.
func TestHigherIsBetter(t *testing.T) {
	for unit, want := range map[string]bool{
		"ops/s": true, "MB/s": true, "ns/op": false, "p99-ns/op": false, "allocs/op": false,
		"queries/s": true, "rows/s": true, "ms": false, "s": false,
	} {
		if got := HigherIsBetter(unit); got != want {
			t.Errorf("HigherIsBetter(%q) = %v, want %v", unit, got, want)
		}
	}
	if u, ok := LookupUnit("p99-ns/op"); !ok || u.Label != "p99 latency" {
		t.Errorf("LookupUnit(p99-ns/op) = %+v, %v", u, ok)
	}
	if _, ok := LookupUnit("furlongs/op"); ok {
		t.Error("LookupUnit found a unit sqlbench does not write")
	}
}

func TestParseCPUs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{"", nil, false}, {" ", nil, false}, {"2,4,8", []int{2, 4, 8}, false}, {"1, 1024", []int{1, 1024}, false},
		{"0", nil, true}, {"1025", nil, true}, {"2,,4", nil, true}, {"x", nil, true}, {"2,2", nil, true},
	} {
		got, err := ParseCPUs(tc.in)
		if (err != nil) != tc.bad || !slices.Equal(got, tc.want) {
			t.Errorf("ParseCPUs(%q) = %v, %v", tc.in, got, err)
		}
	}
}

// TestUnitsHoldWhatTheRunnerWrites: every unit a runner writes on a
// result line, but the time division's (its own tables), is in Units.
func TestUnitsHoldWhatTheRunnerWrites(t *testing.T) {
	for _, name := range []string{unit.NsPerOp, unit.OpsPerSec, unit.BytesPerOp, unit.AllocsPerOp, unit.MBPerSec,
		unit.P50, unit.P99, unit.P999, unit.PeakRSS, unit.RSSGrowth, unit.Spin, unit.Instructions} {
		if _, ok := LookupUnit(name); !ok {
			t.Errorf("Units lacks %s", name)
		}
	}
}
