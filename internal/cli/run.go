package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/drift"
	"github.com/sqlbench/sqlbench/internal/envinfo"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/orchestrate"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/progress"
	"github.com/sqlbench/sqlbench/internal/redact"
	"github.com/sqlbench/sqlbench/report"
	"github.com/sqlbench/sqlbench/runner"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/targets"
)

// Defaults of sqlbench run. The default scale keeps the default run near a
// minute and a half on a 2-core machine (one round of the classic suite on
// the six SQLite targets takes about 64 s at scale 1 there); --scale 1 runs
// the published sizes. Twenty slices average each run over twenty moments of
// the session, which the machine's own drift needs (README, "How much noise
// is left"); a smoke run keeps five, for speed.
const (
	defaultCount  = 5
	defaultScale  = 0.2
	defaultWarmup = 0.1
	defaultSlices = 20
	defaultPin    = pin.Same
	quickScale    = 0.01
	quickCount    = 5
	quickSlices   = 5
)

// runOptions are the flags of sqlbench run.
type runOptions struct {
	dbs, targets, workloads, nets string
	count, slices                 int
	scale, warmup                 float64
	quick, allowRemote            bool
	// smoke: --quick without --scale, so that workloads with a smoke scale
	// of their own (bench.Workload.Smoke) run at it.
	smoke                            bool
	timeout                          time.Duration
	out, cache, profileFlag, pinFlag string
	journalFlag, syncFlag            string
	dsns                             listFlag
	// sqlite holds the parsed --sqlite-journal and --sqlite-sync.
	sqlite bench.SQLiteSettings
	// profile and pin are the parsed --profile and --pin.
	profile servers.Profile
	pin     pin.Mode
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func (o *runOptions) parse(args []string, env Env) error {
	fs := newFlags("run")
	fs.StringVar(&o.dbs, "db", "sqlite", "databases to benchmark, comma-separated (sqlite, mariadb, postgres; loopback = the transport floor, raw TCP and HTTP on 127.0.0.1, also planned with mariadb or postgres when the floor workloads are selected)")
	fs.StringVar(&o.targets, "targets", "", "targets to run, comma-separated (default: every target of the databases; see sqlbench list)")
	fs.StringVar(&o.workloads, "workloads", "", "workloads to run, comma-separated: families, names or IDs, or all (default: "+defaultWorkloads+"; see sqlbench list)")
	fs.IntVar(&o.count, "count", defaultCount, "timed runs per cell")
	fs.IntVar(&o.slices, "slices", defaultSlices, "parts each run is made of, spread over the whole session (1 = every run in one piece)")
	fs.Float64Var(&o.scale, "scale", defaultScale, "multiplies every workload's operation count (1 = the published sizes)")
	fs.Float64Var(&o.warmup, "warmup", defaultWarmup, "untimed operations before each run, as a fraction of the run")
	fs.BoolVar(&o.quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads, recorded as smoke-scales) --count %d --slices %d unless given", quickScale, quickCount, quickSlices))
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "longest one run of one cell may take before the cell is failed")
	fs.StringVar(&o.out, "o", "", "results file (default results/sqlbench-<time>.txt)")
	fs.StringVar(&o.cache, "cache", launcher.DefaultCache(), "where built runner binaries are kept")
	fs.Var(&o.dsns, "dsn", "use an existing server: DATABASE=DSN, repeatable (or $SQLBENCH_MYSQL_DSN, $SQLBENCH_POSTGRES_DSN); without one, sqlbench starts a throwaway server")
	fs.StringVar(&o.nets, "net", "tcp,unix", "transports to servers sqlbench starts (a given DSN uses its own)")
	fs.StringVar(&o.profileFlag, "profile", "durable", "configuration of servers sqlbench starts: durable, fast or seed")
	fs.StringVar(&o.pinFlag, "pin", string(defaultPin), "CPU placement of server and runner: split, same or none")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	fs.StringVar(&o.journalFlag, "sqlite-journal", strings.ToLower(bench.DefaultSQLiteJournal), "SQLite journal mode: delete, truncate, persist, memory, wal or off")
	fs.StringVar(&o.syncFlag, "sqlite-sync", strings.ToLower(bench.DefaultSQLiteSync), "SQLite synchronous level: off, normal, full or extra")
	if err := parseFlags(fs, args, env); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.quick {
		if !set["scale"] {
			o.scale, o.smoke = quickScale, true
		}
		if !set["count"] {
			o.count = quickCount
		}
		if !set["slices"] {
			o.slices = quickSlices
		}
	}
	switch {
	case o.count < 1 || o.count > 1000:
		return usagef("--count must be from 1 to 1000, got %d", o.count)
	case o.slices < 1 || o.slices > 100:
		return usagef("--slices must be from 1 to 100, got %d", o.slices)
	case !(o.scale > 0 && o.scale <= 1000):
		return usagef("--scale must be above 0 and at most 1000, got %g", o.scale)
	case !(o.warmup >= 0 && o.warmup <= 10):
		return usagef("--warmup must be from 0 to 10, got %g", o.warmup)
	case o.timeout <= 0:
		return usagef("--timeout must be positive, got %s", o.timeout)
	}
	var err error
	if o.pin, err = pin.ParseMode(o.pinFlag); err != nil {
		return usagef("--pin: %v", err)
	}
	if o.profile, err = servers.ParseProfile(o.profileFlag); err != nil {
		return usagef("--profile: %v", err)
	}
	if o.sqlite.Journal, err = bench.ParseSQLiteJournal(o.journalFlag); err != nil {
		return usagef("--sqlite-journal: %v", err)
	}
	if o.sqlite.Sync, err = bench.ParseSQLiteSync(o.syncFlag); err != nil {
		return usagef("--sqlite-sync: %v", err)
	}
	for _, n := range strings.Split(o.nets, ",") {
		if n != "tcp" && n != "unix" {
			return usagef("--net: unknown transport %q (valid: tcp, unix)", n)
		}
	}
	if o.out == "" {
		o.out = filepath.Join("results", "sqlbench-"+time.Now().Format("20060102-150405")+".txt")
	}
	if !filepath.IsAbs(o.out) {
		o.out = filepath.Join(env.Dir, o.out)
	}
	return nil
}

