package cli

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/variant"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// runFlags are sqlbench run's flags, every one defined by defineRun: bound
// onto cfg (or, for the few that are not the session's, a field here), each
// with its rule beside it: when the flag would do nothing (noops, checked
// in definition order by refuseNoops) and whether --resume takes it.
type runFlags struct {
	cfg    *session.Config
	quick  bool
	dryRun bool
	script scriptFlags
	c      *cobra.Command
	env    Env
	noops  []func() noopRule
	// resumable are the flags --resume takes: the session's own settings
	// come from its journal.
	resumable []string
}

// defineRun defines sqlbench run's flags on c and returns them, cfg
// holding the defaults until the command line is parsed.
func defineRun(c *cobra.Command, env Env) *runFlags {
	cfg := session.Defaults()
	// --quiet and --details (quietFlag, detailsFlag) shape only the output:
	// a resumed session takes them.
	r := &runFlags{cfg: cfg, c: c, env: env, resumable: []string{"quiet", "details"}}
	fs := c.Flags()
	fs.SortFlags = false
	dbNames := func() []string { return names(bench.KnownDBs()) }
	r.value("db", "databases to benchmark, comma-separated (sqlite, mariadb, postgres; loopback = the transport "+
		"floor, raw TCP and HTTP on 127.0.0.1, also planned with mariadb or postgres when the floor workloads are "+
		"selected)",
		strings.Join(names(cfg.DBs), ","), func(s string) error {
			cfg.DBs = nil
			for _, name := range strings.Split(s, ",") {
				name = strings.TrimSpace(name)
				db, err := bench.ParseDB(name)
				if err != nil {
					return fmt.Errorf("unknown database %q%s", name, pick.DidYouMean(name, dbNames()))
				}
				cfg.DBs = append(cfg.DBs, db)
			}
			return nil
		})
	completeList(c, "db", dbNames)
	r.value("targets", "targets to run, comma-separated names, globs, -exclusions, name@version or name@./checkout, "+
		"name+spin=DURATION (default: every target of the databases; see sqlbench list)",
		"", func(s string) error { cfg.Targets = splitList(s); return nil })
	completeList(c, "targets", targets.Names)
	r.value("workloads", "workloads to run, comma-separated: families, names or IDs, globs, -exclusions, or all "+
		"(default: "+session.DefaultWorkloads+"; see sqlbench list)",
		"", func(s string) error { cfg.Workloads = splitList(s); return nil })
	completeList(c, "workloads", workloadChoices)

	fs.IntVar(&cfg.Count, "count", cfg.Count, "timed runs per cell: a fixed design (without it, and without "+
		"--budget or --quick, the run is budgeted at twice the measuring time of a fixed design of this many runs; "+
		"with --budget: the first stage's, raised to the fewest a look needs)")
	fs.DurationVar(&cfg.Budget, "budget", 0, "spend up to this much measuring time on the comparisons still "+
		"undecided: a first stage of --count runs, then rounds of more runs for the undecided ratio comparisons "+
		"nearest a verdict, each followed by a look (docs/methodology.md, Budgeted sessions)")
	fs.IntVar(&cfg.Looks, "looks", 0, fmt.Sprintf("in a budgeted run: the looks planned, 5%% error spent over "+
		"them (default %d)", session.DefaultLooks))
	fs.IntVar(&cfg.Slices, "slices", cfg.Slices,
		"parts each run is made of, spread over the whole session (1 = every run in one piece)")
	fs.Float64Var(&cfg.Scale, "scale", cfg.Scale,
		"multiplies every workload's operation count (1 = the published sizes)")
	fs.Float64Var(&cfg.Warmup, "warmup", cfg.Warmup, "untimed operations before each run, as a fraction of the run")
	fs.BoolVar(&cfg.WarmupAll, "warmup-all", false, "warm up the workloads whose published program had none "+
		"(bulk and single-row inserts, the SQLite suites) too; recorded as warmup-all")
	r.noop(func() noopRule {
		return noopRule{cfg.Warmup == 0, []string{"warmup-all"}, "does nothing with --warmup 0 (no warm-up)"}
	})
	fs.BoolVar(&r.quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads, "+
		"recorded as smoke-scales) --count %d --slices %d unless given",
		session.QuickScale, session.QuickCount, session.QuickSlices))
	r.noop(func() noopRule {
		return noopRule{set(c, "scale") && set(c, "count") && set(c, "slices"), []string{"quick"},
			"does nothing with --scale, --count and --slices all given"}
	})
	fs.BoolVar(&r.dryRun, "dry-run", false,
		"print the cells, the passes and the estimated time, then exit without running or writing anything")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout,
		"longest one run of one cell may take before the cell is failed")
	fs.StringVarP(&cfg.Out, "output", "o", "", "results file (default results/sqlbench-<time>.txt, suffixed -2, "+
		"-3 ... when taken); an existing one is refused unless --force; - writes the results to stdout, the tables "+
		"to stderr, and no report")
	fs.BoolVar(&cfg.Force, "force", false, "overwrite the -o results file if it exists")
	r.noop(func() noopRule {
		return noopRule{cfg.Out == "" || cfg.Out == stdoutName, []string{"force"},
			"only for an -o results file, and none is given"}
	})
	fs.StringVar(&cfg.Resume, "resume", "", "finish the interrupted session of this journal (results/<name>.journal): "+
		"the same plan, only the slices it lacks; takes no other flag but --dsn, --cache, --allow-remote, --quiet "+
		"and --details")
	r.resumable = append(r.resumable, "resume")
	fs.StringVar(&cfg.Cache, "cache", cfg.Cache, "where built runner binaries are kept (default: sqlbench/runners in "+
		"the user cache directory, $XDG_CACHE_HOME or ~/.cache)")
	fs.Lookup("cache").DefValue = "" // the machine's own path: said in words, so the help reads the same everywhere
	r.resumable = append(r.resumable, "cache")

	r.value("dsn", "use an existing server: DATABASE=DSN, repeatable (or $SQLBENCH_MYSQL_DSN, "+
		"$SQLBENCH_POSTGRES_DSN); without one, sqlbench starts a throwaway server", "", func(s string) error {
		db, d, err := session.ParseDSNFlag(s)
		if err == nil {
			if cfg.DSNs == nil {
				cfg.DSNs = map[bench.DB]string{}
			}
			cfg.DSNs[db] = d
		}
		return err
	}).typ = "stringArray"
	r.noop(func() noopRule {
		var stray []string // --dsn databases --db does not name
		for db := range cfg.DSNs {
			if !slices.Contains(cfg.DBs, db) {
				stray = append(stray, string(db))
			}
		}
		slices.Sort(stray)
		return noopRule{len(stray) > 0, []string{"dsn"}, strings.Join(stray, ", ") + " is not in --db (add it there)"}
	})
	r.resumable = append(r.resumable, "dsn")
	r.value("net", "transports to servers sqlbench starts (a given DSN uses its own)",
		strings.Join(cfg.Nets, ","), func(s string) error {
			cfg.Nets = nil
			for _, n := range strings.Split(s, ",") {
				if n != "tcp" && n != "unix" {
					return fmt.Errorf("unknown transport %q (valid: tcp, unix)", n)
				}
				cfg.Nets = append(cfg.Nets, n)
			}
			return nil
		})
	completeList(c, "net", func() []string { return []string{"tcp", "unix"} })
	linkHelp := "put an emulated network link between the runners and the servers (TCP only; the transport " +
		"floor too): lan, dc, wan or DELAY[/JITTER][/RATE], DELAY the round trip it adds, like 500us/50us/1gbit, " +
		"then optionally steps ,DELAY@AT changing the round trip AT into each run slice, like 0,2ms@5s " +
		"(docs/links.md)"
	r.value("link", linkHelp, "", func(s string) error {
		sp, err := link.Parse(s)
		if err == nil {
			cfg.Link = &sp
		}
		return err
	})
	r.value("profile", "configuration of servers sqlbench starts: durable, fast or seed",
		string(cfg.Profile), func(s string) (err error) {
			cfg.Profile, err = servers.ParseProfile(s)
			return err
		})
	complete(c, "profile", func() []string { return names(servers.Profiles()) })
	fs.BoolVar(&cfg.TLS, "tls", false, "connect to the servers sqlbench starts over TLS: each gets a self-signed "+
		"certificate the targets verify where their driver can (TCP only; docs/tls.md)")
	r.noop(func() noopRule {
		starts, _ := r.serverUse()
		return noopRule{!starts &&
			cfg.TLS, []string{"tls"}, "only for servers sqlbench starts (a DSN sets its own TLS)"}
	})
	r.noop(func() noopRule {
		return noopRule{cfg.TLS && !slices.Contains(cfg.Nets, "tcp"), []string{"tls"},
			"TLS is over tcp only (add tcp to --net)"}
	})
	r.noop(func() noopRule {
		starts, _ := r.serverUse()
		return noopRule{!starts, []string{"net", "profile"}, "only for servers sqlbench starts, and this run starts " +
			"none (--db names no server, or a DSN gives each)"}
	})

	r.value("cpu", "GOMAXPROCS values of the Go runners, comma-separated, like go test -cpu: one cell per value, its "+
		"name ending in -N (default: unchanged, no suffix)", "", func(s string) (err error) {
		cfg.CPUs, err = benchfile.ParseCPUs(s)
		return err
	})
	r.value("pin", "CPU placement of server and runner: none (wherever the scheduler puts them, as the published "+
		"studies ran), same (one CPU for both) or split (apart)", string(cfg.Pin), func(s string) (err error) {
		cfg.Pin, err = session.ParsePin(s)
		return err
	})
	complete(c, "pin", func() []string { return []string{"none", "same", "split"} })
	r.value("timing-thread", "locked: each Go cell's timing goroutine keeps one OS thread for the run, whose time is "+
		"divided into on CPU, run queue and blocked; free: it moves between threads as in a plain Go program "+
		"(no division); auto: locked on SQLite, free where it waits on a socket or on sqinn's pipe (locking adds a "+
		"thread hand-over per round trip) or where its target hands each call to a goroutine of its own (crawshaw "+
		"in the go-sqlite-bench suite)", cfg.TimingThread, func(s string) (err error) {
		cfg.TimingThread, err = session.ParseTimingThread(s)
		return err
	})
	complete(c, "timing-thread", func() []string {
		return []string{session.ThreadAuto, session.ThreadLocked, session.ThreadFree}
	})
	r.value("preceding-tests", session.PrecedingUsage, session.PrecedingReplay, func(s string) (err error) {
		cfg.NoPreceding, err = session.ParsePreceding(s)
		return err
	})
	complete(c, "preceding-tests", func() []string { return []string{session.PrecedingReplay, session.PrecedingNone} })
	r.value("idle-latency", idleLatencyUsage, cmp.Or(cfg.IdleLatency, session.IdleDefault), func(s string) (err error) {
		cfg.IdleLatency, err = session.ParseIdleLatency(s)
		return err
	})
	complete(c, "idle-latency",
		func() []string { return []string{session.IdleDefault, session.IdleLow, session.IdleAuto} })
	r.value("measure", "time, or instructions: also count the instructions each Go cell executes per operation in its "+
		"timed region under Valgrind's callgrind (instructions/op, deterministic for CI gates; runs ~50x slower; "+
		"JDBC targets skipped; docs/methodology.md)", cmp.Or(cfg.Measure, session.MeasureTime), func(s string) error {
		if s != session.MeasureTime && s != session.MeasureInstructions {
			return fmt.Errorf("want %s or %s, got %q", session.MeasureTime, session.MeasureInstructions, s)
		}
		cfg.Measure = s
		return nil
	})
	complete(c, "measure", func() []string { return []string{session.MeasureTime, session.MeasureInstructions} })
	r.value("baseline", "the target the ratio tables set every other against, per workload (default: the first "+
		"target of each table in catalogue order)", cfg.Baseline, func(s string) (err error) {
		cfg.Baseline, err = baselineName(s)
		return err
	})
	complete(c, "baseline", targets.Names)
	fs.Var(&resolutionFlag{p: &cfg.Resolution, text: strings.TrimPrefix(report.FormatResolution(
		report.ResolutionOr(cfg.Resolution, report.DefaultResolution)), "±")}, "resolution", resolutionUsage)
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "",
		"write a CPU profile of each cell's timed runs (Go runners; go tool pprof opens it) into this directory")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	r.noop(func() noopRule {
		_, dsns := r.serverUse()
		return noopRule{!dsns, []string{"allow-remote"},
			"only for a --dsn (or $SQLBENCH_*_DSN), and this run uses none"}
	})
	r.resumable = append(r.resumable, "allow-remote")
	r.value("sqlite-journal", "SQLite journal mode: delete, truncate, persist, memory, wal or off",
		strings.ToLower(cfg.SQLite.Journal), func(s string) (err error) {
			cfg.SQLite.Journal, err = bench.ParseSQLiteJournal(s)
			return err
		})
	complete(c, "sqlite-journal", func() []string {
		return []string{"delete", "truncate", "persist", "memory", "wal", "off"}
	})
	r.value("sqlite-sync", "SQLite synchronous level: off, normal, full, extra, or driver (none set: each "+
		"driver's own, mattn NORMAL, the others FULL)", strings.ToLower(cfg.SQLite.Sync), func(s string) (err error) {
		cfg.SQLite.Sync, err = bench.ParseSQLiteSync(s)
		return err
	})
	complete(c, "sqlite-sync", func() []string { return []string{"off", "normal", "full", "extra", "driver"} })
	r.noop(func() noopRule {
		return noopRule{!slices.Contains(cfg.DBs, bench.SQLite), []string{"sqlite-journal", "sqlite-sync"},
			"only for SQLite, which --db does not name"}
	})

	// The script workload's flags; every one but --script needs --script
	// (scriptFlags.apply).
	f := &r.script
	fs.StringArrayVar(&f.scripts, "script", nil, "run a script workload: FILE[@WEIGHT], repeatable; each execution "+
		"draws one script by weight (pgbench's custom-script format: SQL ending in ';', \\set, \\sleep; see "+
		"docs/scripts.md); no built-in workload runs unless --workloads names it")
	fs.StringVar(&f.setup, "setup", "", "script run once per cell before its first timed run, untimed, in the cell's "+
		"own schema (PostgreSQL), database (MariaDB) or file (SQLite)")
	fs.StringVar(&f.mode, "query-mode", string(script.Simple), "how a script's statements run, as pgbench -M: simple "+
		"(one call with the parameters), extended (prepared, run and closed every execution) or prepared (prepared "+
		"once per connection)")
	fs.IntVar(&f.clients, "clients", 1,
		"connections a script's executions are shared out to, each its own goroutine (pgbench -c)")
	fs.DurationVar(&f.time, "time", 0,
		"run each timed run of a script for this long instead of a count of executions (pgbench -T); e.g. 30s")
	r.defineOpenLoop()
	return r
}

