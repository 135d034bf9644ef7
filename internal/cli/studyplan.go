package cli

// sqlbench reproduce runs a published study (package studies) here: it
// turns the study's plan into a session.Config — its targets, workloads and
// conditions, less what cannot run here, each named with the reason — runs
// it through internal/session like sqlbench run, and sets the study's
// published ratios beside the measured ones (published.For).

import (
	"fmt"
	"slices"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/targets"
)

// studyOptions are what the front end asks of a reproduction.
type studyOptions struct {
	// Study is the study's ID.
	Study string
	// Quick runs at smoke size (session.QuickScale, QuickCount,
	// QuickSlices) unless Scale or Count are given.
	Quick bool
	// Scale and Count, when above 0, replace the study's default scale and
	// run count; Scale 1 is the published size. Without Count the session
	// is budgeted (session.DefaultBudgetTimes × the fixed design's time;
	// with Quick at its own scale, session.QuickBudgetTimes and
	// session.QuickLooks).
	Scale float64
	Count int
	// JITWarmup gives the JDBC runners their JIT warm-up in a study whose
	// published programs ran cold (session.Config.ColdJVM), which
	// otherwise run cold too.
	JITWarmup bool
	// Out, Force, Cache, DSNs, AllowRemote and Command are as in
	// session.Config.
	Out         string
	Force       bool
	Cache       string
	DSNs        map[bench.DB]string
	AllowRemote bool
	Command     []string
	// LockThread locks each Go cell's timing goroutine to its OS thread so
	// that the run's time is divided (session.ThreadLocked). The
	// published programs ran their goroutines unlocked, which is the
	// default here.
	LockThread bool
	// NoPreceding leaves out the replay of the tests a cell's published
	// program ran before it (--preceding-tests none).
	NoPreceding bool
	// IdleLatency is the CPUs' idle regime (session.Config.IdleLatency):
	// "" leaves it to the kernel, session.IdleLow holds the CPUs out of
	// deep idle for the session, session.IdleAuto where it can.
	IdleLatency string
	// Resolution is the band about each published ratio within which the
	// measured one agrees (session.Config.StudyResolution; 0 takes
	// published.CrossMachineTolerance).
	Resolution float64
	// AsPublished runs each driver at the version current when the study
	// was published (studies.Study.Period), where it can be had here.
	AsPublished bool
	// JDBCPreparedExec, when set ("with-sql" or "plain"), replaces the
	// study's choice of the JDBC runner's PreparedExec call.
	JDBCPreparedExec string
	// BundledSQLite runs the SQLite drivers on the SQLite each bundles,
	// without the study's builds to one SQLite version (Plan.Builds).
	BundledSQLite bool
}

// studyPlan is a study's reproduction on this machine.
type studyPlan struct {
	Study *studies.Study
	// Config is the session that reproduces it.
	Config session.Config
	// Gaps are the parts of the study that will not run here, with the
	// reason: the study's own (other versions, another OS) and this
	// build's and machine's (a workload not in this build, a target whose
	// driver or helper program is missing).
	Gaps []studies.Gap
	// Builds are the targets run as other builds than the catalogue's:
	// the period versions (--versions published) and the study's own builds.
	Builds []periodTarget
	// cache is the runner cache the copies are prepared in; bundled
	// leaves the study's own builds out (--bundled-sqlite).
	cache   string
	bundled bool
}

// Runnable reports whether anything of the study can run here.
func (p *studyPlan) Runnable() bool {
	return len(p.Config.Targets) > 0 && len(p.Config.Workloads) > 0
}