// scaleOf returns the scale workload w runs at: its smoke scale in a
// smoke run, else --scale.
func (o *runOptions) scaleOf(w bench.Workload) float64 {
	if o.smoke {
		return w.QuickScale(o.scale)
	}
	return o.scale
}

// smokeScales lists, for the results file, the workloads of ws that run at
// a scale other than --scale ("BulkInsert=0.0001 SuiteSimpleInsert=0.001"),
// by name, in catalogue order.
func smokeScales(o *runOptions, ws []bench.Workload) string {
	var parts []string
	for _, w := range ws {
		part := fmt.Sprintf("%s=%g", w.Name, o.scaleOf(w))
		if o.scaleOf(w) != o.scale && !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, " ")
}

// plan is what a run will do, before anything is built or started.
type plan struct {
	dbs       []bench.DB
	workloads []bench.Workload
	runnable  []targets.Spec
	// skipped maps a target to why it will not run; explicit is set when
	// the user named the targets, which makes a skip count against the
	// exit status.
	skipped  map[string]string
	explicit bool
	// failedSetup is set when a runnable target could not be built or
	// opened.
	failedSetup bool
	// dsns are the DSNs given for server databases.
	dsns map[bench.DB]string
}

func makePlan(o *runOptions, env Env) (*plan, error) {
	p := &plan{skipped: map[string]string{}, explicit: o.targets != ""}
	for _, name := range strings.Split(o.dbs, ",") {
		db, err := bench.ParseDB(strings.TrimSpace(name))
		if err != nil {
			return nil, usagef("--db: %v", err)
		}
		if !slices.Contains(p.dbs, db) {
			p.dbs = append(p.dbs, db)
		}
	}
	list := o.workloads
	if list == "" && !slices.ContainsFunc(p.dbs, bench.DB.SQL) {
		list = floorWorkloads // --db loopback alone: the floor, not classic
	}
	ws, err := selectWorkloads(list)
	if err != nil {
		return nil, err
	}
	var later []string
	for _, w := range ws {
		if w.PlannedAt(o.scaleOf(w)) {
			p.workloads = append(p.workloads, w)
		} else {
			later = append(later, w.ID())
		}
	}
	if len(later) > 0 {
		fmt.Fprintf(env.Stderr, "not planned at --scale %g (too big for a smaller run; use --scale 1): %s\n", o.scale, strings.Join(later, ", "))
	}
	specs, err := targets.Select(o.targets, p.dbs)
	if err != nil {
		return nil, usagef("--targets: %v", err)
	}
	if floorImplied(p.dbs, p.workloads) {
		// The floor is measured in the same run as the servers it bounds.
		p.dbs = append(p.dbs, bench.Loopback)
		floor, _ := targets.Select("", []bench.DB{bench.Loopback})
		specs = append(specs, floor...)
	}
	if len(specs) == 0 {
		return nil, usagef("no targets for --db %s", o.dbs)
	}
	if p.dsns, err = parseDSNFlags(o.dsns); err != nil {
		return nil, err
	}
	for _, db := range p.dbs {
		if v := env.Getenv(dsnEnv(db)); v != "" && p.dsns[db] == "" {
			p.dsns[db] = v
		}
	}
	if !anyRuns(p.workloads, specs) {
		return nil, usagef("nothing to run: none of the workloads runs on the selected databases (see sqlbench list)")
	}
	if !p.explicit {
		// A target none of the workloads runs on costs a runner build and,
		// for a server, a server start: --db mariadb --workloads floor
		// measures the floor only.
		specs = slices.DeleteFunc(specs, func(t targets.Spec) bool { return !anyRuns(p.workloads, []targets.Spec{t}) })
	}
	for _, t := range specs {
		if reason := unavailable(t, env); reason != "" {
			p.skipped[t.Name] = reason
			continue
		}
		p.runnable = append(p.runnable, t)
	}
	return p, nil
}

