package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/studies"
)

// machine is a session.Host on which every program is found but those in
// missing.
func machine(missing ...string) session.Host {
	return session.Host{
		Getenv: func(string) string { return "" },
		LookPath: func(p string) (string, error) {
			if slices.Contains(missing, p) {
				return "", errors.New("not found")
			}
			return "/usr/bin/" + p, nil
		},
		Log: io.Discard,
	}
}

// TestPlansFollowTheStudies plans every study and checks the session it
// would run against the study's data: its targets and workloads (all of
// them, less what this build or machine lacks, each named with a reason),
// its studyConditions, and the study recorded.
func TestPlansFollowTheStudies(t *testing.T) {
	for _, s := range studies.All() {
		p, err := newStudyPlan(studyOptions{Study: s.ID}, machine("sqinn"))
		if err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
		cfg := p.Config
		if cfg.Study != s.ID || cfg.Scale != s.Plan.Scale || cfg.Count != s.Plan.Count || cfg.Warmup != s.Plan.Warmup ||
			cfg.ColdJVM != (s.Plan.Warmup == 0) || !slices.Equal(cfg.CPUs, s.CPUs()) {
			t.Errorf("%s: config %+v does not follow the study's plan %+v", s.ID, cfg, s.Plan)
		}
		if cfg.TimingThread != session.ThreadFree {
			t.Errorf("%s: timing goroutines locked by default; the published programs ran them free", s.ID)
		}
		if q, _ := newStudyPlan(studyOptions{Study: s.ID, LockThread: true},
			machine("sqinn")); q.Config.TimingThread != session.ThreadLocked {
			t.Errorf("%s: LockThread left the timing goroutines free", s.ID)
		}
		// The SQLite settings are the published suite's but where the
		// study's programs set no synchronous level (sqinn-go, dbi-2023).
		wantSync := bench.DefaultSQLiteSync
		if s.ID == "sqinn-go" || s.ID == "dbi-2023" {
			wantSync = bench.SQLiteSyncDriver
		}
		if cfg.SQLite.Sync != wantSync || cfg.SQLite.Journal != bench.DefaultSQLiteJournal {
			t.Errorf("%s: SQLite settings %+v, want journal %s and synchronous %s", s.ID, cfg.SQLite,
				bench.DefaultSQLiteJournal, wantSync)
		}
		got := strings.Contains(studyConditions(p), "own synchronous level")
		if got != (wantSync == bench.SQLiteSyncDriver) {
			t.Errorf("%s: conditions %q name the drivers' own synchronous level: %v", s.ID, studyConditions(p), got)
		}
		if want, _ := servers.ParseProfile(s.Plan.Profile); cfg.Profile != want {
			t.Errorf("%s: profile %q, want %q", s.ID, cfg.Profile, want)
		}
		gaps := map[string]string{}
		for _, g := range p.Gaps {
			gaps[g.What] = g.Why
		}
		for _, id := range s.Workloads() {
			if !slices.Contains(cfg.Workloads, id) && gaps["workload "+id] == "" {
				t.Errorf("%s: workload %s neither planned nor named as missing", s.ID, id)
			}
		}
		for _, name := range s.Targets() {
			build := slices.ContainsFunc(cfg.Targets, func(el string) bool { return strings.HasPrefix(el, name+"@") })
			if !slices.Contains(cfg.Targets, name) && !build && gaps["target "+name] == "" {
				t.Errorf("%s: target %s neither planned nor named as unavailable", s.ID, name)
			}
		}
		if slices.Contains(s.Targets(), "sqinn") && !strings.Contains(gaps["target sqinn"], "sqinn program") {
			t.Errorf("%s: sqinn without its program not named: %v", s.ID, gaps)
		}
		if !p.Runnable() {
			t.Logf("%s: nothing runnable in this build (gaps %v)", s.ID, gaps)
		}
	}
}

