package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/published"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/targets"
	"golang.org/x/perf/benchfmt"
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

// TestBudgetedFirstStageDecidesAndDrops: the first stage is raised to
// the fewest runs whose first look has an interval (7 for 3 looks); slow
// is decided slower at the first look and gets no more runs; zig's
// per-pass ratios lie far on both sides of 1 (its interval estimates it
// would need far more runs than the last look's 15): no round goes to it,
// and the session stops after the first look; a report of the results
// file reaches the session's verdicts, at the first look's interval.
func TestBudgetedFirstStageDecidesAndDrops(t *testing.T) {
	s, log := budgetSession(t, time.Hour, 3)
	d := s.seq.design
	if !slices.Equal(d.Sizes, []int{7, 11, 15}) || d.Bounds[0] != 1 || d.Asked != 2 {
		t.Fatalf("design %+v, want looks after 7, 11 and 15 runs, [min, max] at the first, --count 2 raised", d)
	}
	if err := s.runSchedule(context.Background()); err != nil {
		t.Fatal(err)
	}
	sp := s.out.Spent
	if sp == nil || sp.Rounds != 1 || sp.Stop != StopNone || sp.Decisions.Decided() != 1 || sp.Decisions.Slower != 1 ||
		sp.Decisions.Total() != 2 {
		t.Fatalf("spent %+v, want 1 round, nothing more runs could decide, 1 of 2 decided (slower)\nlog:\n%s", sp, log)
	}
	runs := runsByCell(s)
	if runs[slowCell] != 7 || runs[baseCell] != 7 || runs[zigCell] != 7 {
		t.Errorf("runs %v, want the first stage's 7 each", runs)
	}
	if !strings.Contains(log.String(), "look 1 of 3 (7 runs per cell, intervals at 98.4%)") {
		t.Errorf("log %q, want the first look", log)
	}
	if got := sp.String(); !strings.HasPrefix(got, "budget 1h0m0s: spent ") ||
		!strings.Contains(got, " in 1 round; 1 of 2 comparisons decided") {
		t.Errorf("summary %q", got)
	}
	r := report.New(written(t, s), nil, WorkloadInfo)
	r.Baseline, r.Resolution = "base/sql", 0.01
	if dec, _ := r.RatioDecisions(); dec != sp.Decisions {
		t.Errorf("the report of the results file decides %v, the session %v", dec, sp.Decisions)
	}
	for _, tb := range r.Tables() {
		for _, q := range tb.Ratios("base/sql") {
			if q.How != report.RatioPaired || q.N != 7 || q.Confidence != report.RankCoverage(7, 1) {
				t.Errorf("%s ÷ base: %+v, want paired over 7 runs at the first look's [min, max]", q.Col, q)
			}
		}
	}
}

// TestDefaultBudgetFromTheFirstStage: a session with a default budget
// (BudgetTimes) sets it after its first stage: Times × that stage's time ×
// the fixed design's runs over the first stage's; the log says so.
func TestDefaultBudgetFromTheFirstStage(t *testing.T) {
	s, log := budgetSession(t, 0, 3)
	s.cfg.Budget, s.cfg.BudgetTimes, s.cfg.Count = 0, 2, 6
	s.planDesign()
	d := s.seq.design
	if d.Times != 2 || d.Fixed != 6 || d.Budget != 0 || d.Sizes[0] != 7 {
		t.Fatalf("design %+v, want a default budget of twice a fixed design of 6 runs, first stage 7", d)
	}
	s.steps = s.schedule()
	if err := s.runSchedule(context.Background()); err != nil {
		t.Fatal(err)
	}
	sp := s.out.Spent
	if sp == nil || sp.Rounds != 1 {
		t.Fatalf("spent %+v\nlog:\n%s", sp, log)
	}
	want := time.Duration(2 * float64(sp.Time) * 6 / 7)
	if b := s.seq.design.Budget; b <= 0 || b > want {
		t.Errorf("budget %s, want twice the first stage's %s × 6/7 (at most %s)", b, sp.Time, want)
	}
	if !strings.Contains(log.String(), "× a fixed design's") || !strings.HasPrefix(sp.String(), "default budget ") {
		t.Errorf("log %q, summary %q: want the budget and how it was set", log, sp)
	}
}

