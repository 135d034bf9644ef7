package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/drift"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/journal"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/published"
	"github.com/sqlbench/sqlbench/internal/redact"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/textlayout"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// ErrNoTarget is returned when no target of the plan could run here (the
// reasons are in Outcome.Skipped and were logged).
var ErrNoTarget = errors.New("no target can run (see the reasons above)")

// Outcome is what a session did.
type Outcome struct {
	// Plan is the plan the session ran, with every target skipped on the
	// way and why.
	Plan *Plan
	// Results is the results file; Runs the results written to it, also
	// kept in Done.
	Results string
	Runs    int
	Done    []*benchfmt.Result
	// Baseline is the session's Config.Baseline (a resumed session's
	// from its journal): the ratio tables' baseline.
	Baseline string
	// Resolution is the session's Config.Resolution: the ratio
	// comparisons' (report.Report.Resolution).
	Resolution float64
	// Failed lists the cells that failed, in the order they failed, with
	// the reason (passwords redacted).
	Failed []report.Failure
	// Steal is the share of CPU time the hypervisor gave other guests
	// during the session; StealKnown is set when it could be read.
	Steal      float64
	StealKnown bool
	// Drift is the machine's own drift over the session's passes (nil when
	// it could not be measured); DriftPinned is set when the probe ran on
	// the runner's CPUs.
	Drift       *drift.Floor
	DriftPinned bool
	// Wake is what the wake-up probes timed before the passes (nil when
	// no pass was timed), over WakePasses passes.
	Wake       *wake.Reading
	WakePasses int
	// IdleLow is set when the session held the CPUs out of deep idle
	// (Config.IdleLatency low, or auto where it could).
	IdleLow bool
	// IdleKept says why a session asked for IdleAuto kept the kernel's
	// default idle regime ("" when it held the CPUs out of deep idle or
	// was not asked to).
	IdleKept string
	// CPUShort, when set, says that some cells needed more CPUs than the
	// placement gave them (see cpuShortfall).
	CPUShort string
	// Report is the session's report, built once from Done and Failed when
	// the session ends: written beside Results as Reports, and what the
	// caller prints (its text width is the caller's to set).
	Report *report.Report
	// Reports are the Markdown and HTML reports written beside Results.
	Reports []string
	// Journal is the session's journal when it did not finish (an
	// interrupt, a failure of the machine): sqlbench run --resume finishes
	// it. Empty when the session finished (its journal is removed).
	Journal string
	// Scheduled is set once the schedule started: from then on the
	// Outcome has results (or failures) to show, even if ctx was
	// cancelled.
	Scheduled bool
	// Spent is what a budgeted session (Config.Budget) spent and decided;
	// nil for a fixed design.
	Spent *Spent
}

// Partial reports whether something planned did not run: a cell failed,
// a named target was skipped, or a target could not be set up.
func (o *Outcome) Partial() bool {
	return len(o.Failed) > 0 || o.Plan != nil && (o.Plan.FailedSetup || o.Plan.Explicit && len(o.Plan.Skipped) > 0)
}

// Session is one benchmark session, from its plan to its report: its
// Config, the plan, the databases, the connections to its runners, the
// results file and the journal. Run makes one and runs its steps.
type Session struct {
	cfg *Config
	env Host
	out *Outcome

	// The plan, and what a resumed session takes from its journal.
	p      *Plan
	resume *resumed
	given  map[bench.DB]bench.Endpoint // the user's servers, checked
	// The results file; started is set once the header is written.
	results *benchfile.Writer
	started bool
	// The machine: CPU placement, the temp dir of the SQLite files, the
	// databases and the passwords no line logged may show.
	placement pin.Layout
	tmp       string
	dbs       *dbSet
	secrets   []string
	// The runners: their command lines by group, where they were built
	// from, what each declared (hello) and its targets' info lines.
	bins     map[string][]string
	origin   string
	built    time.Duration                // the time building runners took (none when the cache had them)
	variants map[string]launcher.Resolved // the variant targets, resolved
	link     *link.Emulator               // the emulated link (--link), or nil
	declared map[string]protocol.Hello
	info     []string
	// id begins the scope of every cell (NewID); began is when Run was
	// called.
	id    string
	began time.Time
	// The run: the steps, the journal and the slices it replays.
	steps   []Step
	journal *journal.Writer
	replay  map[SliceKey]Slice
	seq     *sequential // a budgeted session's design and looks, or nil
	// Connections to the runners by group, and the loop's state.
	dial    func(ctx context.Context, group string) (launcher.Conn, error)
	conns   map[string]launcher.Conn
	scopes  map[string]string    // cell name -> scope
	sums    map[SliceKey]*runSum // by cell and run: the slices so far
	failed  map[string]error     // by cell name
	display *progress.Display
	machine *drift.Recorder
	wakes   *wake.Recorder
	// cleanups undo what the steps set up, last first.
	cleanups []func()
}