// defineOpenLoop defines run's open-loop flags (docs/open-loop.md): --rate,
// and --latency-limit and --progress, which need it.
func (r *runFlags) defineOpenLoop() {
	cfg := r.cfg
	r.value("rate", "open-loop load: operations arrive at this many per second (Poisson, as pgbench --rate), "+
		"whether or not the earlier ones finished; latencies run from each one's scheduled start, and its "+
		"schedule lag, late and skipped counts are reported (server databases, Go runners; docs/open-loop.md)",
		"", func(s string) error {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("want a rate above 0, operations per second, got %q", s)
			}
			cfg.Rate = v
			return nil
		}).typ = "float"
	r.noop(func() noopRule {
		var local []string // databases with no server to queue at
		for _, db := range cfg.DBs {
			if !db.Server() {
				local = append(local, string(db))
			}
		}
		return noopRule{cfg.Rate > 0 && len(local) > 0, []string{"rate"}, "open-loop load needs a server to queue " +
			"at, and " + strings.Join(local, ", ") + " runs in the runner's process: use --db mariadb or postgres"}
	})
	positive := func(p *time.Duration) func(string) error {
		return func(s string) error {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return fmt.Errorf("want a duration above 0 (like 10ms), got %q", s)
			}
			*p = d
			return nil
		}
	}
	r.value("latency-limit", "with --rate: skip the operations already this late when a client reaches them, and "+
		"count those that finish this long after their scheduled start as late (pgbench --latency-limit)", "",
		positive(&cfg.LatencyLimit)).typ = "duration"
	r.value("progress", "with --rate: print each run's ops/s, latency percentiles and schedule lag every this "+
		"long during the run, and record the series in the results file (like pgbench -P, in time)", "",
		positive(&cfg.Progress)).typ = "duration"
	r.noop(func() noopRule {
		return noopRule{cfg.Rate == 0, []string{"latency-limit", "progress"}, "needs --rate (open-loop load)"}
	})
}

