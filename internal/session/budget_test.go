package session

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/targets"
)

// pacedConn is a fake target whose operations busy-wait a set time:
// "base" 20 µs each, "slow" 200 µs (far slower than base: decided at the
// first look), "zig" alternately none and 200 µs a run of FakeExec's 100
// operations (its per-pass ratios to base lie far on both sides of 1 at
// every look: never decided).
type pacedConn struct {
	mode string
	ops  int
}

func (c *pacedConn) Exec(string, ...any) error {
	c.ops++
	switch {
	case c.mode == "base":
		spin(20 * time.Microsecond)
	case c.mode == "slow", c.mode == "zig" && (c.ops-1)/100%2 == 1:
		spin(200 * time.Microsecond)
	}
	return nil
}

// spin busy-waits d.
func spin(d time.Duration) {
	for t := time.Now(); time.Since(t) < d; {
	}
}
func (c *pacedConn) Query(string, bench.RowFunc, ...any) error    { return nil }
func (c *pacedConn) QueryRow(string, bench.RowFunc, ...any) error { return nil }
func (c *pacedConn) Prepare(string) (bench.Stmt, error)           { return nil, errors.New("no") }
func (c *pacedConn) Close() error                                 { return nil }

var pacedModes = []string{"base", "slow", "zig"}

func init() {
	for _, m := range pacedModes {
		bench.RegisterOpener("paced-"+m, func(context.Context, bench.Config) (bench.Conn, error) {
			return &pacedConn{mode: m}, nil
		})
	}
}

// budgetSession is a session of the paced targets on FakeExec past its
// declare step, budgeted at budget with looks looks, baseline base, one
// slice a run and no warm-up (a run is exactly 100 operations).
func budgetSession(t *testing.T, budget time.Duration, looks int) (*Session, *bytes.Buffer) {
	s, _ := newSession(t)
	var log bytes.Buffer
	s.env.Log = &log
	s.cfg.Warmup, s.cfg.Slices, s.cfg.Count = 0, 1, 2
	s.cfg.Budget, s.cfg.Looks, s.cfg.Baseline, s.cfg.Resolution = budget, looks, "base/sql", 0.01
	w, ok := bench.LookupWorkload("FakeExec")
	if !ok {
		t.Fatal("no FakeExec workload")
	}
	hello := fakeHello(nil, "FakeExec")
	s.p = &Plan{Workloads: []bench.Workload{w}}
	for _, m := range pacedModes {
		hello.Targets["paced-"+m] = nil
		s.p.Runnable = append(s.p.Runnable,
			targets.Spec{Name: "paced-" + m, Driver: m, API: "sql", DB: bench.SQLite, Group: "g"})
	}
	s.declared = map[string]protocol.Hello{"g": hello}
	s.planDesign()
	s.designLines()
	s.results.SetConfig(benchfile.KeySessionID, s.id) // as the header has it: the runs pair by pass
	s.steps = s.schedule()
	s.display = progress.New(&log, len(s.steps), s.cfg.Count, false)
	t.Cleanup(func() { s.display.Finish() })
	return s, &log
}

func runsByCell(s *Session) map[string]int {
	runs := map[string]int{}
	for _, r := range s.out.Done {
		runs[r.Name.String()]++
	}
	return runs
}

const (
	baseCell = "FakeExec/db=sqlite/driver=base/api=sql"
	slowCell = "FakeExec/db=sqlite/driver=slow/api=sql"
	zigCell  = "FakeExec/db=sqlite/driver=zig/api=sql"
)

// TestBudgetedRoundsGoToTheUndecided: the first stage is raised to the
// fewest runs a look's interval needs (7 at 1-5%/3); slow is decided
// slower at the first look and gets no more runs; zig stays undecided, so
// it and the baseline it is compared with get the next looks' runs (14,
// then 28) until the planned looks are done; a report of the results file
// reaches the session's verdicts, slow's ratio paired over its 7 runs
// with the baseline's first 7, at the looks' confidence.
func TestBudgetedRoundsGoToTheUndecided(t *testing.T) {
	s, log := budgetSession(t, time.Hour, 3)
	d := s.seq.design
	if d.Confidence != report.LookConfidence(3) || d.Sizes[0] != 7 || d.Asked != 2 ||
		len(d.Sizes) != 3 || d.Sizes[1] != 14 || d.Sizes[2] != 28 {
		t.Fatalf("design %+v, want looks at %g after 7, 14 and 28 runs, --count 2 raised", d, report.LookConfidence(3))
	}
	if err := s.runSchedule(context.Background()); err != nil {
		t.Fatal(err)
	}
	sp := s.out.Spent
	if sp == nil || sp.Rounds != 3 || sp.Stop != StopLooks || sp.Decisions.Decided() != 1 || sp.Decisions.Slower != 1 ||
		sp.Decisions.Total() != 2 {
		t.Fatalf("spent %+v, want 3 rounds, every look done, 1 of 2 decided (slower)\nlog:\n%s", sp, log)
	}
	runs := runsByCell(s)
	if runs[slowCell] != 7 || runs[baseCell] != 28 || runs[zigCell] != 28 {
		t.Errorf("runs %v, want slow 7 (decided at the first look), base and zig 28", runs)
	}
	if !strings.Contains(log.String(), "look 1 of 3 (7 runs per cell, 98.333") ||
		!strings.Contains(log.String(), "round 2: 2 cells, 7 more runs each") {
		t.Errorf("log %q, want the looks and the rounds", log)
	}
	if got := sp.String(); !strings.HasPrefix(got, "budget 1h0m0s: spent ") ||
		!strings.Contains(got, " in 3 rounds; 1 of 2 comparisons decided") {
		t.Errorf("summary %q", got)
	}
	// The report of the file: the same verdicts, from the looks' data.
	r := report.New(written(t, s), nil, WorkloadInfo)
	r.Baseline, r.Resolution = "base/sql", 0.01
	dec, _ := r.RatioDecisions()
	if dec != sp.Decisions {
		t.Errorf("the report of the results file decides %v, the session %v", dec, sp.Decisions)
	}
	for _, tb := range r.Tables() {
		for _, q := range tb.Ratios("base/sql") {
			if q.Confidence != d.Confidence {
				t.Errorf("%s ÷ base at %g, want the looks' %g", q.Col, q.Confidence, d.Confidence)
			}
			if q.Col == "slow/sql" && (q.How != report.RatioPaired || q.N != 7 || q.Kind(0.01) != report.Slower) {
				t.Errorf("slow ÷ base: %+v, want paired over 7 runs, slower", q)
			}
		}
	}
}

