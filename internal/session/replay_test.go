package session

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/journal"
)

// TestRunnerLostMidRunCostsOnlyItsCell: a cell whose runner is killed (a
// time-out here) fails alone; the other cells of the same runner, whose
// runs were half done, go on in the new runner from the slices the session
// holds, and finish every run.
func TestRunnerLostMidRunCostsOnlyItsCell(t *testing.T) {
	s, dials := newSession(t)
	s.cfg.Scale = 0.4 // FakeExec: 40 operations a run
	w, _ := bench.LookupWorkload("FakeExec")
	if err := s.runSteps(context.Background(),
		Schedule([]bench.Workload{w}, fakeTargets("ok", "hang", "ok2"), 2, 4)); err != nil {
		t.Fatal(err)
	}
	out, got := s.out, written(t, s)
	if len(out.Failed) != 1 || out.Failed[0].Name != "FakeExec/db=sqlite/driver=hang/api=sql" {
		t.Fatalf("failed %v, want the hanging cell alone", out.Failed)
	}
	if out.Runs != 4 || len(got) != 4 {
		t.Fatalf("%d runs, want both runs of both healthy cells", out.Runs)
	}
	for _, r := range got {
		if r.Iters != 40 {
			t.Errorf("%s: %d operations, want 40", r.Name, r.Iters)
		}
	}
	if *dials < 2 {
		t.Errorf("%d runners started, want the lost one replaced", *dials)
	}
}

// TestReplayTakesJournaledSlicesAsMeasured: a session that journals every
// slice, then a second one with the same schedule replaying the journal,
// gives the same results without asking any runner; replaying part of it
// asks only for the missing slices.
func TestReplayTakesJournaledSlicesAsMeasured(t *testing.T) {
	s, _ := newSession(t)
	s.cfg.Scale = 0.4
	path := filepath.Join(t.TempDir(), "s.journal")
	var err error
	if s.journal,
		err = journal.Create(path, journal.Header{Session: s.id, Results: s.results.Name(), Runs: 4}); err != nil {
		t.Fatal(err)
	}
	w, _ := bench.LookupWorkload("FakeExec")
	steps := Schedule([]bench.Workload{w}, fakeTargets("ok", "ok2"), 2, 4)
	if err := s.runSteps(context.Background(), steps); err != nil {
		t.Fatal(err)
	}
	s.journal.Close()
	got := written(t, s)
	_, recs, err := journal.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := replayOf(recs)
	if err != nil || len(replay) != 16 {
		t.Fatalf("%d slices journaled (%v), want 2 cells x 2 runs x 4 slices", len(replay), err)
	}
	again, dials := newSession(t)
	again.cfg.Scale, again.replay = 0.4, replay
	if err := again.runSteps(context.Background(), steps); err != nil {
		t.Fatal(err)
	}
	if *dials != 0 {
		t.Errorf("a full replay started %d runners", *dials)
	}
	got2 := written(t, again)
	if len(got2) != len(got) {
		t.Fatalf("replay gave %d results, want %d", len(got2), len(got))
	}
	for i := range got {
		a, b := got[i], got2[i]
		va, _ := a.Value("sec/op")
		vb, _ := b.Value("sec/op")
		if a.Name.String() != b.Name.String() || a.Iters != b.Iters || va != vb {
			t.Errorf("result %d: %s %d %g, replayed %s %d %g", i, a.Name, a.Iters, va, b.Name, b.Iters, vb)
		}
	}
	// Half the journal: the rest is measured, and journaled.
	half := map[SliceKey]Slice{}
	for k, v := range replay {
		if k.Slice <= 2 {
			half[k] = v
		}
	}
	third, _ := newSession(t)
	third.cfg.Scale, third.replay = 0.4, half
	path3 := filepath.Join(t.TempDir(), "third.journal")
	if third.journal, err = journal.Create(path3,
		journal.Header{Session: third.id, Results: third.results.Name(), Runs: 4}); err != nil {
		t.Fatal(err)
	}
	err = third.runSteps(context.Background(), steps)
	third.journal.Close()
	_, asked, rerr := journal.Read(path3)
	if got3 := written(t, third); err != nil || rerr != nil || len(got3) != 4 || len(asked) != 8 {
		t.Fatalf("half replay: %d results, %d slices measured, %v %v; want 4 results from 8 measured slices", len(got3),
			len(asked), err, rerr)
	}
}

// TestMergeSumsSlicesByUnit checks the run a session makes of its slices:
// operations summed, time and memory per operation weighted by each
// slice's operations, rates recomputed, peaks the largest.
func TestMergeSumsSlicesByUnit(t *testing.T) {
	slice := func(n int, sec, bps, bop, rss float64) Slice {
		return Slice{Result: &benchfmt.Result{Name: benchfmt.Name("X"), Iters: n, Values: []benchfmt.Value{
			{Value: sec, Unit: "sec/op"}, {Value: 1 / sec, Unit: "ops/s"}, {Value: bop, Unit: "B/op"},
			{Value: bps, Unit: "B/s"}, {Value: rss, Unit: "peak-RSS-B"}}}}
	}
	// 100 ops at 1 ms and 300 ops at 3 ms: 1 KB moved per operation.
	r := &runSum{slices: []Slice{slice(100, 1e-3, 1e6, 10, 5), slice(300, 3e-3, 1e3/3e-3, 30, 7)}}
	res, err := r.merge("X")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"sec/op": 2.5e-3, "ops/s": 400, "B/op": 25, "B/s": 1e3 / 2.5e-3, "peak-RSS-B": 7}
	if res.Iters != 400 {
		t.Errorf("%d operations, want 400", res.Iters)
	}
	for unit, v := range want {
		if got, ok := res.Value(unit); !ok || math.Abs(got-v) > 1e-9*math.Abs(v) {
			t.Errorf("%s = %g (%v), want %g", unit, got, ok, v)
		}
	}
}