// TestBudgetStopsTheRounds: a budget the first stage already spent runs
// no further round, though a comparison is undecided: the first stage
// runs whole, the session says why it stopped.
func TestBudgetStopsTheRounds(t *testing.T) {
	s, log := budgetSession(t, time.Millisecond, 3)
	s.cfg.Resolution = 0.5 // zig's interval is then near enough a verdict to be a candidate
	if err := s.runSchedule(context.Background()); err != nil {
		t.Fatal(err)
	}
	sp := s.out.Spent
	if sp == nil || sp.Rounds != 1 || sp.Decisions.Undecided != 1 {
		t.Fatalf("spent %+v, want 1 round, 1 undecided\nlog:\n%s", sp, log)
	}
	if runs := runsByCell(s); runs[baseCell] != 7 || runs[zigCell] != 7 || runs[slowCell] != 7 {
		t.Errorf("runs %v, want the first stage's 7 each", runs)
	}
	if sp.Stop == StopBudget && !strings.Contains(log.String(), "fits in the 0s left of the budget") {
		t.Errorf("log %q, want why no round followed", log)
	}
}

// craftedLook is a budgeted session whose results are crafted: per-pass
// ops/s of the baseline (1000 a run) and of each other target (the
// baseline's times its ratios), one workload, the looks of a design of 3
// looks from 7 runs, resolution 5%.
func craftedLook(t *testing.T, ratios map[string][]float64) *Session {
	s, _ := budgetSession(t, time.Hour, 3)
	s.cfg.Resolution = 0.05
	bounds := report.FormatLookBounds(s.seq.design.Sizes, s.seq.design.Bounds)
	res := func(driver string, ops float64) *benchfmt.Result {
		r := &benchfmt.Result{Name: benchfmt.Name("FakeExec/db=sqlite/driver=" + driver + "/api=sql"), Iters: 100,
			Values: []benchfmt.Value{{Value: 1e9 / ops, Unit: "ns/op"}, {Value: ops, Unit: "ops/s"}}}
		for _, kv := range [][2]string{{benchfile.KeySessionID, "s1"}, {report.KeyLookBounds, bounds},
			{report.KeyLookConfidence, "0.9833"}} {
			r.SetConfig(kv[0], kv[1])
			pos, _ := r.ConfigIndex(kv[0])
			r.Config[pos].File = true
		}
		return r
	}
	s.out.Done = nil
	for i := range 7 {
		s.out.Done = append(s.out.Done, res("base", 1000))
		for name, rs := range ratios {
			s.out.Done = append(s.out.Done, res(name, 1000*rs[i]))
		}
	}
	return s
}

// TestLookRanksTheUndecided: at a look, a decided comparison is no
// candidate; an undecided one whose interval is near a verdict (near:
// ratios 0.95-1.04, median 1.0) comes before one farther from it (wide:
// 0.94-1.07); one whose interval estimates more runs than the last look's
// (hopeless: 0.4-2.5 about 1) is dropped for good, as is one whose cell
// failed.
func TestLookRanksTheUndecided(t *testing.T) {
	s := craftedLook(t, map[string][]float64{
		"fast":     {1.5, 1.6, 1.4, 1.5, 1.55, 1.45, 1.5},
		"near":     {0.95, 1.0, 1.04, 0.99, 1.01, 1.0, 0.98},
		"wide":     {0.94, 1.07, 1.0, 0.98, 1.03, 0.96, 1.05},
		"hopeless": {0.4, 2.5, 1.0, 0.5, 2.0, 1.0, 0.98},
		"broken":   {0.95, 1.0, 1.04, 0.99, 1.01, 1.0, 0.98},
	})
	s.failed = map[string]error{"FakeExec/db=sqlite/driver=broken/api=sql": errors.New("failed")}
	cands, d := s.look(0)
	if d.Faster != 1 || d.Undecided != 4 {
		t.Fatalf("decisions %v, want fast faster, 4 undecided", d)
	}
	var got []string
	for _, c := range cands {
		got = append(got, strings.TrimSuffix(strings.TrimPrefix(c.num, "FakeExec/db=sqlite/driver="), "/api=sql"))
		if c.den != baseCell || c.settle <= 7 {
			t.Errorf("candidate %+v, want the baseline as den and a settle estimate above 7", c)
		}
	}
	if !slices.Equal(got, []string{"near", "wide"}) {
		t.Fatalf("candidates %v, want near then wide (hopeless and broken dropped)", got)
	}
	if len(s.seq.dropped) != 2 {
		t.Errorf("dropped %v, want hopeless and broken", s.seq.dropped)
	}
	// Left out of a round, a comparison gets no runs again, though a
	// later look would otherwise rank it.
	s.seq.dropped[cands[1].key] = true
	if cands, _ := s.look(1); len(cands) != 1 || !strings.Contains(cands[0].num, "near") {
		t.Errorf("second look's candidates %+v, want near only", cands)
	}
	// At the last look there is no next round: no candidate.
	if cands, _ := s.look(2); len(cands) != 0 {
		t.Errorf("last look's candidates %+v, want none", cands)
	}
}