func TestPlanOptions(t *testing.T) {
	p, err := newStudyPlan(studyOptions{Study: "mariadb-tcp-http", Quick: true}, machine())
	if err != nil {
		t.Fatal(err)
	}
	c := p.Config
	if c.Scale != session.QuickScale || !c.Smoke || c.Count != session.QuickCount || c.Profile != servers.ProfileSeed ||
		!slices.Equal(c.CPUs, []int{2, 4, 8}) || !slices.Equal(c.Nets, []string{"tcp"}) {
		t.Errorf("quick mariadb-tcp-http config %+v", c)
	}
	if !slices.Contains(c.DBs, "loopback") || !slices.Contains(c.DBs, "mariadb") {
		t.Errorf("DBs %v, want mariadb and the loopback floor", c.DBs)
	}
	// --quick without --count: budgeted with the quick design; without
	// --quick, twice the fixed design and the default looks; --count: fixed.
	if c.BudgetTimes != session.QuickBudgetTimes || c.Looks != session.QuickLooks || c.Budget != 0 {
		t.Errorf("quick budget %g × with %d looks, want %g × with %d", c.BudgetTimes, c.Looks,
			session.QuickBudgetTimes, session.QuickLooks)
	}
	for _, o := range []studyOptions{{Study: "mariadb-tcp-http"}, {Study: "mariadb-tcp-http", Quick: true, Count: 5},
		{Study: "mariadb-tcp-http", Quick: true, Scale: 0.1}} {
		p, err := newStudyPlan(o, machine())
		if err != nil {
			t.Fatal(err)
		}
		want := session.DefaultBudgetTimes
		if o.Count > 0 {
			want = 0
		}
		if c := p.Config; c.BudgetTimes != want || c.Looks != 0 || (o.Count > 0 && c.Count != o.Count) {
			t.Errorf("%+v: budget %g × with %d looks, count %d; want %g ×, the default looks", o, c.BudgetTimes,
				c.Looks, c.Count, want)
		}
	}
	p, err = newStudyPlan(studyOptions{Study: "sqinn-go", Quick: true, Scale: 1, Count: 2}, machine())
	if err != nil || p.Config.Scale != 1 || p.Config.Smoke || p.Config.Count != 2 {
		t.Errorf("--scale 1 --count 2 not taken: %+v, %v", p.Config, err)
	}
	// The SQL-Benchmark studies' Java program ran cold: so do their JDBC
	// studyCells, unless --jit-warmup.
	p, err = newStudyPlan(studyOptions{Study: "sqlbench-2013-osx", Quick: true}, machine())
	if err != nil || !p.Config.ColdJVM || !slices.Contains(p.Config.Targets, "jdbc-mysql") ||
		!strings.Contains(studyConditions(p), "JDBC in a cold JVM") {
		t.Errorf("sqlbench-2013-osx: cold JVM %v, targets %v, studyConditions %q, %v", p.Config.ColdJVM,
			p.Config.Targets, studyConditions(p), err)
	}
	p, err = newStudyPlan(studyOptions{Study: "sqlbench-2013-osx", JITWarmup: true}, machine())
	if err != nil || p.Config.ColdJVM || strings.Contains(studyConditions(p), "cold JVM") {
		t.Errorf("sqlbench-2013-osx --jit-warmup: cold JVM %v, studyConditions %q, %v", p.Config.ColdJVM,
			studyConditions(p), err)
	}
	var ie session.InputError
	if _, err := newStudyPlan(studyOptions{Study: "nosuch"}, machine()); !errors.As(err, &ie) {
		t.Errorf("unknown study: %v, want an InputError", err)
	}
}