// floorImplied reports whether the transport floor joins a run that did not
// name it: a networked database is selected, and so are workloads that run
// on Loopback.
func floorImplied(dbs []bench.DB, ws []bench.Workload) bool {
	if slices.Contains(dbs, bench.Loopback) || !slices.ContainsFunc(dbs, bench.DB.Server) {
		return false
	}
	return slices.ContainsFunc(ws, func(w bench.Workload) bool { return w.RunsOn(bench.Loopback) })
}

// anyRuns reports whether some workload runs on some target's database.
func anyRuns(ws []bench.Workload, ts []targets.Spec) bool {
	for _, w := range ws {
		for _, t := range ts {
			if t.Runs(w) {
				return true
			}
		}
	}
	return false
}

// defaultWorkloads is what run runs without --workloads: the classic suite,
// about a minute on SQLite at the default scale.
const defaultWorkloads = "classic"

// floorWorkloads is the family of the transport floor, what --db loopback
// runs without --workloads.
const floorWorkloads = "floor"

// selectWorkloads resolves a --workloads list. Each element names a family
// ("classic", "bulk"), a workload with all its variants ("BulkInsert"), one
// variant by its ID ("BulkInsert/shape=3x8/path=copy"), or "all".
func selectWorkloads(list string) ([]bench.Workload, error) {
	all := bench.Workloads()
	if strings.TrimSpace(list) == "" {
		list = defaultWorkloads
	}
	var out []bench.Workload
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, w := range all {
			if name == "all" || w.Family == name || w.Name == name || w.ID() == name {
				found = true
				if !seen[w.ID()] {
					seen[w.ID()] = true
					out = append(out, w)
				}
			}
		}
		if !found {
			return nil, usagef("--workloads: unknown workload or family %q (valid: all, %s)", name, strings.Join(workloadNames(all), ", "))
		}
	}
	return out, nil
}

// workloadNames lists the families and then the workload names, each once.
func workloadNames(ws []bench.Workload) []string {
	var fams, names []string
	for _, w := range ws {
		if !slices.Contains(fams, w.Family) {
			fams = append(fams, w.Family)
		}
		if !slices.Contains(names, w.Name) {
			names = append(names, w.Name)
		}
	}
	return append(fams, names...)
}

