package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
)

// The fake target's behaviour is chosen by its name, fake-MODE: "ok" (also
// "ok2", a second healthy one), "wrong" (returns a wrong row on every run),
// "hang" (an operation takes longer than the session's time-out, once, and
// then fails) or "panic"; "a", "b" and "c" are only scheduled.
type fakeConn struct {
	mode string
	hung bool
}

var errWrongRow = errors.New("wrong row (7, \"Tset\")")

// onExec, when set, is called by every Exec of a healthy fake target (a
// test that cancels its session mid-run).
var onExec atomic.Pointer[func()]

func (c *fakeConn) Exec(string, ...any) error {
	switch c.mode {
	case "ok":
		if f := onExec.Load(); f != nil {
			(*f)()
		}
	case "wrong":
		return errWrongRow
	case "hang":
		if c.hung {
			return errors.New("hung")
		}
		c.hung = true
		time.Sleep(5 * time.Second)
	case "panic":
		panic("driver bug")
	}
	return nil
}
func (c *fakeConn) Query(string, bench.RowFunc, ...any) error    { return nil }
func (c *fakeConn) QueryRow(string, bench.RowFunc, ...any) error { return nil }
func (c *fakeConn) Prepare(string) (bench.Stmt, error)           { return nil, errors.New("no") }
func (c *fakeConn) Close() error                                 { return nil }

var setups atomic.Int32

func init() {
	for _, m := range fakeModes {
		mode := strings.TrimRight(m, "0123456789")
		bench.RegisterOpener("fake-"+m, func(context.Context, bench.Config) (bench.Conn, error) {
			return &fakeConn{mode: mode}, nil
		})
	}
	bench.RegisterWorkload(bench.Workload{
		Name: "FakeExec", Family: "fake", Ops: 100, Unit: "execs",
		Describe: func(bench.Dialect) string { return "fake" },
		Setup:    func(bench.Env) error { setups.Add(1); return nil },
		Teardown: func(bench.Env) error { return nil },
		Begin: func(e bench.Env) (bench.Run, error) {
			return bench.Run{Op: func(int) error { return e.Conn.Exec("x") }}, nil
		},
	})
	// A variant with keys, and one that needs a capability.
	bench.RegisterWorkload(bench.Workload{
		Name: "FakeExec", Keys: "conns=2", Family: "fake", Ops: 100, Unit: "execs",
		Describe: func(bench.Dialect) string { return "fake, two clients" },
		Setup:    func(bench.Env) error { return nil },
		Teardown: func(bench.Env) error { return nil },
		Needs:    "fakecap",
		Begin: func(e bench.Env) (bench.Run, error) {
			return bench.Run{Parallel: []func(int) error{
				func(int) error { return e.Conn.Exec("x") }, func(int) error { return e.Conn.Exec("x") }}}, nil
		},
	})
}

// fakeModes are the fake targets' modes.
var fakeModes = []string{"ok", "ok2", "wrong", "hang", "panic", "a", "b", "c"}

// fakeTargets returns one placement of the fake target per mode; the driver
// key carries the mode, so every cell has a name of its own. Their runner
// declares the fake target without capabilities and every workload the
// tests schedule.
func fakeTargets(modes ...string) []Placement {
	var ps []Placement
	for _, m := range modes {
		ps = append(ps,
			Placement{Target: targets.Spec{Name: "fake-" + m, Driver: m, API: "sql", DB: bench.SQLite, Group: "g"},
				Runner: fakeHello(nil, "A", "M", "W", "W1", "W2", "Whole", "FakeExec", "FakeExec/conns=2")})
	}
	return ps
}

// fakeHello is a runner's declaration of the fake targets with caps, and
// of the workloads ids.
func fakeHello(caps []bench.Cap, ids ...string) protocol.Hello {
	h := protocol.Hello{Protocol: protocol.ProtocolVersion, Targets: map[string][]bench.Cap{}}
	for _, m := range fakeModes {
		h.Targets["fake-"+m] = caps
	}
	h.Workloads = slices.Sorted(slices.Values(ids))
	return h
}