// TestMergedResultKeepsTheRunnersUnits: a run summed from slices is
// written in the units the runner wrote (ns/op, MB/s, p99-ns/op), as a
// whole run is, not in benchfmt's tidied ones.
func TestMergedResultKeepsTheRunnersUnits(t *testing.T) {
	line := "BenchmarkX 10 1000 ns/op 1000000 ops/s 2 MB/s 5 B/op"
	var sl []Slice
	for range 2 {
		res, err := parseResult([]string{line}, "X")
		if err != nil {
			t.Fatal(err)
		}
		sl = append(sl, Slice{Result: res})
	}
	r := &runSum{slices: sl}
	res, err := r.merge("X")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	w := benchfmt.NewWriter(&b)
	if err := w.Write(res); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(b.String()), "BenchmarkX 20 1000 ns/op 1e+06 ops/s 2 MB/s 5 B/op"; got != want {
		t.Errorf("merged line %q, want %q", got, want)
	}
}

// TestMergeKeepsAUnitZeroInEverySlice: a unit that is 0 in every slice
// (a run queue the thread never waited in) is written as the runner wrote
// it, 0, not dropped.
func TestMergeKeepsAUnitZeroInEverySlice(t *testing.T) {
	var sl []Slice
	for _, line := range []string{"BenchmarkX 10 1000 ns/op 900 oncpu-ns/op 0 runq-ns/op 100 blocked-ns/op",
		"BenchmarkX 10 1000 ns/op 1000 oncpu-ns/op 0 runq-ns/op 0 blocked-ns/op"} {
		res, err := parseResult([]string{line}, "X")
		if err != nil {
			t.Fatal(err)
		}
		sl = append(sl, Slice{Result: res})
	}
	res, err := (&runSum{slices: sl}).merge("X")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, v := range res.Values {
		got[v.OrigUnit] = v.OrigValue
	}
	want := map[string]float64{"ns/op": 1000, "oncpu-ns/op": 950, "runq-ns/op": 0, "blocked-ns/op": 50}
	if len(got) != len(want) {
		t.Fatalf("merged units %v, want %v", got, want)
	}
	for u, v := range want {
		if g, ok := got[u]; !ok || math.Abs(g-v) > 1e-9*max(v, 1) {
			t.Errorf("%s = %v (%v), want %v", u, g, ok, v)
		}
	}
}

// TestMergeKeepsAUnitThatIsZeroInSomeSlices: benchfmt reads "0
// blocked-ns/op" in the runner's unit and "10 blocked-ns/op" in the tidied
// one; the run has the unit all the same, averaged over its slices, and
// written as the runner wrote it, also when it is 0 in every slice.
func TestMergeKeepsAUnitThatIsZeroInSomeSlices(t *testing.T) {
	var sl []Slice
	for _, line := range []string{
		"BenchmarkX 10 1000 ns/op 0 blocked-ns/op 0 bg-cpu-ns/op",
		"BenchmarkX 10 1000 ns/op 10 blocked-ns/op 0 bg-cpu-ns/op",
	} {
		res, err := parseResult([]string{line}, "X")
		if err != nil {
			t.Fatal(err)
		}
		sl = append(sl, Slice{Result: res})
	}
	res, err := (&runSum{slices: sl}).merge("X")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := benchfmt.NewWriter(&b).Write(res); err != nil {
		t.Fatal(err)
	}
	if got, ok := res.Value("blocked-sec/op"); !ok || math.Abs(got-5e-9) > 1e-20 {
		t.Errorf("blocked %g s/op (%v), want 5 ns", got, ok)
	}
	if got := b.String(); !strings.Contains(got, " blocked-ns/op ") || !strings.HasSuffix(got, " 0 bg-cpu-ns/op\n") {
		t.Errorf("merged line %q, want blocked-ns/op and 0 bg-cpu-ns/op", got)
	}
}

// TestMergeReadsTheJavaRunnersHistograms: the JDBC runner's latency-hdr
// value (Java HdrHistogram's compressed encoding of 1000, 2000 and 3000
// ns, as jdbc's LatencyHdr writes it) merges like a Go runner's.
func TestMergeReadsTheJavaRunnersHistograms(t *testing.T) {
	const fromJava = "HISTFAAAACp4nJNpmSzMwMDAyQABzFCaEch0M9ixgMH+A0TgPD/TWX6mqRxMAIUVBrE="
	res, err := parseResult(
		[]string{"BenchmarkX 3 2000 ns/op 500000 ops/s 2000 p50-ns/op 3001 p99-ns/op 3001 p99.9-ns/op"}, "X")
	if err != nil {
		t.Fatal(err)
	}
	r := &runSum{slices: []Slice{{Result: res, Latency: fromJava}, {Result: res, Latency: fromJava}}}
	merged, err := r.merge("X")
	if err != nil {
		t.Fatal(err)
	}
	if p50, _ := merged.Value("p50-sec/op"); p50 != 2000e-9 {
		t.Errorf("p50 of the merged Java histograms %g s, want 2000 ns", p50)
	}
	if p99, _ := merged.Value("p99-sec/op"); p99 != 3001e-9 {
		t.Errorf("p99 of the merged Java histograms %g s, want 3001 ns", p99)
	}
}