func runCmd(ctx context.Context, args []string, env Env) error {
	o := &runOptions{}
	if err := o.parse(args, env); err != nil {
		return err
	}
	p, err := makePlan(o, env)
	if err != nil {
		return err
	}
	// Every user DSN is checked before anything is created.
	given := map[bench.DB]bench.Endpoint{}
	for db, dsn := range p.dsns {
		e, err := parseEndpoint(db, dsn)
		if err == nil {
			err = checkLoopback(db, e, o.allowRemote)
		}
		if err == nil {
			err = reach(db, e)
		}
		if err != nil {
			return usageError{err.Error()}
		}
		given[db] = e
	}
	// The results file comes next: an unwritable path fails before any
	// server starts or benchmark runs.
	w, err := benchfile.Create(o.out)
	if err != nil {
		return usageError{err.Error()}
	}
	defer w.Close()
	tmp, err := os.MkdirTemp("", "sqlbench-")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(tmp) // the SQLite databases; also on Ctrl-C

	placement := pin.Local(o.pin)
	dbs, err := openDatabases(ctx, p, o, given, placement, tmp, env)
	defer dbs.stop(env)
	if err != nil {
		return err
	}
	// From here on every line printed is scrubbed of server passwords.
	env.Stdout = redactingWriter{env.Stdout, dbs.secrets()}
	env.Stderr = redactingWriter{env.Stderr, dbs.secrets()}

	bins := buildRunners(ctx, o, p, env)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// A target reaches a server over the transports both it and the run
	// have; one with none left does not run.
	for _, t := range slices.Clone(p.runnable) {
		if len(dbs.netsFor(t)) == 0 {
			p.skip(t.Name, fmt.Sprintf("runs over %s only, not over --net %s", strings.Join(t.Nets, ", "), strings.Join(dbs.nets(t.DB), ",")), false)
		}
	}
	sess := &orchestrate.Session{
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
		Scale: o.scale, ScaleOf: o.scaleOf, Warmup: o.warmup, Timeout: o.timeout, SQLite: o.sqlite,
	}
	defer sess.Close()
	// Each runner's hello says what it implements: targets it does not link
	// as the catalogue describes are skipped, and cells are planned from it.
	declared, undeclared := sess.Declarations(ctx, p.workloads, p.runnable)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for name, err := range undeclared {
		p.skip(name, err.Error(), !errors.Is(err, orchestrate.ErrRunsNone))
	}
	infoLines, infoSkipped := sess.Info(ctx, p.runnable, func(t targets.Spec) runner.Location {
		return dbs.location(t, dbs.netsFor(t)[0], t.Name+"-info")
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for name, err := range infoSkipped {
		p.skip(name, "cannot open: "+err.Error(), true)
	}
	reportSkips(p, env)
	if len(p.runnable) == 0 {
		return usagef("no target can run (see the reasons above)")
	}

	for _, f := range envinfo.Collect(ctx) {
		w.SetConfig(f.Key, f.Value)
	}
	for _, line := range infoLines {
		if k, v, ok := strings.Cut(line, ": "); ok {
			w.SetConfig(k, v)
		}
	}
	if p.uses(bench.SQLite) {
		for _, q := range o.sqlite.Setup() {
			k, v, _ := strings.Cut(strings.TrimPrefix(q, "PRAGMA "), "=")
			w.SetConfig("sqlite-"+strings.ReplaceAll(k, "_", "-"), v)
		}
	}
	for _, kv := range dbs.config() {
		w.SetConfig(kv[0], kv[1])
	}
	w.SetConfig("pin", placement.String())
	w.SetConfig("sqlbench", Version())
	w.SetConfig("sqlbench-command", strings.Join(redact.Args(append([]string{"sqlbench", "run"}, args...)), " "))
	w.SetConfig("count", fmt.Sprint(o.count))
	w.SetConfig("slices", fmt.Sprint(o.slices))
	w.SetConfig("scale", fmt.Sprint(o.scale))
	if own := smokeScales(o, p.workloads); own != "" {
		w.SetConfig("smoke-scales", own)
	}
	w.SetConfig("warmup", fmt.Sprint(o.warmup))
	w.SetConfig("started", time.Now().UTC().Format(time.RFC3339))
	if err := w.WriteUnits(); err != nil {
		return err
	}

	var places []orchestrate.Placement
	for _, t := range p.runnable {
		for _, n := range dbs.netsFor(t) {
			places = append(places, orchestrate.Placement{Target: t, Net: n, Runner: declared[t.Group]})
		}
	}
	steps := orchestrate.Schedule(p.workloads, places, o.count, o.slices)
	disp := progress.New(env.Stderr, len(steps), o.count, env.StderrTTY)
	var done []*benchfmt.Result
	sess.Result = func(r *benchfmt.Result) error {
		if err := w.Write(r); err != nil {
			return err
		}
		done = append(done, r)
		return nil
	}
	sess.Progress = disp.Event
	machine := &drift.Recorder{Probe: drift.Probe{CPUs: placement.Runner}, Count: o.count}
	sess.PassStart = machine.Pass
	cpuBefore, cpuErr := envinfo.ReadCPUTimes()
	outcome, runErr := sess.Run(ctx, steps)
	disp.Finish()
	sess.Close()
	if err := w.Close(); err != nil && runErr == nil {
		runErr = err
	}

	var failed []report.Failure
	for _, name := range outcome.Order {
		failed = append(failed, report.Failure{Name: name, Reason: oneLine(outcome.Failed[name].Error())})
	}
	fmt.Fprintln(env.Stdout)
	if err := report.Text(env.Stdout, report.Summarize(done), failed); err != nil {
		return err
	}
	if cpuAfter, err := envinfo.ReadCPUTimes(); err == nil && cpuErr == nil {
		steal := cpuAfter.StealSince(cpuBefore)
		fmt.Fprintf(env.Stdout, "\ncpu steal during the run: %.0f%% of CPU time went to other guests of the hypervisor", 100*steal)
		if steal > 0.05 {
			fmt.Fprint(env.Stdout, " (expect wide intervals; compare ratios within one run)")
		}
		fmt.Fprintln(env.Stdout)
	}
	if f, err := machine.Floor(); err == nil {
		where := "wherever the scheduler put it"
		if len(placement.Runner) > 0 {
			where = "on the runner's CPUs"
		}
		fmt.Fprintf(env.Stdout, "machine drift: the same CPU loop, timed before each of the %d passes %s, varied %.1f%% pass to pass and %.1f%% run to run (averaged over each run's passes): the spread this machine alone gives a run\n",
			f.Passes, where, 100*f.PassCV, 100*f.RunCV)
	}
	fmt.Fprintf(env.Stdout, "\nresults: %s (%d runs)\n", w.Name(), outcome.Runs)
	if len(done) > 0 {
		r := report.New(done, failed, workloadInfo)
		r.Sources = []string{filepath.Base(w.Name())}
		written, err := writeReports(r, strings.TrimSuffix(w.Name(), filepath.Ext(w.Name())), []string{"markdown", "html"})
		if len(written) > 0 {
			fmt.Fprintf(env.Stdout, "reports: %s\n", strings.Join(written, ", "))
		}
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	switch {
	case runErr != nil:
		return runErr
	case len(failed) > 0 || (p.explicit && len(p.skipped) > 0) || p.failedSetup:
		return errPartial
	}
	return nil
}

// buildRunners builds one runner per group of the runnable targets and
// returns the command line that starts each group's runner: a Go binary, or
// java with the JDBC runner's jar. The targets of a group that fails to
// build are skipped.
func buildRunners(ctx context.Context, o *runOptions, p *plan, env Env) map[string][]string {
	bins := map[string][]string{}
	src, err := launcher.FindSource(env.Dir)
	if err != nil {
		for _, t := range slices.Clone(p.runnable) {
			p.skip(t.Name, err.Error(), true)
		}
		return bins
	}
	b := &launcher.Builder{Src: src, Cache: o.cache, Log: env.Stderr}
	jb := &launcher.JarBuilder{Src: src, Cache: o.cache, Log: env.Stderr}
	var jar string
	var jarErr error
	groupErr := map[string]error{}
	for _, t := range p.runnable {
		if _, seen := bins[t.Group]; seen {
			continue
		}
		if _, failed := groupErr[t.Group]; failed {
			continue
		}
		if t.JVM {
			// One jar serves every JDBC target; each runs in its own JVM.
			if jar == "" && jarErr == nil {
				jar, jarErr = jb.Build(ctx)
			}
			if jarErr != nil {
				groupErr[t.Group] = jarErr
				continue
			}
			var opts []string
			if o.smoke {
				opts = append(opts, launcher.SmokeJITWarmup)
			}
			bins[t.Group] = jb.Command(jar, opts...)
			continue
		}
		bin, err := b.Build(ctx, t.Group, t.Cgo)
		if err != nil {
			groupErr[t.Group] = err
			continue
		}
		bins[t.Group] = []string{bin}
	}
	for _, t := range slices.Clone(p.runnable) {
		if err, failed := groupErr[t.Group]; failed {
			p.skip(t.Name, err.Error(), true)
		}
	}
	return bins
}

// skip takes target name out of the run with a reason; failure marks a
// skip that the exit status must report.
func (p *plan) skip(name, reason string, failure bool) {
	p.runnable = slices.DeleteFunc(p.runnable, func(t targets.Spec) bool { return t.Name == name })
	p.skipped[name] = reason
	if failure {
		p.failedSetup = true
	}
}

func reportSkips(p *plan, env Env) {
	names := make([]string, 0, len(p.skipped))
	for n := range p.skipped {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(env.Stderr, "skipped %s: %s\n", n, oneLine(p.skipped[n]))
	}
}