// newSession returns a session of the fake targets past its declare step,
// as Run leaves it before its loop: a Config of scale 1, a warm-up of 0.1
// and a time-out of 2 s (a loaded machine stretches a healthy fake run
// well past 500 ms), the SQLite files and the results file in t's
// temp dir, and runners served in process (the one seam: dial), whose
// starts it counts.
func newSession(t *testing.T) (*Session, *int) {
	dials := new(int)
	w, err := benchfile.Create(filepath.Join(t.TempDir(), "results.txt"), benchfile.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	s := &Session{
		cfg:     &Config{Scale: 1, Warmup: 0.1, Timeout: 2 * time.Second},
		out:     &Outcome{},
		id:      "tst000",
		dbs:     &dbSet{tmp: t.TempDir(), byDB: map[bench.DB]*database{}},
		results: w,
		dial: func(context.Context, string) (launcher.Conn, error) {
			*dials++
			return newInProcess(), nil
		},
	}
	t.Cleanup(func() { s.closeRunners(); w.Close() })
	return s, dials
}

// written returns the results the session wrote to its results file, read
// back.
func written(t *testing.T, s *Session) []*benchfmt.Result {
	t.Helper()
	if err := s.results.Close(); err != nil {
		t.Fatal(err)
	}
	set, err := benchfile.ReadFile(s.results.Name())
	if err != nil {
		t.Fatal(err)
	}
	return set.Results
}

func TestScheduleInterleavesAndRotatesTargets(t *testing.T) {
	w1, w2 := bench.Workload{Name: "W1"}, bench.Workload{Name: "W2"}
	var order []string
	for _, st := range Schedule([]bench.Workload{w1, w2}, fakeTargets("a", "b", "c"), 3, 1) {
		order = append(order, fmt.Sprintf("%s:%s:%d", st.Cell.Workload.Name, st.Cell.Target.Driver, st.Run))
	}
	want := []string{
		"W1:a:1", "W1:b:1", "W1:c:1", "W2:a:1", "W2:b:1", "W2:c:1",
		"W1:b:2", "W1:c:2", "W1:a:2", "W2:b:2", "W2:c:2", "W2:a:2",
		"W1:c:3", "W1:a:3", "W1:b:3", "W2:c:3", "W2:a:3", "W2:b:3",
	}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("schedule\n got %v\nwant %v", order, want)
	}
}

func TestSessionWritesEveryRunAsItFinishes(t *testing.T) {
	s, _ := newSession(t)
	w, _ := bench.LookupWorkload("FakeExec")
	steps := Schedule([]bench.Workload{w}, fakeTargets("ok", "ok2"), 4, 1)
	before := setups.Load()
	// A progress display off a terminal says nothing within its quiet
	// period but its line at the end, which counts the steps, cells and
	// runs done; the results file holds every run finished by then.
	var log bytes.Buffer
	s.display = progress.New(&log, len(steps), 4, false)
	err := s.runSteps(context.Background(), steps)
	s.display.Finish()
	if err != nil {
		t.Fatal(err)
	}
	got := written(t, s)
	out := s.out
	if out.Runs != 8 || len(got) != 8 || len(out.Done) != 8 || len(out.Failed) != 0 {
		t.Fatalf("runs=%d results=%d failed=%v, want 8 runs and no failures", out.Runs, len(got), out.Failed)
	}
	if got := log.String(); !strings.HasPrefix(got, "[8/8 ") ||
		!strings.HasSuffix(got, "] 2 cells done, 8 runs written\n") ||
		strings.Count(got, "\n") != 1 {
		t.Errorf("progress lines %q, want one: 8/8 steps, 2 cells, 8 runs", got)
	}
	for i, r := range got {
		if want := steps[i].Cell.Name(); r.Name.String() != want || r.Iters != 100 {
			t.Errorf("result %d is %s with %d iterations, want %s with 100", i, r.Name, r.Iters, want)
		}
		if _, ok := r.Value("ops/s"); !ok {
			t.Errorf("result %d has no ops/s", i)
		}
	}
	if n := setups.Load() - before; n != 2 {
		t.Errorf("cells were set up %d times, want once per cell (2)", n)
	}
	// The session builds its report once, from what it did: the files
	// beside the results are written from it, and the caller prints it.
	s.started = true
	if err := s.report(nil); err != nil {
		t.Fatal(err)
	}
	if r := out.Report; r == nil || len(r.Cells) != 2 || len(out.Reports) != 2 ||
		!slices.Equal(r.Sources, []string{filepath.Base(s.results.Name())}) {
		t.Errorf("report %+v, files %v: want the two cells' report, written beside %s", r, out.Reports,
			s.results.Name())
	}
}