// Run runs the session cfg describes and returns what it did. Problems
// with the input are InputErrors; a cancelled ctx ends the session early,
// keeping every finished result in the results file. The Outcome is valid
// (as far as the session got) whatever the error. A resumed session
// (cfg.Resume) replaces *cfg with the journal's.
func Run(ctx context.Context, cfg *Config, env Host) (*Outcome, error) {
	s := &Session{cfg: cfg, env: env, out: &Outcome{}, began: time.Now()}
	defer s.cleanup()
	err := s.run(ctx)
	return s.out, err
}

// run is the session, step by step.
func (s *Session) run(ctx context.Context) error {
	for _, step := range []func(context.Context) error{
		s.plan,    // targets, workloads, DSNs checked, the results file created
		s.open,    // temp dir, databases (throwaway servers started)
		s.build,   // runners built, the session id chosen
		s.declare, // each runner's hello and its targets' info lines
		s.header,  // the results file's header
		s.loop,    // the interleaved schedule, result by result
	} {
		if err := step(ctx); err != nil { // a cancelled ctx too, from the step that saw it
			return s.report(err)
		}
	}
	return s.report(nil)
}

// defer adds f to what the session undoes when it ends.
func (s *Session) deferred(f func()) { s.cleanups = append(s.cleanups, f) }

// cleanup undoes what the steps set up, last first.
func (s *Session) cleanup() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
	s.cleanups = nil
}

// plan resolves the plan (from the journal of a resumed session), checks
// every user DSN and creates the results file: an unwritable path fails
// before any server starts or benchmark runs.
func (s *Session) plan(ctx context.Context) error {
	cfg, env := s.cfg, s.env
	if cfg.Resume != "" {
		var err error
		if s.resume, err = loadResume(cfg, env); err != nil {
			return err
		}
		s.replay = s.resume.replay
	}
	s.planDesign()
	s.out.Baseline, s.out.Resolution = cfg.Baseline, cfg.Resolution
	scriptTimeout(cfg)
	p, err := NewPlan(cfg, env)
	if err != nil {
		return err
	}
	s.p, s.out.Plan = p, p
	if len(p.Later) > 0 {
		fmt.Fprintf(env.Log, "not planned at --scale %g (too big for a smaller run; use --scale 1): %s\n", cfg.Scale,
			strings.Join(p.Later, ", "))
	}
	if err := checkLink(cfg, p, env.Log); err != nil {
		return err
	}
	if s.variants, err = resolveVariants(ctx, p, cfg.VariantWith); err != nil {
		return err
	}
	if s.given, err = checkDSNs(p, cfg.AllowRemote); err != nil {
		return err
	}
	if s.results, err = createResults(cfg, env.Dir); err != nil {
		return err
	}
	s.deferred(func() {
		if !s.started {
			s.results.Discard() // nothing ran: leave no empty results file
		}
	})
	s.out.Results = s.results.Name()
	return nil
}

