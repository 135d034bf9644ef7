package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/runner"
	"github.com/sqlbench/sqlbench/targets"
)

// The fake target's behaviour is chosen by its DSN: "ok", "wrong" (returns a
// wrong row on every run), "hang" (an operation takes longer than the
// session's time-out, once, and then fails) or "panic".
type fakeConn struct {
	mode string
	hung bool
}

var errWrongRow = errors.New("wrong row (7, \"Tset\")")

func (c *fakeConn) Exec(string, ...any) error {
	switch c.mode {
	case "wrong":
		return errWrongRow
	case "hang":
		if c.hung {
			return errors.New("hung")
		}
		c.hung = true
		time.Sleep(1500 * time.Millisecond)
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
	bench.RegisterOpener("fake", func(_ context.Context, cfg bench.Config) (bench.Conn, error) {
		return &fakeConn{mode: cfg.DSN}, nil
	})
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

// fakeTargets returns one placement of the fake target per mode; the driver
// key carries the mode, so every cell has a name of its own. Their runner
// declares the fake target without capabilities and every workload the
// tests schedule.
func fakeTargets(modes ...string) []Placement {
	var ps []Placement
	for _, m := range modes {
		ps = append(ps, Placement{Target: targets.Spec{Name: "fake", Driver: m, API: "sql", DB: bench.SQLite, Group: "g"},
			Runner: fakeHello(nil, "A", "M", "W", "W1", "W2", "Whole", "FakeExec", "FakeExec/conns=2")})
	}
	return ps
}

// fakeHello is a runner's declaration of the fake target with caps, and of
// the workloads ids.
func fakeHello(caps []bench.Cap, ids ...string) runner.Hello {
	h := runner.Hello{Protocol: runner.ProtocolVersion, Targets: map[string][]bench.Cap{"fake": caps}}
	h.Workloads = slices.Sorted(slices.Values(ids))
	return h
}

func newSession(t *testing.T) (*Session, *[]*benchfmt.Result, *int) {
	var got []*benchfmt.Result
	dials := 0
	s := &Session{
		Dial: func(ctx context.Context, group string) (launcher.Conn, error) {
			dials++
			return launcher.InProcess(&runner.Loop{}), nil
		},
		// The driver key carries the mode ("ok2" is a second healthy one).
		Where: func(c Cell) runner.Location {
			return runner.Location{DSN: strings.TrimRight(c.Target.Driver, "0123456789")}
		},
		Warmup: 0.1, Timeout: 500 * time.Millisecond,
		Result: func(r *benchfmt.Result) error { got = append(got, r); return nil },
	}
	t.Cleanup(s.Close)
	return s, &got, &dials
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

func TestSessionPassesOnEveryRunAsItFinishes(t *testing.T) {
	s, got, _ := newSession(t)
	w, _ := bench.LookupWorkload("FakeExec")
	steps := Schedule([]bench.Workload{w}, fakeTargets("ok", "ok2"), 4, 1)
	var seenAtEvent []int
	s.Progress = func(ev Event) { seenAtEvent = append(seenAtEvent, len(*got)) }
	before := setups.Load()
	out, err := s.Run(context.Background(), steps)
	if err != nil {
		t.Fatal(err)
	}
	if out.Runs != 8 || len(*got) != 8 || len(out.Failed) != 0 {
		t.Fatalf("runs=%d results=%d failed=%v, want 8 runs and no failures", out.Runs, len(*got), out.Failed)
	}
	for i, n := range seenAtEvent {
		if n != i+1 {
			t.Fatalf("at event %d, %d results had been passed on: results must be flushed run by run", i+1, n)
		}
	}
	for i, r := range *got {
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
}

func TestSessionFailedCellCostsOnlyThatCell(t *testing.T) {
	for _, mode := range []string{"wrong", "panic"} {
		t.Run(mode, func(t *testing.T) {
			s, got, _ := newSession(t)
			w, _ := bench.LookupWorkload("FakeExec")
			steps := Schedule([]bench.Workload{w}, fakeTargets("ok", mode), 3, 1)
			out, err := s.Run(context.Background(), steps)
			if err != nil {
				t.Fatal(err)
			}
			if len(*got) != 3 {
				t.Errorf("%d results, want the 3 runs of the healthy cell", len(*got))
			}
			for _, r := range *got {
				if !strings.Contains(r.Name.String(), "driver=ok") {
					t.Errorf("a result from the failing cell was kept: %s", r.Name)
				}
			}
			if len(out.Failed) != 1 || len(out.Order) != 1 {
				t.Fatalf("failed = %v, want one failed cell", out.Failed)
			}
			want := map[string]string{"wrong": "Tset", "panic": "driver bug"}[mode]
			if err := out.Failed[out.Order[0]]; !strings.Contains(err.Error(), want) {
				t.Errorf("failure reason %q does not say %q", err, want)
			}
		})
	}
}

func TestSessionTimeoutKillsTheRunnerAndGoesOn(t *testing.T) {
	s, got, dials := newSession(t)
	w, _ := bench.LookupWorkload("FakeExec")
	steps := Schedule([]bench.Workload{w}, fakeTargets("hang", "ok"), 2, 1)
	out, err := s.Run(context.Background(), steps)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failed) != 1 || !errors.Is(out.Failed[out.Order[0]], launcher.ErrTimeout) {
		t.Fatalf("failed = %v, want the hanging cell failed by time-out", out.Failed)
	}
	if len(*got) != 2 {
		t.Errorf("%d results, want both runs of the healthy cell", len(*got))
	}
	if *dials < 2 {
		t.Errorf("the runner was started %d times; it must be restarted after the kill", *dials)
	}
}

func TestSessionStopsOnCancelAndKeepsFinishedRuns(t *testing.T) {
	s, got, _ := newSession(t)
	w, _ := bench.LookupWorkload("FakeExec")
	ctx, cancel := context.WithCancel(context.Background())
	s.Result = func(r *benchfmt.Result) error {
		*got = append(*got, r)
		if len(*got) == 3 {
			cancel()
		}
		return nil
	}
	_, err := s.Run(ctx, Schedule([]bench.Workload{w}, fakeTargets("ok"), 10, 1))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(*got) != 3 {
		t.Errorf("%d results kept, want the 3 finished before the cancel", len(*got))
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
	if got := steps[2].Cell.FileName(); got != "fake-FakeExec-conns-2" {
		t.Fatalf("FileName = %q", got)
	}
}

func TestScheduleSpreadsSlicesOverTheSession(t *testing.T) {
	w, whole := bench.Workload{Name: "W"}, bench.Workload{Name: "Whole", Whole: true}
	var order []string
	for _, st := range Schedule([]bench.Workload{w, whole}, fakeTargets("a"), 2, 3) {
		order = append(order, fmt.Sprintf("%s:r%d:s%d/%d:p%d", st.Cell.Workload.Name, st.Run, st.Slice, st.Slices, st.Pass))
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
	s, got, _ := newSession(t)
	s.ScaleOf = func(bench.Workload) float64 { return 0.1 } // FakeExec: 10 operations a run
	w, _ := bench.LookupWorkload("FakeExec")
	for _, slices := range []int{4, 30} { // 30 > 10: a slice times at least one operation
		*got = nil
		out, err := s.Run(context.Background(), Schedule([]bench.Workload{w}, fakeTargets("ok"), 3, slices))
		if err != nil || out.Runs != 3 || len(out.Failed) != 0 {
			t.Fatalf("slices %d: runs=%d failed=%v err=%v, want 3 runs", slices, out.Runs, out.Failed, err)
		}
		for i, r := range *got {
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
// request carries come from ScaleOf.
func TestSessionRunsEachWorkloadAtItsOwnScale(t *testing.T) {
	s, got, _ := newSession(t)
	s.ScaleOf = func(w bench.Workload) float64 { return 0.03 }
	w, _ := bench.LookupWorkload("FakeExec")
	out, err := s.Run(context.Background(), Schedule([]bench.Workload{w}, fakeTargets("ok"), 2, 1))
	if err != nil || out.Runs != 2 {
		t.Fatalf("runs=%d failed=%v err=%v, want 2 runs", out.Runs, out.Failed, err)
	}
	for i, r := range *got {
		if want := w.OpsAt(0.03); r.Iters != want {
			t.Errorf("result %d times %d operations, want %d (ScaleOf's scale)", i, r.Iters, want)
		}
	}
}

// TestSessionCallsPassStartBeforeEachPass: the hook runs once per pass, in
// order, before the pass's first step and after the previous pass's last.
func TestSessionCallsPassStartBeforeEachPass(t *testing.T) {
	s, _, _ := newSession(t)
	s.ScaleOf = func(bench.Workload) float64 { return 0.1 }
	w, _ := bench.LookupWorkload("FakeExec")
	var log []string
	s.PassStart = func(p int) { log = append(log, fmt.Sprintf("pass%d", p)) }
	s.Progress = func(ev Event) {
		log = append(log, fmt.Sprintf("%s-r%d-s%d", ev.Step.Cell.Target.Driver, ev.Step.Run, ev.Step.Slice))
	}
	if _, err := s.Run(context.Background(), Schedule([]bench.Workload{w}, fakeTargets("ok", "ok2"), 2, 2)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"pass0", "ok-r1-s1", "ok2-r1-s1",
		"pass1", "ok2-r2-s1", "ok-r2-s1",
		"pass2", "ok-r1-s2", "ok2-r1-s2",
		"pass3", "ok2-r2-s2", "ok-r2-s2",
	}
	if !slices.Equal(log, want) {
		t.Fatalf("calls\n got %v\nwant %v", log, want)
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
	s, _, dials := newSession(t)
	s.Dial = func(ctx context.Context, group string) (launcher.Conn, error) {
		*dials++
		if group == "broken" {
			return nil, errors.New("no such runner")
		}
		return launcher.InProcess(&runner.Loop{}), nil
	}
	h, err := s.Hello(context.Background(), "g")
	if err != nil || !h.Runs("fake", "FakeExec/conns=2") || h.Links("absent") {
		t.Fatalf("Hello = %+v, %v", h, err)
	}
	spec := func(name, group string, caps ...bench.Cap) targets.Spec {
		return targets.Spec{Name: name, Driver: name, API: "sql", DB: bench.SQLite, Group: group, Caps: caps}
	}
	plain, _ := bench.LookupWorkload("FakeExec")
	ts := []targets.Spec{
		spec("fake", "g"),
		spec("absent", "g"),
		spec("fake", "g2", "fakecap"),
		spec("other", "broken"),
	}
	byGroup, skipped := s.Declarations(context.Background(), []bench.Workload{plain}, ts)
	if *dials != 3 || len(byGroup) != 2 || !byGroup["g2"].Runs("fake", "FakeExec") {
		t.Errorf("%d dials, declarations %v; want 3 dials (g, g2, broken) and two declarations", *dials, byGroup)
	}
	for name, want := range map[string]string{
		"absent": "does not link it",
		"fake":   "declares the capabilities none, the catalogue lists fakecap",
		"other":  "no such runner",
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
	_, skipped = s.Declarations(context.Background(), []bench.Workload{mariaOnly}, ts[:1])
	if !errors.Is(skipped["fake"], ErrRunsNone) {
		t.Errorf("fake with a MariaDB-only workload: %v, want ErrRunsNone", skipped["fake"])
	}
}

// TestFreeThreadFor: auto (and unset) locks the timing goroutine of
// SQLite cells only; locked and free apply to every cell.
func TestFreeThreadFor(t *testing.T) {
	for _, c := range []struct {
		mode string
		db   bench.DB
		want bool
	}{
		{"", bench.SQLite, false}, {"auto", bench.SQLite, false}, {"auto", bench.Postgres, true}, {"auto", bench.MariaDB, true},
		{"locked", bench.Postgres, false}, {"locked", bench.SQLite, false}, {"free", bench.SQLite, true}, {"free", bench.MariaDB, true},
	} {
		if got := freeThreadFor(c.mode, c.db); got != c.want {
			t.Errorf("freeThreadFor(%q, %s) = %v, want %v", c.mode, c.db, got, c.want)
		}
	}
}