func TestSessionFailedCellCostsOnlyThatCell(t *testing.T) {
	for _, mode := range []string{"wrong", "panic"} {
		t.Run(mode, func(t *testing.T) {
			s, _ := newSession(t)
			w, _ := bench.LookupWorkload("FakeExec")
			steps := Schedule([]bench.Workload{w}, fakeTargets("ok", mode), 3, 1)
			if err := s.runSteps(context.Background(), steps); err != nil {
				t.Fatal(err)
			}
			got, out := written(t, s), s.out
			if len(got) != 3 {
				t.Errorf("%d results, want the 3 runs of the healthy cell", len(got))
			}
			for _, r := range got {
				if !strings.Contains(r.Name.String(), "driver=ok") {
					t.Errorf("a result from the failing cell was kept: %s", r.Name)
				}
			}
			if len(out.Failed) != 1 || len(s.failed) != 1 {
				t.Fatalf("failed = %v, want one failed cell", out.Failed)
			}
			want := map[string]string{"wrong": "Tset", "panic": "driver bug"}[mode]
			if f := out.Failed[0]; !strings.Contains(f.Reason, want) || !strings.Contains(f.Name, "driver="+mode) {
				t.Errorf("failure %+v does not name the cell and say %q", f, want)
			}
		})
	}
}

func TestSessionTimeoutKillsTheRunnerAndGoesOn(t *testing.T) {
	s, dials := newSession(t)
	w, _ := bench.LookupWorkload("FakeExec")
	steps := Schedule([]bench.Workload{w}, fakeTargets("hang", "ok"), 2, 1)
	if err := s.runSteps(context.Background(), steps); err != nil {
		t.Fatal(err)
	}
	if len(s.failed) != 1 || !errors.Is(s.failed["FakeExec/db=sqlite/driver=hang/api=sql"], launcher.ErrTimeout) {
		t.Fatalf("failed = %v, want the hanging cell failed by time-out", s.failed)
	}
	if got := written(t, s); len(got) != 2 {
		t.Errorf("%d results, want both runs of the healthy cell", len(got))
	}
	if *dials < 2 {
		t.Errorf("the runner was started %d times; it must be restarted after the kill", *dials)
	}
}

func TestSessionStopsOnCancelAndKeepsFinishedRuns(t *testing.T) {
	s, _ := newSession(t)
	w, _ := bench.LookupWorkload("FakeExec")
	ctx, cancel := context.WithCancel(context.Background())
	// A run is 10 warm-up and 100 timed operations: cancel in the fourth.
	var execs atomic.Int32
	hook := func() {
		if execs.Add(1) == 3*110+50 {
			cancel()
		}
	}
	onExec.Store(&hook)
	defer onExec.Store(nil)
	err := s.runSteps(ctx, Schedule([]bench.Workload{w}, fakeTargets("ok"), 10, 1))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := written(t, s); len(got) != 3 {
		t.Errorf("%d results kept, want the 3 finished before the cancel", len(got))
	}
}