// value defines the flag name whose values set parses as they are given;
// text is its default as the help shows it.
func (r *runFlags) value(name, usage, text string, set func(string) error) *parsedFlag {
	v := &parsedFlag{text: text, typ: "string", set: set}
	r.c.Flags().Var(v, name, usage)
	return v
}

// noop adds the rule of flags that would do nothing, evaluated once the
// command line is parsed.
func (r *runFlags) noop(rule func() noopRule) { r.noops = append(r.noops, rule) }

// serverUse reports whether the session starts a server of its own, and
// whether it uses one a DSN gives (--dsn or $SQLBENCH_*_DSN).
func (r *runFlags) serverUse() (starts, dsns bool) {
	for _, db := range r.cfg.DBs {
		given := r.cfg.DSNs[db] != "" || r.env.Getenv(session.DSNEnv(db)) != ""
		starts = starts || db.Server() && !given
		dsns = dsns || db.Server() && given
	}
	return starts, dsns
}

// refuseNoops refuses the flags given that the session would not use (a
// resumed session's flags are checked by checkResume).
func (r *runFlags) refuseNoops() error {
	if r.cfg.Resume != "" {
		return nil
	}
	rules := make([]noopRule, len(r.noops))
	for i, rule := range r.noops {
		rules[i] = rule()
	}
	return refuseNoops(r.c, rules...)
}