// TestChooseFillsTheRoundNearestFirst: the round takes the comparisons
// in their order while their time fits, a baseline shared by two counted
// once; one that does not fit is left out though a later, cheaper one is
// taken.
func TestChooseFillsTheRoundNearestFirst(t *testing.T) {
	cost := map[string]time.Duration{"a": 4 * time.Second, "b": 10 * time.Second, "c": 2 * time.Second,
		"base": 3 * time.Second, "base2": time.Second}
	cands := []candidate{{key: "A", num: "a", den: "base", settle: 9}, {key: "B", num: "b", den: "base", settle: 10},
		{key: "C", num: "c", den: "base", settle: 12}, {key: "D", num: "c", den: "base2", settle: 0}}
	perRun := func(cell string) time.Duration { return cost[cell] }
	active, est, n := choose(cands, perRun, 10*time.Second)
	var keys []string
	for _, c := range cands {
		keys = append(keys, c.key)
	}
	if n != 3 || est != 10*time.Second || !slices.Equal(keys, []string{"A", "C", "D", "B"}) ||
		len(active) != 4 || active["b"] {
		t.Errorf("chose %d (%v, %s, active %v), want A, C, D within 10s (a+base+c+base2), B left out", n, keys, est,
			active)
	}
	if _, _, n := choose(cands, perRun, time.Second); n != 0 {
		t.Errorf("chose %d within 1s, want none", n)
	}
}

// TestSortCandidates: nearest a verdict first, an unknown estimate last.
func TestSortCandidates(t *testing.T) {
	cands := []candidate{{key: "u", settle: 0}, {key: "b", settle: 20}, {key: "a", settle: 9}, {key: "c", settle: 20}}
	sortCandidates(cands)
	var keys []string
	for _, c := range cands {
		keys = append(keys, c.key)
	}
	if !slices.Equal(keys, []string{"a", "b", "c", "u"}) {
		t.Errorf("order %v", keys)
	}
}

// TestDesign: no budget, a fixed design; a budget raises the first stage
// to the fewest runs whose first look has an interval, and the looks step
// by half of it; a default budget keeps the fixed design's runs.
func TestDesign(t *testing.T) {
	if _, ok := (&Config{Count: 6}).Design(); ok {
		t.Error("a design without a budget")
	}
	d, ok := (&Config{Count: 10, Budget: time.Minute}).Design()
	if !ok || d.Looks != DefaultLooks || math.Abs(d.Confidence-(1-0.05/5)) > 1e-12 || d.Asked != 0 ||
		!slices.Equal(d.Sizes, []int{10, 15, 20, 25, 30}) {
		t.Errorf("design %+v, want 5 looks from 10 runs to 30", d)
	}
	d, _ = (&Config{Count: 5, Budget: time.Minute}).Design()
	if d.Sizes[0] != 7 || d.Asked != 5 || !strings.Contains(d.String(), "--count 5 raised") {
		t.Errorf("design %+v (%s), want the first stage raised to 7", d, d)
	}
	if got := d.Estimate(30 * time.Second); !strings.Contains(got, "at most 1m39s with every look's runs") ||
		!strings.HasSuffix(got, "at most 1m0s") {
		t.Errorf("estimate %q", got)
	}
	d, ok = (&Config{Count: 6, BudgetTimes: 2}).Design()
	if !ok || d.Times != 2 || d.Fixed != 6 || d.Asked != 0 || d.Sizes[0] != 7 ||
		!strings.Contains(d.String(), "default budget: 2 × a fixed design's measuring time (6 runs per cell)") {
		t.Errorf("default design %+v (%s)", d, d)
	}
	if got := d.Estimate(35 * time.Second); !strings.Contains(got, "bounded by the budget (1m0s)") {
		t.Errorf("default estimate %q, want the budget twice 35s × 6/7", got)
	}
}

// TestQuickDesign: reproduce --quick's design (QuickLooks within
// QuickBudgetTimes × the fixed design of QuickCount runs): a first stage
// of 8 runs, then rounds of 4 to 40 runs over nine looks, keeps the chance
// that any look's interval misses within α over all of them (computed here
// by carrying the sign walk, less the paths that missed, from look to
// look), and has a budget about every look's runs.
func TestQuickDesign(t *testing.T) {
	d, ok := (&Config{Count: QuickCount, BudgetTimes: QuickBudgetTimes, Looks: QuickLooks}).Design()
	if !ok || d.Looks != 9 || d.Times != QuickBudgetTimes || d.Fixed != QuickCount ||
		!slices.Equal(d.Sizes, []int{8, 12, 16, 20, 24, 28, 32, 36, 40}) {
		t.Fatalf("quick design %+v", d)
	}
	miss, dist, n := 0.0, []float64{1}, 0
	for k, nk := range d.Sizes {
		for ; n < nk; n++ {
			next := make([]float64, len(dist)+1)
			for s, p := range dist {
				next[s] += p / 2
				next[s+1] += p / 2
			}
			dist = next
		}
		l := d.Bounds[k]
		if l < 1 {
			t.Fatalf("look %d (%d runs) has no interval: %v", k+1, nk, d.Bounds)
		}
		for s := range dist {
			if s < l || s > nk-l {
				miss += dist[s]
				dist[s] = 0
			}
		}
	}
	if alpha := 1 - report.Confidence; miss > alpha+1e-12 || miss < alpha/2 {
		t.Errorf("quick design %v: any look misses with chance %g, want at most %g (and not far below)", d.Bounds,
			miss, alpha)
	}
	// The budget: 8 × the fixed design's 5 runs, from a first stage of 8
	// that took 16s: 80s, every look's 40 runs.
	if got := d.Estimate(16 * time.Second); !strings.Contains(got, "at most 1m20s with every look's runs") ||
		!strings.Contains(got, "bounded by the budget (1m20s)") {
		t.Errorf("quick estimate %q", got)
	}
}