// open readies the machine and the databases: the CPUs' idle regime, the
// profile directory, what killed sessions left, the temp dir of the
// SQLite files, the servers (given or started). From here on every line
// logged is scrubbed of server passwords.
func (s *Session) open(ctx context.Context) error {
	cfg, env := s.cfg, s.env
	s.deferred(useServers(env.ServerState, s.p.DSNs))
	if cfg.IdleLatency == IdleLow || cfg.IdleLatency == IdleAuto {
		// Held until the session returns; the kernel drops it at the
		// process's end too, however it ends.
		hold, err := wake.HoldIdleLatency(cmp.Or(env.DMALatency, wake.DMALatencyPath), 0)
		switch {
		case err == nil:
			s.deferred(func() { hold.Release() })
			cfg.IdleLatency, s.out.IdleLow = IdleLow, true
		case cfg.IdleLatency == IdleLow:
			return inputf("--idle-latency low: %v", err)
		default:
			cfg.IdleLatency = ""
			s.out.IdleKept = fmt.Sprintf("the kernel's default regime kept (auto: %v)", err)
			fmt.Fprint(env.Log, textlayout.Wrap("idle-latency: "+s.out.IdleKept, textlayout.Width, "  "))
		}
	}
	if cfg.CPUProfile != "" {
		if err := os.MkdirAll(cfg.CPUProfile, 0o755); err != nil {
			return inputf("--cpuprofile: %v", err)
		}
	}
	// What killed sessions left goes before this session adds its own:
	// temp dirs, throwaway servers with their data dirs and shared memory.
	sweepTemp(env.Log)
	if _, err := servers.Sweep(env.Log); err != nil {
		fmt.Fprintln(env.Log, "sqlbench:", err) // worth a line, not a failed session
	}
	if _, err := link.Sweep(env.Log); err != nil {
		fmt.Fprintln(env.Log, "sqlbench:", err)
	}
	var err error
	if s.tmp, err = makeTemp(); err != nil {
		return err
	}
	s.deferred(func() { os.RemoveAll(s.tmp) }) // the SQLite databases; also on Ctrl-C
	s.placement = pin.Local(cfg.Pin)
	s.dbs, err = openDatabases(ctx, s.p, cfg, s.given, s.placement, s.tmp, env.Log)
	log := env.Log // the servers' stop is logged past the scrubbing writer's flush
	s.deferred(func() { s.dbs.stop(log) })
	if err != nil {
		return err
	}
	if s.link, err = startLink(ctx, cfg, s.dbs, env.Log); s.link != nil {
		em := s.link
		s.deferred(func() { em.Stop() })
	}
	if err != nil {
		return err
	}
	s.secrets = s.dbs.secrets()
	scrubbed := redact.NewWriter(env.Log, s.secrets)
	s.deferred(func() { scrubbed.Flush() })
	s.env.Log = scrubbed
	return nil
}