// checkResume refuses, with --resume, a flag it does not take.
func (r *runFlags) checkResume() error {
	for _, name := range setFlags(r.c) {
		if !slices.Contains(r.resumable, name) {
			return usagef("--resume takes the session's own settings from its journal: drop --%s", name)
		}
	}
	return nil
}

// parsedFlag is a flag whose every value is parsed by set as it is given
// (into a Config's field, say); its text is its default until then. A flag
// of type stringArray may be given again: each value is set in turn.
type parsedFlag struct {
	text, typ string
	set       func(string) error
	items     []string // a stringArray's values, in order
}

// String returns the flag's text: its default until it is set.
func (v *parsedFlag) String() string { return v.text }

// Type names the flag's kind of value in the help.
func (v *parsedFlag) Type() string { return v.typ }

// Set parses s.
func (v *parsedFlag) Set(s string) error {
	if err := v.set(s); err != nil {
		return err
	}
	v.text = s
	if v.typ == "stringArray" {
		v.items = append(v.items, s)
		v.text = "[" + strings.Join(v.items, ",") + "]"
	}
	return nil
}

// GetSlice returns the values of a stringArray (pflag.SliceValue), or the
// one value of another flag.
func (v *parsedFlag) GetSlice() []string {
	if v.typ == "stringArray" {
		return v.items
	}
	return []string{v.text}
}