func TestScheduleSkipsWorkloadsOfOtherDatabases(t *testing.T) {
	mariaOnly := bench.Workload{Name: "M", Only: []bench.DB{bench.MariaDB}}
	all := bench.Workload{Name: "A"}
	steps := Schedule([]bench.Workload{mariaOnly, all}, fakeTargets("a", "b"), 2, 1)
	if len(steps) != 4 {
		t.Fatalf("%d steps, want the 4 of workload A on the SQLite targets", len(steps))
	}
	for _, st := range steps {
		if st.Cell.Workload.Name != "A" {
			t.Errorf("MariaDB-only workload scheduled on %s", st.Cell.Target.DB)
		}
	}
}

func TestScheduleHonoursNeedsAndNamesKeys(t *testing.T) {
	plain, _ := bench.LookupWorkload("FakeExec")
	keyed, ok := bench.LookupWorkload("FakeExec/conns=2")
	if !ok {
		t.Fatal("keyed variant not registered by its ID")
	}
	// The runner's declaration decides, not the catalogue's Caps (which
	// the orchestrator checks against it before planning).
	without := fakeTargets("a")
	without[0].Target.Caps = []bench.Cap{"fakecap"}
	with := fakeTargets("b")
	with[0].Runner = fakeHello([]bench.Cap{"fakecap"}, "FakeExec", "FakeExec/conns=2")
	steps := Schedule([]bench.Workload{plain, keyed}, append(without, with...), 1, 1)
	var names []string
	for _, s := range steps {
		names = append(names, s.Cell.Name())
	}
	want := []string{
		"FakeExec/db=sqlite/driver=a/api=sql",
		"FakeExec/db=sqlite/driver=b/api=sql",
		"FakeExec/db=sqlite/driver=b/api=sql/conns=2",
	}
	if !slices.Equal(names, want) {
		t.Fatalf("cells %q, want %q", names, want)
	}
	if got := steps[2].Cell.FileName(); got != "fake-b-FakeExec-conns-2" {
		t.Fatalf("FileName = %q", got)
	}
	if got := steps[2].Cell.Label(); got != "FakeExec/fake-b/conns=2" {
		t.Fatalf("Label = %q, want the target's name in place of its keys", got)
	}
}

func TestScheduleSpreadsSlicesOverTheSession(t *testing.T) {
	w, whole := bench.Workload{Name: "W"}, bench.Workload{Name: "Whole", Whole: true}
	var order []string
	for _, st := range Schedule([]bench.Workload{w, whole}, fakeTargets("a"), 2, 3) {
		order = append(order,
			fmt.Sprintf("%s:r%d:s%d/%d:p%d", st.Cell.Workload.Name, st.Run, st.Slice, st.Slices, st.Pass))
	}
	want := []string{
		"W:r1:s1/3:p0", "Whole:r1:s1/1:p0", "W:r2:s1/3:p1", "Whole:r2:s1/1:p1",
		"W:r1:s2/3:p2", "W:r2:s2/3:p3",
		"W:r1:s3/3:p4", "W:r2:s3/3:p5",
	}
	if !slices.Equal(order, want) {
		t.Fatalf("schedule\n got %v\nwant %v", order, want)
	}
}

func TestSessionSumsSlicesIntoOneResultPerRun(t *testing.T) {
	w, _ := bench.LookupWorkload("FakeExec")
	for _, slices := range []int{4, 30} { // 30 > 10: a slice times at least one operation
		s, _ := newSession(t)
		s.cfg.Scale = 0.1 // FakeExec: 10 operations a run
		err := s.runSteps(context.Background(), Schedule([]bench.Workload{w}, fakeTargets("ok"), 3, slices))
		if out := s.out; err != nil || out.Runs != 3 || len(out.Failed) != 0 {
			t.Fatalf("slices %d: runs=%d failed=%v err=%v, want 3 runs", slices, out.Runs, out.Failed, err)
		}
		for i, r := range written(t, s) {
			if r.Iters != 10 {
				t.Errorf("slices %d: result %d sums %d operations, want 10", slices, i, r.Iters)
			}
			if v, ok := r.Value("p50-sec/op"); !ok || v <= 0 {
				t.Errorf("slices %d: result %d has no merged latency", slices, i)
			}
		}
	}
}