// build builds one runner per group and chooses the session's id: a
// resumed session keeps its own, after dropping the tables it left.
func (s *Session) build(ctx context.Context) error {
	s.bins, s.origin, s.built = buildRunners(ctx, s.cfg, s.p, s.variants, s.env.Dir, s.env.Log, s.env.LogTTY)
	if s.dial == nil {
		s.dial = s.startRunner
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	if s.resume != nil {
		s.id, err = s.resume.id, dropSessionTables(ctx, s.p, s.resume.id, s.env, "by the interrupted session")
	} else {
		s.id, err = freshID(ctx, s.p)
	}
	if err != nil {
		return err
	}
	s.deferred(func() { sweepTables(s.p, s.id, s.env) }) // after the runners are gone
	s.deferred(s.closeRunners)
	return nil
}

// startRunner starts the runner of group, pinned to the runner's CPUs.
func (s *Session) startRunner(ctx context.Context, group string) (launcher.Conn, error) {
	cmd, ok := s.bins[group]
	if !ok {
		return nil, fmt.Errorf("no runner was built for group %s", group)
	}
	if s.cfg.Measure == MeasureInstructions { // JDBC targets were skipped
		proc, err := launcher.StartCounting(s.tmp, cmd[0], cmd[1:]...)
		if err == nil {
			err = pin.Process(proc.Pid(), s.placement.Runner)
		}
		return proc, err
	}
	proc, err := launcher.Start(cmd[0], cmd[1:]...)
	if err == nil {
		proc.Progress = s.printProgress
		err = pin.Process(proc.Pid(), s.placement.Runner)
	}
	return proc, err
}

// printProgress prints an interval of an open-loop run (run --progress) as
// its runner sends it, during the run.
func (s *Session) printProgress(line string) {
	fmt.Fprintln(s.env.Log, "progress:", strings.TrimPrefix(line, protocol.ProgressKey+": "))
}

// declare drops the targets that cannot reach their database over any
// transport of the session, asks every runner what it implements (hello:
// the cells come from that) and for its targets' configuration lines,
// dropping the targets whose runner does not declare them as the catalogue
// does, runs none of the workloads or cannot answer, and logs every skip.
func (s *Session) declare(ctx context.Context) error {
	p, dbs := s.p, s.dbs
	for _, t := range slices.Clone(p.Runnable) {
		if len(dbs.netsFor(t)) == 0 {
			p.skip(t.Name, fmt.Sprintf("runs over %s only, not over --net %s", strings.Join(t.Nets, ", "),
				strings.Join(dbs.nets(t.DB), ",")), false)
		}
	}
	declared, undeclared := s.declarations(ctx, p.Workloads, p.Runnable)
	if err := ctx.Err(); err != nil {
		return err
	}
	s.declared = declared
	for name, err := range undeclared {
		p.skip(name, err.Error(), !errors.Is(err, ErrRunsNone))
	}
	info, skipped := s.targetInfo(ctx, p.Runnable)
	if err := ctx.Err(); err != nil {
		return err
	}
	for name, err := range skipped {
		p.skip(name, "cannot open: "+err.Error(), true)
	}
	logSkips(s.env.Log, p)
	if len(p.Runnable) == 0 {
		return ErrNoTarget
	}
	if err := s.checkScripts(ctx); err != nil {
		return err
	}
	s.info = append(info, "runner-source: "+s.origin,
		benchfile.KeyRunnerBuild+": "+s.built.Round(time.Millisecond).String())
	for _, kv := range variantLines(s.variants) {
		s.info = append(s.info, kv[0]+": "+kv[1])
	}
	return nil
}

// header writes the results file's header; a resumed session's results
// file then takes the place of the interrupted one's.
func (s *Session) header(ctx context.Context) error {
	if s.out.IdleKept != "" {
		s.results.SetConfig(benchfile.KeyIdleLatencyAuto, s.out.IdleKept)
	}
	if err := writeHeader(ctx, s.results, s.cfg, s.p, s.info, s.dbs, s.placement, s.id, s.began); err != nil {
		return err
	}
	s.designLines()
	if s.resume != nil {
		if err := s.results.Rename(s.cfg.Out); err != nil {
			return err
		}
		s.out.Results = s.results.Name()
	}
	s.started = true
	return nil
}

// report closes the results file, builds the session's report once (into
// Outcome.Report, for the caller to print as it is) and writes it as
// Markdown and HTML beside the results; err is the error the session ended
// with, returned unless it is nil and closing or reporting fails.
func (s *Session) report(err error) error {
	for i := range s.out.Failed {
		s.out.Failed[i].Reason = redact.Secrets(s.out.Failed[i].Reason, s.secrets...)
	}
	r := report.New(s.out.Done, s.out.Failed, WorkloadInfo)
	r.Baseline, r.Resolution, r.StudyResolution = s.cfg.Baseline, s.cfg.Resolution, s.cfg.StudyResolution
	r.Parts = published.Parts(r)
	s.out.Report = r
	if !s.started {
		return err
	}
	benchfile.Header{Finished: time.Now()}.WriteFinished(s.results)
	linkCPU(s.link, s.results)
	if cerr := s.results.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if len(s.out.Done) > 0 {
		name := s.results.Name()
		r.Sources = []string{filepath.Base(name)}
		prefix := strings.TrimSuffix(name, filepath.Ext(name))
		written, werr := report.WriteFiles(r, prefix, []string{"markdown", "html"})
		s.out.Reports = written
		if werr != nil && err == nil {
			err = werr
		}
	}
	return err
}

// createResults creates the session's results file: cfg.Out, or a name of
// its own under dir/results. An existing Out is refused unless cfg.Force:
// a session never overwrites results by accident.
func createResults(cfg *Config, dir string) (*benchfile.Writer, error) {
	path, mode := cfg.Out, benchfile.Exclusive
	switch {
	case path == "":
		path = filepath.Join(dir, "results", "sqlbench-"+time.Now().Format("20060102-150405")+".txt")
		mode = benchfile.Unique
	case cfg.Resume != "":
		// The interrupted session's results stay as they are until the
		// resumed one has started: it writes beside them, then takes
		// their place (startResults).
		path, mode = resumingName(cfg.Out), benchfile.Overwrite
	case cfg.Force:
		mode = benchfile.Overwrite
	}
	w, err := benchfile.Create(path, mode)
	if errors.Is(err, benchfile.ErrExists) {
		return nil, inputf("%v: pass --force to overwrite it, or another -o", err)
	}
	if err != nil {
		return nil, InputError{err.Error()}
	}
	return w, nil
}

// resumingName is where a resumed session writes its results until it has
// started.
func resumingName(results string) string { return results + ".resuming" }

// DSNEnv names the environment variable that gives db's DSN.
func DSNEnv(db bench.DB) string { return dsn.EnvVar(db) }

// tablePrefix is how every table of session id begins.
func tablePrefix(id string) string { return "sqlbench_" + id + "c" }

// freshID returns a new session id that no table in the user's databases
// (given by DSN) begins with, so that every table of that prefix found
// later is this session's own: sqlbench drops no table it did not create.
func freshID(ctx context.Context, p *Plan) (string, error) {
	for range 5 {
		id, taken := NewID(), false
		for db, d := range p.DSNs {
			names, err := dsn.Tables(ctx, db, d, tablePrefix(id))
			if err != nil {
				return "", fmt.Errorf("list the tables of the %s database: %w", db, err)
			}
			spaces, err := dsn.Namespaces(ctx, db, d, tablePrefix(id))
			if err != nil {
				return "", fmt.Errorf("list the schemas or databases of the %s server: %w", db, err)
			}
			taken = taken || len(names) > 0 || len(spaces) > 0
		}
		if !taken {
			return id, nil
		}
	}
	return "", errors.New("five random session ids were all taken by tables in the given databases")
}

// sweepTables drops what the session's cells left in the user's databases
// (given by DSN): the tables of a cell whose runner was killed (a time-out,
// a crash, Ctrl-C) before it could drop them.
func sweepTables(p *Plan, id string, env Host) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := dropSessionTables(ctx, p, id, env, "by interrupted cells"); err != nil {
		fmt.Fprintf(env.Log,
			"sqlbench: could not drop this session's tables (sqlbench clean --session %s drops them): %v\n", id, err)
	}
}