// TestPlanRunsOnlyTheComparedCells: the dbi-2023 study compared lib/pq on
// COPY only, gosqlite on the prepared insert only.
func TestPlanRunsOnlyTheComparedCells(t *testing.T) {
	p, err := newStudyPlan(studyOptions{Study: "dbi-2023"}, machine())
	if err != nil {
		t.Fatal(err)
	}
	c := p.Config
	for _, x := range []struct {
		target, id string
		runs       bool
	}{
		{"pq", "BulkInsert/shape=16x32/path=copy/args=bytes", true},
		{"pq", "BulkInsert/shape=16x32/path=prepared/args=bytes", false},
		{"eatonphil", "BulkInsert/shape=3x8/path=prepared/args=bytes", true},
		{"eatonphil", "BulkInsert/shape=3x8/path=copy/args=bytes", false},
		// a target the study does not name is not limited
		{"modernc", "BulkInsert/shape=3x8/path=copy/args=bytes", true},
	} {
		if got := c.Runs(x.target, x.id); got != x.runs {
			t.Errorf("Runs(%s, %s) = %v, want %v", x.target, x.id, got, x.runs)
		}
	}
}

// TestTCPSendPiecesOutlastTheWakeUp: a send answers nothing, and a timed
// piece of a few hundred or thousand sends costs more a send than the
// published program's 60 s runs (likely the sink's wake-up). Every plan that sends small messages (up to 8 KB) —
// each study's, quick and at its own scale, and sqlbench run's quick and
// default — must time at least floor.TCPSendPiece of them per slice. At the
// catalogue's quick scale a 9-byte run was 200 sends, 40 a slice, which
// gave 4-9 µs a send where the published program gives 1.3-2.2 µs here.
func TestTCPSendPiecesOutlastTheWakeUp(t *testing.T) {
	var cfgs []session.Config
	for _, s := range studies.All() {
		for _, quick := range []bool{false, true} {
			p, err := newStudyPlan(studyOptions{Study: s.ID, Quick: quick}, machine())
			if err != nil {
				t.Fatalf("%s: %v", s.ID, err)
			}
			cfgs = append(cfgs, p.Config)
		}
	}
	run := *session.Defaults()
	quick := run
	quick.Scale, quick.Smoke, quick.Slices = session.QuickScale, true, session.QuickSlices
	cfgs = append(cfgs, run, quick)
	checked := 0
	for _, cfg := range cfgs {
		for _, w := range bench.Workloads() {
			if w.Name != "TCPSend" || !w.PlannedAt(cfg.ScaleOf(w)) ||
				(cfg.Study != "" && !slices.Contains(cfg.Workloads, w.ID())) {
				continue
			}
			var size int
			if _, err := fmt.Sscanf(w.Keys, "size=%d", &size); err != nil {
				t.Fatalf("%s: %v", w.ID(), err)
			}
			if size > 8<<10 {
				continue
			}
			checked++
			if per := w.OpsAt(cfg.ScaleOf(w)) / max(cfg.Slices, 1); per < floor.TCPSendPiece {
				t.Errorf("study %q, scale %g, smoke %v: %s times %d sends a slice, want at least %d",
					cfg.Study, cfg.Scale, cfg.Smoke, w.ID(), per, floor.TCPSendPiece)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no plan sends small messages: the test checks nothing")
	}
}

// TestReproduceResolution: reproduce's --resolution is the band its
// published verdicts use, and the table's note names it; without it the
// cross-machine default.
func TestReproduceResolution(t *testing.T) {
	for _, c := range []struct {
		res  float64
		want string
	}{{0.1, "the resolution ±10%"}, {0, "the resolution ±30%"}} {
		p, err := newStudyPlan(studyOptions{Study: "sqinn-go", Quick: true, Resolution: c.res}, machine())
		if err != nil {
			t.Fatal(err)
		}
		tbl := studyTable(p, nil)
		if p.Config.StudyResolution != c.res || tbl.Resolution != c.res {
			t.Errorf("--resolution %g: config %g, table %g", c.res, p.Config.StudyResolution, tbl.Resolution)
		}
		var b strings.Builder
		if err := printStudy(&b, p, tbl, ""); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), c.want) {
			t.Errorf("--resolution %g: the table does not say %q:\n%s", c.res, c.want, b.String())
		}
	}
}