// TestSessionRunsEachWorkloadAtItsOwnScale: a run's size and the scale its
// request carries come from Config.ScaleOf: a smoke session runs a
// workload with a smoke scale of its own at it.
func TestSessionRunsEachWorkloadAtItsOwnScale(t *testing.T) {
	s, _ := newSession(t)
	s.cfg.Scale, s.cfg.Smoke = 0.5, true
	w, _ := bench.LookupWorkload("FakeExec")
	w.Smoke = 0.03
	err := s.runSteps(context.Background(), Schedule([]bench.Workload{w}, fakeTargets("ok"), 2, 1))
	if out := s.out; err != nil || out.Runs != 2 {
		t.Fatalf("runs=%d failed=%v err=%v, want 2 runs", out.Runs, out.Failed, err)
	}
	for i, r := range written(t, s) {
		if want := w.OpsAt(s.cfg.ScaleOf(w)); r.Iters != want || want == w.OpsAt(0.5) {
			t.Errorf("result %d times %d operations, want %d (the smoke scale's)", i, r.Iters, want)
		}
	}
}

// TestSessionProbesTheMachineAtEveryPass: the wake-up probes time every
// pass of the schedule once, before its first step.
func TestSessionProbesTheMachineAtEveryPass(t *testing.T) {
	s, _ := newSession(t)
	s.cfg.Scale = 0.1
	w, _ := bench.LookupWorkload("FakeExec")
	s.wakes = &wake.Recorder{Count: 2}
	if err := s.runSteps(context.Background(),
		Schedule([]bench.Workload{w}, fakeTargets("ok", "ok2"), 2, 2)); err != nil {
		t.Fatal(err)
	}
	if n := s.wakes.Passes(); n != 4 {
		t.Fatalf("%d passes probed, want the 4 of 2 runs of 2 slices", n)
	}
	if _, ok := s.wakes.Run(2); !ok {
		t.Error("no wake-up reading of run 2")
	}
}

func TestScheduleLeavesOutWorkloadsTheRunnerDoesNotDeclare(t *testing.T) {
	w1, w2 := bench.Workload{Name: "W1"}, bench.Workload{Name: "W2"}
	ps := fakeTargets("a", "b")
	ps[1].Runner = fakeHello(nil, "W1")
	var cells []string
	for _, st := range Schedule([]bench.Workload{w1, w2}, ps, 1, 1) {
		cells = append(cells, st.Cell.Name())
	}
	want := []string{"W1/db=sqlite/driver=a/api=sql", "W1/db=sqlite/driver=b/api=sql", "W2/db=sqlite/driver=a/api=sql"}
	if !slices.Equal(cells, want) {
		t.Fatalf("cells %q, want %q", cells, want)
	}
	if (Placement{Target: ps[0].Target}).Runs(w1) {
		t.Error("a placement without its runner's declaration runs a workload")
	}
}