// TestBudgetFlagsChecked: --looks without --budget, a negative budget and
// too many looks are refused, naming the flag.
func TestBudgetFlagsChecked(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Looks: 3}, "--looks needs a budget"},
		{Config{Budget: -time.Second}, "--budget must be positive"},
		{Config{Budget: time.Minute, Looks: MaxLooks + 1}, "--looks must be from 1 to 16"},
	} {
		cfg := c.cfg
		cfg.Count, cfg.Slices, cfg.Scale, cfg.Timeout = 6, 5, 0.1, time.Minute
		if err := cfg.CheckRanges(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}

// TestLookStudyRanksTheHeadlineComparisons: a session reproducing a study
// looks at its headline comparisons (crafted results of sqlbench-2013-win
// over TCP): SimpleQuery's measured 1.5 against the published 1.51
// agrees; PreparedQueryRow's, spread about the band's edge (1.14 × 1.3),
// is undecided and the next round's candidate; the comparisons with no
// results are not counted.
func TestLookStudyRanksTheHeadlineComparisons(t *testing.T) {
	s, _ := budgetSession(t, time.Hour, 3)
	s.cfg.Study = "sqlbench-2013-win"
	bounds := report.FormatLookBounds(s.seq.design.Sizes, s.seq.design.Bounds)
	keyOf := func(target string) string {
		spec, ok := targets.Lookup(target)
		if !ok {
			t.Fatalf("no target %s", target)
		}
		return spec.Key()
	}
	text := published.StudyKey + ": " + s.cfg.Study + "\nsession-id: s1\n" + report.KeyLookBounds + ": " + bounds + "\n"
	line := func(workload, target string, ops float64) string {
		return fmt.Sprintf("Benchmark%s/%s/net=tcp 100 %.0f ns/op %.2f ops/s\n", workload, keyOf(target), 1e9/ops, ops)
	}
	edge := []float64{1.30, 1.50, 1.38, 1.42, 1.35, 1.46, 1.40} // reaching past 1.14 × 1.3 = 1.48
	for i := range 7 {
		text += line("SimpleQuery", "mysql", 1500*(1+0.01*float64(i%3))) + line("SimpleQuery", "mymysql", 1000)
		text += line("PreparedQueryRow", "mysql", 1000*edge[i]) + line("PreparedQueryRow", "mymysql", 1000)
	}
	rd := benchfmt.NewReader(strings.NewReader(text), "t")
	s.out.Done = nil
	for rd.Scan() {
		if res, ok := rd.Result().(*benchfmt.Result); ok {
			s.out.Done = append(s.out.Done, res.Clone())
		}
	}
	cands, d := s.look(0)
	if d.Agrees != 1 || d.Undecided != 1 || d.Total() != 2 {
		t.Fatalf("decisions %+v, want 1 agrees, 1 undecided of 2 measured", d)
	}
	if len(cands) != 1 || !strings.HasPrefix(cands[0].num, "PreparedQueryRow/") || cands[0].settle <= 7 {
		t.Errorf("candidates %+v, want PreparedQueryRow's", cands)
	}
	if got := d.String(); got != "1 of 2 decided: 1 agree, 0 disagree; 1 undecided" {
		t.Errorf("decisions say %q", got)
	}
}

// TestHopeless: a comparison gets rounds while its estimate is at most
// four times the last look's runs; none beyond, nor at "more than 1000"
// (-1); an unknown estimate (0) still does.
func TestHopeless(t *testing.T) {
	sizes := []int{7, 11, 15}
	for settle, want := range map[int]bool{-1: true, 0: false, 14: false, 60: false, 61: true} {
		if got := hopeless(settle, sizes); got != want {
			t.Errorf("hopeless(%d, %v) = %v, want %v", settle, sizes, got, want)
		}
	}
}
