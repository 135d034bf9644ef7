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
	"github.com/sqlbench/sqlbench/internal/envinfo"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/orchestrate"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/redact"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/report"
	"github.com/sqlbench/sqlbench/runner"
	"github.com/sqlbench/sqlbench/targets"
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
	// (Config.IdleLatency low).
	IdleLow bool
	// CPUShort, when set, says that some cells needed more CPUs than the
	// placement gave them (see cpuShortfall).
	CPUShort string
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
}

// Partial reports whether something planned did not run: a cell failed,
// a named target was skipped, or a target could not be set up.
func (o *Outcome) Partial() bool {
	return len(o.Failed) > 0 || o.Plan != nil && (o.Plan.FailedSetup || o.Plan.Explicit && len(o.Plan.Skipped) > 0)
}

// Run runs the session cfg describes and returns what it did. Problems
// with the input are InputErrors; a cancelled ctx ends the session early,
// keeping every finished result in the results file. The Outcome is valid
// (as far as the session got) whatever the error.
func Run(ctx context.Context, cfg Config, env Env) (*Outcome, error) {
	out := &Outcome{}
	var resume *resumed
	if cfg.Resume != "" {
		var err error
		if resume, err = loadResume(&cfg, env); err != nil {
			return out, err
		}
	}
	out.Baseline = cfg.Baseline
	p, err := NewPlan(&cfg, env)
	if err != nil {
		return out, err
	}
	out.Plan = p
	if len(p.Later) > 0 {
		fmt.Fprintf(env.Log, "not planned at --scale %g (too big for a smaller run; use --scale 1): %s\n", cfg.Scale, strings.Join(p.Later, ", "))
	}
	if err := checkLink(&cfg, p, env.Log); err != nil {
		return out, err
	}
	given, err := checkDSNs(p, cfg.AllowRemote)
	if err != nil {
		return out, err
	}
	// The results file comes next: an unwritable path fails before any
	// server starts or benchmark runs.
	w, err := createResults(&cfg, env.Dir)
	if err != nil {
		return out, err
	}
	started := false
	defer func() {
		if !started {
			w.Discard() // nothing ran: leave no empty results file
		}
	}()
	out.Results = w.Name()
	if cfg.IdleLatency == IdleLow {
		// Held until the session returns; the kernel drops it at the
		// process's end too, however it ends.
		hold, err := wake.HoldIdleLatency(cmp.Or(env.DMALatency, wake.DMALatencyPath), 0)
		if err != nil {
			return out, inputf("--idle-latency low: %v", err)
		}
		defer hold.Release()
		out.IdleLow = true
	}
	if cfg.CPUProfile != "" {
		if err := os.MkdirAll(cfg.CPUProfile, 0o755); err != nil {
			return out, inputf("--cpuprofile: %v", err)
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
	tmp, err := makeTemp()
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(tmp) // the SQLite databases; also on Ctrl-C

	placement := pin.Local(cfg.Pin)
	dbs, err := openDatabases(ctx, p, &cfg, given, placement, tmp, env.Log)
	defer dbs.stop(env.Log)
	if err != nil {
		return out, err
	}
	em, err := startLink(ctx, &cfg, dbs, env.Log)
	if em != nil {
		defer em.Stop()
	}
	if err != nil {
		return out, err
	}
	// From here on every line logged is scrubbed of server passwords.
	secrets := dbs.secrets()
	scrubbed := redact.NewWriter(env.Log, secrets)
	defer scrubbed.Flush()
	env.Log = scrubbed

	bins, origin := buildRunners(ctx, &cfg, p, env.Dir, env.Log)
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	var id string
	if resume != nil {
		id, err = resume.id, dropSessionTables(ctx, p, resume.id, env, "by the interrupted session")
	} else {
		id, err = freshID(ctx, p)
	}
	if err != nil {
		return out, err
	}
	defer sweepTables(p, id, env) // after the runners are gone (defers run last first)
	sess := newSession(&cfg, dbs, bins, placement, id)
	if resume != nil {
		sess.Replay = resume.replay
	}
	defer sess.Close()
	info, declared, err := prepareTargets(ctx, sess, p, dbs, env)
	if err != nil {
		return out, err
	}
	info = append(info, "runner-source: "+origin)
	if err := writeHeader(ctx, w, &cfg, p, info, dbs, placement, sess.ID); err != nil {
		return out, err
	}
	if resume != nil {
		if err := w.Rename(cfg.Out); err != nil {
			return out, err
		}
		out.Results = w.Name()
	}
	started = true
	runErr := runSchedule(ctx, sess, w, &cfg, p, dbs, declared, placement, out, env)
	linkCPU(em, w)
	if err := w.Close(); err != nil && runErr == nil {
		runErr = err
	}
	for i := range out.Failed {
		out.Failed[i].Reason = redact.String(out.Failed[i].Reason, secrets...)
	}
	if len(out.Done) > 0 {
		r := report.New(out.Done, out.Failed, WorkloadInfo)
		r.Sources = []string{filepath.Base(w.Name())}
		r.Baseline = cfg.Baseline
		written, err := report.WriteFiles(r, strings.TrimSuffix(w.Name(), filepath.Ext(w.Name())), []string{"markdown", "html"})
		out.Reports = written
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	return out, runErr
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

// newSession returns the orchestrator of cfg's session: runners started
// from bins and pinned, cells connected to dbs, tables named after id.
func newSession(cfg *Config, dbs *dbSet, bins map[string][]string, placement pin.Plan, id string) *orchestrate.Session {
	return &orchestrate.Session{
		Dial: func(ctx context.Context, group string) (launcher.Conn, error) {
			cmd := bins[group]
			proc, err := launcher.Start(cmd[0], cmd[1:]...)
			if err == nil {
				err = pin.Process(proc.Pid(), placement.Runner)
			}
			return proc, err
		},
		Where: func(c orchestrate.Cell) runner.Location {
			return dbs.location(c.Target, c.Net, c.FileName())
		},
		ScaleOf: cfg.ScaleOf, Warmup: cfg.Warmup, WarmupAll: cfg.WarmupAll, Timeout: cfg.Timeout, SQLite: cfg.SQLite,
		ID: id, ProfileDir: cfg.CPUProfile, TimingThread: cfg.TimingThread,
	}
}

// prepareTargets drops the targets that cannot reach their database over
// any transport of the session, asks every runner what it implements
// (hello: the plan's cells come from that) and for its configuration lines,
// dropping the targets whose runner does not declare them as the catalogue
// does, runs none of the workloads or cannot answer, and logs every skip.
// It returns the configuration lines and the declarations by group.
func prepareTargets(ctx context.Context, sess *orchestrate.Session, p *Plan, dbs *dbSet, env Env) ([]string, map[string]runner.Hello, error) {
	for _, t := range slices.Clone(p.Runnable) {
		if len(dbs.netsFor(t)) == 0 {
			p.skip(t.Name, fmt.Sprintf("runs over %s only, not over --net %s", strings.Join(t.Nets, ", "), strings.Join(dbs.nets(t.DB), ",")), false)
		}
	}
	declared, undeclared := sess.Declarations(ctx, p.Workloads, p.Runnable)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	for name, err := range undeclared {
		p.skip(name, err.Error(), !errors.Is(err, orchestrate.ErrRunsNone))
	}
	info, skipped := sess.Info(ctx, p.Runnable, func(t targets.Spec) runner.Location {
		return dbs.location(t, dbs.netsFor(t)[0], t.Name+"-info")
	})
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	for name, err := range skipped {
		p.skip(name, "cannot open: "+err.Error(), true)
	}
	logSkips(env.Log, p)
	if len(p.Runnable) == 0 {
		return nil, nil, ErrNoTarget
	}
	return info, declared, nil
}

// runSchedule runs every cell of the plan, interleaved, writing each
// result as it finishes, and records in out what happened.
func runSchedule(ctx context.Context, sess *orchestrate.Session, w *benchfile.Writer, cfg *Config, p *Plan, dbs *dbSet, declared map[string]runner.Hello, placement pin.Plan, out *Outcome, env Env) (err error) {
	var places []orchestrate.Placement
	for _, t := range p.Runnable {
		for _, n := range dbs.netsFor(t) {
			for _, cpu := range cpusFor(cfg, t) {
				places = append(places, orchestrate.Placement{Target: t, Net: n, Runner: declared[t.Group], CPU: cpu})
			}
		}
	}
	steps := slices.DeleteFunc(orchestrate.Schedule(p.Workloads, places, cfg.Count, cfg.Slices), func(st orchestrate.Step) bool {
		return !cfg.Runs(st.Cell.Target.Name, st.Cell.Workload.ID())
	})
	runs := map[orchestrate.SliceKey]bool{}
	for _, st := range steps {
		runs[orchestrate.SliceKey{Cell: st.Cell.Name(), Run: st.Run}] = true
	}
	jw, err := openJournal(cfg, sess, w.Name(), len(runs))
	if err != nil {
		return err
	}
	out.Journal = jw.Name()
	defer func() {
		jw.Close()
		if err == nil {
			os.Remove(jw.Name()) // finished: the results file has it all
			out.Journal = ""
		}
	}()
	out.Scheduled = true
	disp := progress.New(env.Log, len(steps), cfg.Count, env.LogTTY)
	sess.Result = func(r *benchfmt.Result) error {
		if err := w.Write(r); err != nil {
			return err
		}
		out.Done = append(out.Done, r)
		return nil
	}
	sess.Progress = disp.Event
	machine := &drift.Recorder{Probe: drift.Probe{CPUs: placement.Runner}, Count: cfg.Count}
	own, partner := wake.CrossCPU()
	wakes := &wake.Recorder{Probe: wake.Probe{CPUs: own, PartnerCPUs: partner}, Count: cfg.Count}
	sess.PassStart = func(p int) {
		machine.Pass(p)
		wakes.Pass(p)
	}
	defer func() {
		// Session facts: comment lines the results file gets on Close.
		for _, f := range wakes.Facts() {
			w.SetConfig(f[0], f[1])
		}
		if wakes.Passes() > 0 {
			rd := wakes.Session()
			out.Wake, out.WakePasses = &rd, wakes.Passes()
		}
	}()
	cpuBefore, cpuErr := envinfo.ReadCPUTimes()
	done, err := sess.Run(ctx, steps)
	disp.Finish()
	sess.Close()
	out.Runs = done.Runs
	for _, name := range done.Order {
		out.Failed = append(out.Failed, report.Failure{Name: name, Reason: oneLine(done.Failed[name].Error())})
	}
	if cpuAfter, e := envinfo.ReadCPUTimes(); e == nil && cpuErr == nil {
		out.Steal, out.StealKnown = cpuAfter.StealSince(cpuBefore), true
	}
	if out.Runs > 0 {
		out.CPUShort = cpuShortfall(p, placement)
	}
	if f, e := machine.Floor(); e == nil {
		out.Drift, out.DriftPinned = &f, len(placement.Runner) > 0
	}
	return err
}

// DSNEnv names the environment variable that gives db's DSN.
func DSNEnv(db bench.DB) string { return dsn.EnvVar(db) }

// tablePrefix is how every table of session id begins.
func tablePrefix(id string) string { return "sqlbench_" + id + "c" }

// freshID returns a new session id that no table in the user's databases
// (given by DSN) begins with, so that every table of that prefix found
// later is this session's own: sqlbench drops no table it did not create.
func freshID(ctx context.Context, p *Plan) (string, error) {
	for range 5 {
		id, taken := orchestrate.NewID(), false
		for db, d := range p.DSNs {
			names, err := dsn.Tables(ctx, db, d, tablePrefix(id))
			if err != nil {
				return "", fmt.Errorf("list the tables of the %s database: %w", db, err)
			}
			taken = taken || len(names) > 0
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
func sweepTables(p *Plan, id string, env Env) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := dropSessionTables(ctx, p, id, env, "by interrupted cells"); err != nil {
		fmt.Fprintf(env.Log, "sqlbench: could not drop this session's tables (sqlbench clean --session %s drops them): %v\n", id, err)
	}
}

// dropSessionTables drops the tables of session id in every user database
// of the plan and logs which, as left by whom; it goes on past a database
// that fails and returns the first error.
func dropSessionTables(ctx context.Context, p *Plan, id string, env Env, whom string) error {
	var first error
	for db, d := range p.DSNs {
		names, err := DropTables(ctx, db, d, id, true) // checked at the start
		if err != nil {
			first = cmp.Or(first, fmt.Errorf("the %s database: %w", db, err))
		} else if len(names) > 0 {
			fmt.Fprintf(env.Log, "dropped %d table(s) left in the %s database %s: %s\n", len(names), db, whom, strings.Join(names, ", "))
		}
	}
	return first
}

// DropTables drops the tables session id created in the database of a
// user's DSN and returns their names: only tables of the session's prefix,
// which the session made sure were none before it began, so no table
// sqlbench did not create is ever dropped.
func DropTables(ctx context.Context, db bench.DB, d, id string, allowRemote bool) ([]string, error) {
	if !orchestrate.ValidID(id) {
		return nil, inputf("%q is not a session id (six lower-case letters and digits, as the results file's session-id line has)", id)
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