// newStudyPlan plans the reproduction opts asks for. An unknown study is a
// session.InputError.
func newStudyPlan(opts studyOptions, env session.Host) (*studyPlan, error) {
	s, ok := studies.Lookup(opts.Study)
	if !ok {
		return nil, session.InputError{Msg: studies.UnknownError(opts.Study).Error()}
	}
	profile, err := servers.ParseProfile(s.Plan.Profile)
	if err != nil {
		return nil, fmt.Errorf("study %s: %w", s.ID, err)
	}
	sqlite := bench.DefaultSQLiteSettings()
	if s.Plan.SQLiteSync != "" {
		if sqlite.Sync, err = bench.ParseSQLiteSync(s.Plan.SQLiteSync); err != nil {
			return nil, fmt.Errorf("study %s: %w", s.ID, err)
		}
	}
	p := &studyPlan{Study: s, cache: opts.Cache, bundled: opts.BundledSQLite}
	for _, g := range s.Unavailable {
		if !opts.AsPublished || !g.Versions {
			p.Gaps = append(p.Gaps, g) // the versions' gap: the period versions' lines instead
		}
	}
	cfg := session.Config{
		Count: s.Plan.Count, Slices: s.Plan.Slices, Scale: s.Plan.Scale, Warmup: s.Plan.Warmup,
		Timeout: session.DefaultTimeout, Pin: session.DefaultPin, Profile: profile,
		Nets: s.Plan.Nets, CPUs: s.CPUs(), Study: s.ID, ColdJVM: s.Plan.Warmup == 0 && !opts.JITWarmup,
		Out: opts.Out, Force: opts.Force, Cache: opts.Cache, DSNs: opts.DSNs, AllowRemote: opts.AllowRemote,
		Command: opts.Command, TimingThread: session.ThreadFree, IdleLatency: opts.IdleLatency, SQLite: sqlite,
	}
	if opts.LockThread {
		cfg.TimingThread = session.ThreadLocked
	}
	cfg.NoPreceding = opts.NoPreceding
	cfg.JDBCPreparedExecSQL = s.Plan.JDBCPreparedExec == preparedExecWithSQL
	if opts.JDBCPreparedExec != "" {
		cfg.JDBCPreparedExecSQL = opts.JDBCPreparedExec == preparedExecWithSQL
	}
	if len(cfg.Nets) == 0 {
		cfg.Nets = []string{"tcp", "unix"}
	}
	if opts.Quick {
		cfg.Scale, cfg.Smoke, cfg.Count, cfg.Slices = session.QuickScale, true, session.QuickCount, session.QuickSlices
	}
	if opts.Scale > 0 {
		cfg.Scale, cfg.Smoke = opts.Scale, false
	}
	switch {
	case opts.Count > 0:
		cfg.Count = opts.Count
	case cfg.Smoke: // --quick at smoke size: more looks and time, still minutes (session.QuickBudgetTimes)
		cfg.BudgetTimes, cfg.Looks = session.QuickBudgetTimes, session.QuickLooks
	default: // budgeted: twice the study's fixed design, spent on the comparisons still undecided
		cfg.BudgetTimes = session.DefaultBudgetTimes
	}
	cfg.StudyResolution = opts.Resolution
	for _, id := range s.Workloads() {
		if _, ok := bench.LookupWorkload(id); !ok {
			p.Gaps = append(p.Gaps, studies.Gap{What: "workload " + id, Why: "not available in this build of sqlbench"})
			continue
		}
		cfg.Workloads = append(cfg.Workloads, id)
	}
	for _, name := range s.Targets() {
		spec, ok := targets.Lookup(name)
		if !ok {
			p.Gaps = append(p.Gaps, studies.Gap{What: "target " + name, Why: "not in this build's catalogue"})
			continue
		}
		if why := session.Unavailable(spec, env); why != "" {
			p.Gaps = append(p.Gaps, studies.Gap{What: "target " + name, Why: why})
			continue
		}
		if !slices.Contains(cfg.DBs, spec.DB) {
			cfg.DBs = append(cfg.DBs, spec.DB)
		}
		cfg.Targets = append(cfg.Targets, name)
	}
	cfg.Cells = studyCells(s)
	p.Config = cfg
	var gaps []studies.Gap
	p.Builds, gaps = planBuilds(s, cfg.Targets, opts.AsPublished, opts.BundledSQLite, opts.Cache)
	p.Gaps = append(p.Gaps, gaps...)
	applyBuilds(p)
	return p, nil
}

// The values of reproduce --jdbc-prepared-exec: the SQL-Benchmark Java
// program's ps.execute(sql), and the JDBC runner's own ps.execute().
const (
	preparedExecWithSQL = "with-sql"
	preparedExecPlain   = "plain"
)

// studyCells returns, by target, the workloads the study compares it on: a
// reproduction runs no cell the study has no figure for.
func studyCells(s *studies.Study) map[string][]string {
	out := map[string][]string{}
	for _, c := range s.Comparisons() {
		for _, side := range []studies.Side{c.Num, c.Den} {
			if id := studies.WorkloadOf(side, c.Test); !slices.Contains(out[side.Target], id) {
				out[side.Target] = append(out[side.Target], id)
			}
		}
	}
	return out
}

// lookupJVM reports whether the target called name runs in the JDBC
// runner.
func lookupJVM(name string) bool {
	spec, ok := targets.Lookup(name)
	return ok && spec.JVM
}