// dropSessionTables drops the tables of session id in every user database
// of the plan and logs which, as left by whom; it goes on past a database
// that fails and returns the first error.
func dropSessionTables(ctx context.Context, p *Plan, id string, env Host, whom string) error {
	var first error
	for db, d := range p.DSNs {
		names, err := DropTables(ctx, db, d, id, true) // checked at the start
		if err != nil {
			first = cmp.Or(first, fmt.Errorf("the %s database: %w", db, err))
		} else if len(names) > 0 {
			fmt.Fprintf(env.Log, "dropped %d table(s) left in the %s database %s: %s\n", len(names), db, whom,
				strings.Join(names, ", "))
		}
	}
	return first
}

// DropTables drops the tables session id created in the database of a
// user's DSN and returns their names: only tables of the session's prefix,
// which the session made sure were none before it began, so no table
// sqlbench did not create is ever dropped.
func DropTables(ctx context.Context, db bench.DB, d, id string, allowRemote bool) ([]string, error) {
	if !ValidID(id) {
		return nil, inputf(
			"%q is not a session id (six lower-case letters and digits, as the results file's session-id line has)", id)
	}
	e, err := dsn.Parse(db, d)
	if err == nil {
		err = dsn.CheckLocal(db, e, allowRemote)
	}
	if err == nil {
		err = dsn.Reach(db, e)
	}
	if err != nil {
		return nil, InputError{err.Error()}
	}
	names, err := dsn.Tables(ctx, db, d, tablePrefix(id))
	if err == nil {
		err = dsn.Drop(ctx, db, d, names)
	}
	if err == nil {
		// A script workload's cells' own schemas or databases.
		var spaces []string
		if spaces, err = dsn.Namespaces(ctx, db, d, tablePrefix(id)); err == nil {
			err = dsn.DropNamespaces(ctx, db, d, spaces)
			names = append(names, spaces...)
		}
	}
	return names, err
}

// WorkloadInfo tells a report the family, unit and catalogue rank of the
// workloads registered in this binary, by benchmark name (keyed siblings
// share them).
func WorkloadInfo(name string) (report.WorkloadInfo, bool) {
	for i, w := range bench.Workloads() {
		if w.Name == name {
			return report.WorkloadInfo{Family: w.Family, Unit: w.Unit, Spread: w.Spread, Rank: i}, true
		}
	}
	if name == script.WorkloadName { // built from the user's files, not registered
		return report.WorkloadInfo{Family: script.Family, Unit: script.Unit, Rank: len(bench.Workloads())}, true
	}
	return report.WorkloadInfo{}, false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cpusFor returns the GOMAXPROCS values target t's cells run with: the
// session's --cpu values for a Go runner, else one cell with none (0).
func cpusFor(cfg *Config, t targets.Spec) []int {
	if len(cfg.CPUs) == 0 || t.JVM {
		return []int{0}
	}
	return cfg.CPUs
}