// Append sets one more value (pflag.SliceValue).
func (v *parsedFlag) Append(s string) error { return v.Set(s) }

// Replace sets the values ss in turn (pflag.SliceValue).
func (v *parsedFlag) Replace(ss []string) error {
	v.items = nil
	for _, s := range ss {
		if err := v.Set(s); err != nil {
			return err
		}
	}
	return nil
}

var _ pflag.SliceValue = (*parsedFlag)(nil)

// idleLatencyUsage is the help of run's and reproduce's --idle-latency.
const idleLatencyUsage = "CPU idle regime: default (idle states as the kernel's idle driver picks them), low (hold " +
	wake.DMALatencyPath + " at 0 for the session: no CPU sleeps deeper than polling, so wake-ups are fast; needs " +
	"root; recorded as idle-latency) or auto (low where it can be held, else default, saying why)"

// resolutionUsage is the help of run's and report's --resolution.
const resolutionUsage = "the smallest relative difference that matters, a fraction or a percentage: a ratio whose " +
	"whole interval lies within it (between 1/(1+P) and 1+P) is equivalent; one whose interval holds 1 and reaches " +
	"past it, undecided (docs/methodology.md)"

// resolutionFlag is a --resolution bound to p: set, it must be above 0
// and below 1 (ParseResolution); unset, p stays 0 (the default).
type resolutionFlag struct {
	p    *float64
	text string
}