// TestBudgetStopsTheRounds: a budget the first stage already spent runs
// no further round, though a comparison is undecided: the first stage
// runs whole, the session says why it stopped.
func TestBudgetStopsTheRounds(t *testing.T) {
	s, log := budgetSession(t, time.Millisecond, 3)
	if err := s.runSchedule(context.Background()); err != nil {
		t.Fatal(err)
	}
	sp := s.out.Spent
	if sp == nil || sp.Rounds != 1 || sp.Stop != StopBudget || sp.Decisions.Undecided != 1 {
		t.Fatalf("spent %+v, want 1 round, stopped by the budget, 1 undecided\nlog:\n%s", sp, log)
	}
	if runs := runsByCell(s); runs[baseCell] != 7 || runs[zigCell] != 7 || runs[slowCell] != 7 {
		t.Errorf("runs %v, want the first stage's 7 each", runs)
	}
	if !strings.Contains(log.String(), "would not fit in the 0s left of the budget") {
		t.Errorf("log %q, want why no round followed", log)
	}
}

// TestLookKeepsVerdictsAndTheBaselineWhileNeeded: a comparison decided at
// a look stays decided, whatever later runs say; the baseline is needed
// while one of its comparisons is undecided, and not once all are.
func TestLookKeepsVerdictsAndTheBaselineWhileNeeded(t *testing.T) {
	s, _ := budgetSession(t, time.Hour, 3)
	if err := s.runSteps(context.Background(), s.steps); err != nil {
		t.Fatal(err)
	}
	active, d := s.look()
	if d.Slower != 1 || d.Undecided != 1 || !active[baseCell] || !active[zigCell] || active[slowCell] {
		t.Fatalf("first look: %v, active %v; want slow decided and out, base and zig in", d, active)
	}
	// A verdict is final: the look keeps it even when the data would no
	// longer give it.
	for k := range s.seq.decided {
		s.seq.decided[k] = report.Faster
	}
	if _, d := s.look(); d.Faster != 1 || d.Slower != 0 {
		t.Errorf("second look %v, want the kept verdict (faster)", d)
	}
	// zig decided too: nothing needs the baseline any more.
	s.failed = map[string]error{zigCell: errors.New("failed")}
	if active, _ := s.look(); len(active) != 0 {
		t.Errorf("active %v with the undecided comparison's cell failed, want none", active)
	}
}

// TestDesign: no budget, a fixed design; a budget raises the first stage
// to what a look's interval needs and doubles it at each look.
func TestDesign(t *testing.T) {
	if _, ok := (&Config{Count: 6}).Design(); ok {
		t.Error("a design without a budget")
	}
	d, ok := (&Config{Count: 10, Budget: time.Minute}).Design()
	if !ok || d.Looks != DefaultLooks || math.Abs(d.Confidence-0.9875) > 1e-12 || d.Asked != 0 ||
		d.Sizes[0] != 10 || d.Sizes[3] != 80 {
		t.Errorf("design %+v, want 4 looks at 98.75%% from 10 runs to 80", d)
	}
	d, _ = (&Config{Count: 5, Budget: time.Minute}).Design()
	if d.Sizes[0] != 8 || d.Asked != 5 || !strings.Contains(d.String(), "--count 5 raised") {
		t.Errorf("design %+v (%s), want the first stage raised to 8 (2·0.5^8 <= 1.25%%)", d, d)
	}
	if got := d.Estimate(30 * time.Second); !strings.Contains(got, "at most 4m0s with every look's runs") ||
		!strings.HasSuffix(got, "at most 1m0s") {
		t.Errorf("estimate %q", got)
	}
}

// TestBudgetFlagsChecked: --looks without --budget, a negative budget and
// too many looks are refused, naming the flag.
func TestBudgetFlagsChecked(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Looks: 3}, "--looks needs --budget"},
		{Config{Budget: -time.Second}, "--budget must be positive"},
		{Config{Budget: time.Minute, Looks: MaxLooks + 1}, "--looks must be from 1 to 8"},
	} {
		cfg := c.cfg
		cfg.Count, cfg.Slices, cfg.Scale, cfg.Timeout = 6, 5, 0.1, time.Minute
		if err := cfg.CheckRanges(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}