// TestDeclarationsCheckEveryTargetAgainstItsRunner says hello to in-process
// runners, which link the fake target without capabilities and the fake
// workloads.
func TestDeclarationsCheckEveryTargetAgainstItsRunner(t *testing.T) {
	s, dials := newSession(t)
	s.dial = func(ctx context.Context, group string) (launcher.Conn, error) {
		*dials++
		if group == "broken" {
			return nil, errors.New("no such runner")
		}
		return newInProcess(), nil
	}
	h, err := s.hello(context.Background(), "g")
	if err != nil || !h.Runs("fake-ok", "FakeExec/conns=2") || h.Links("absent") {
		t.Fatalf("Hello = %+v, %v", h, err)
	}
	spec := func(name, group string, caps ...bench.Cap) targets.Spec {
		return targets.Spec{Name: name, Driver: name, API: "sql", DB: bench.SQLite, Group: group, Caps: caps}
	}
	plain, _ := bench.LookupWorkload("FakeExec")
	ts := []targets.Spec{
		spec("fake-ok", "g"),
		spec("absent", "g"),
		spec("fake-ok", "g2", "fakecap"),
		spec("other", "broken"),
	}
	byGroup, skipped := s.declarations(context.Background(), []bench.Workload{plain}, ts)
	if *dials != 3 || len(byGroup) != 2 || !byGroup["g2"].Runs("fake-ok", "FakeExec") {
		t.Errorf("%d dials, declarations %v; want 3 dials (g, g2, broken) and two declarations", *dials, byGroup)
	}
	for name, want := range map[string]string{
		"absent":  "does not link it",
		"fake-ok": "declares the capabilities none, the catalogue lists fakecap",
		"other":   "no such runner",
	} {
		if err := skipped[name]; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s skipped for %v, want %q", name, err, want)
		}
	}
	if len(skipped) != 3 {
		t.Errorf("skipped %v, want absent, fake (g2) and other", skipped)
	}
	// A target that runs none of the workloads is skipped, marked as such.
	mariaOnly := bench.Workload{Name: "FakeExec", Only: []bench.DB{bench.MariaDB}}
	_, skipped = s.declarations(context.Background(), []bench.Workload{mariaOnly}, ts[:1])
	if !errors.Is(skipped["fake-ok"], ErrRunsNone) {
		t.Errorf("fake-ok with a MariaDB-only workload: %v, want ErrRunsNone", skipped["fake-ok"])
	}
}

// TestFreeThreadFor: auto (and unset) locks the timing goroutine of
// SQLite cells only, but for a target's families that hand calls to a
// goroutine (FreeIn) and a target that waits on its own process over a
// pipe (Piped); locked and free apply to every cell.
func TestFreeThreadFor(t *testing.T) {
	sqlite, pg := targets.Spec{Name: "s", DB: bench.SQLite}, targets.Spec{Name: "p", DB: bench.Postgres}
	pooled := targets.Spec{Name: "c", DB: bench.SQLite, FreeIn: []string{"suite"}}
	piped := targets.Spec{Name: "q", DB: bench.SQLite, Piped: true}
	for _, c := range []struct {
		mode   string
		t      targets.Spec
		family string
		want   bool
	}{
		{"", sqlite, "classic", false}, {"auto", sqlite, "suite", false}, {"auto", pg, "classic", true},
		{"auto", pooled, "suite", true}, {"auto", pooled, "classic", false}, {"", pooled, "suite", true},
		{"locked", pg, "classic", false}, {"locked", pooled, "suite", false}, {"free", sqlite, "classic", true},
		{"auto", piped, "sqinn", true}, {"", piped, "classic", true}, {"locked", piped, "sqinn", false},
	} {
		if got := freeThreadFor(c.mode, c.t, c.family); got != c.want {
			t.Errorf("freeThreadFor(%q, %s, %s) = %v, want %v", c.mode, c.t.Name, c.family, got, c.want)
		}
	}
}

// TestSqinnRunsFreeUnderAuto: the catalogue's sqinn target, whose every
// call waits on its sqinn process over a pipe, runs its timing goroutine
// free under auto in every family it runs, as a socket target does; the
// other SQLite targets stay locked in the Sqinn-Go suite.
func TestSqinnRunsFreeUnderAuto(t *testing.T) {
	for _, name := range []string{"sqinn", "mattn", "crawshaw"} {
		spec, ok := targets.Lookup(name)
		if !ok {
			t.Fatalf("no %s in the catalogue", name)
		}
		for _, family := range []string{"classic", "suite", "sqinn"} {
			want := name == "sqinn" || (name == "crawshaw" && family == "suite")
			if got := freeThreadFor(ThreadAuto, spec, family); got != want {
				t.Errorf("auto: %s in %s free = %v, want %v", name, family, got, want)
			}
		}
	}
}