// String is the flag's text as given, or its default.
func (f *resolutionFlag) String() string { return f.text }

// Set parses s (report.ParseResolution) into the bound value.
func (f *resolutionFlag) Set(s string) error {
	v, err := report.ParseResolution(s)
	if err != nil {
		return err
	}
	*f.p, f.text = v, s
	return nil
}

// Type names the flag's kind of value in the help.
func (f *resolutionFlag) Type() string { return "string" }

// baselineName checks a --baseline of any command: it must name a target
// of the catalogue or a variant of one (name@version, name+spin=DURATION,
// as variant.Parse reads them). It returns the name with the target's own
// (an alias, xerial, is jdbc-sqlite).
func baselineName(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	v := variant.Parse(name)
	t, ok := targets.Lookup(v.Base)
	if !ok {
		return "", fmt.Errorf("no target %q%s", name, pick.DidYouMean(v.Base, targets.Names()))
	}
	v.Base = t.Name
	return v.String(), nil
}

// checkBaseline is baselineName as bad input naming --baseline.
func checkBaseline(name string) (string, error) {
	s, err := baselineName(name)
	if err != nil {
		return "", usagef("--baseline: %v", err)
	}
	return s, nil
}

// parseDSNFlags reads --dsn values ("mariadb=DSN", "postgres=DSN"; mysql is
// accepted for mariadb) into a map by database.
func parseDSNFlags(vals []string) (map[bench.DB]string, error) {
	out := map[bench.DB]string{}
	for _, v := range vals {
		db, d, err := session.ParseDSNFlag(v)
		if err != nil {
			return nil, usagef("--dsn: %v", err)
		}
		out[db] = d
	}
	return out, nil
}

// splitList splits a comma-separated flag value; empty gives nil.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// workloadChoices lists what --workloads takes by name: all, the families,
// then the workload names.
func workloadChoices() []string {
	out := []string{"all"}
	for _, w := range bench.Workloads() {
		if !slices.Contains(out, w.Family) {
			out = append(out, w.Family)
		}
	}
	for _, w := range bench.Workloads() {
		if !slices.Contains(out, w.Name) {
			out = append(out, w.Name)
		}
	}
	return out
}

// names converts named strings to strings.
func names[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}
