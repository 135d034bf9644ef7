package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
)

// runFlags are sqlbench run's flags as typed that are not fields of the
// session.Config; parse checks them and completes the Config.
type runFlags struct {
	dbs, targets, workloads, nets, profile, pin, journal, sync, cpu, thread, idle string
	quick, dryRun                                                                 bool
	dsns                                                                          []string

	link string // --link, as typed
}

// define defines sqlbench run's flags on c and returns the Config they
// fill, holding the defaults.
func (f *runFlags) define(c *cobra.Command) *session.Config {
	cfg := &session.Config{
		Count: session.DefaultCount, Slices: session.DefaultSlices, Scale: session.DefaultScale,
		Warmup: session.DefaultWarmup, Timeout: session.DefaultTimeout, Cache: launcher.DefaultCache(),
	}
	fs := c.Flags()
	fs.SortFlags = false
	fs.StringVar(&f.dbs, "db", "sqlite", "databases to benchmark, comma-separated (sqlite, mariadb, postgres; loopback = the transport floor, raw TCP and HTTP on 127.0.0.1, also planned with mariadb or postgres when the floor workloads are selected)")
	fs.StringVar(&f.targets, "targets", "", "targets to run, comma-separated names, globs and -exclusions (default: every target of the databases; see sqlbench list)")
	fs.StringVar(&f.workloads, "workloads", "", "workloads to run, comma-separated: families, names or IDs, globs, -exclusions, or all (default: "+session.DefaultWorkloads+"; see sqlbench list)")
	fs.IntVar(&cfg.Count, "count", cfg.Count, "timed runs per cell")
	fs.IntVar(&cfg.Slices, "slices", cfg.Slices, "parts each run is made of, spread over the whole session (1 = every run in one piece)")
	fs.Float64Var(&cfg.Scale, "scale", cfg.Scale, "multiplies every workload's operation count (1 = the published sizes)")
	fs.Float64Var(&cfg.Warmup, "warmup", cfg.Warmup, "untimed operations before each run, as a fraction of the run")
	fs.BoolVar(&cfg.WarmupAll, "warmup-all", false, "warm up the workloads whose published program had none (bulk and single-row inserts, the SQLite suites) too; recorded as warmup-all")
	fs.BoolVar(&f.quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads, recorded as smoke-scales) --count %d --slices %d unless given", session.QuickScale, session.QuickCount, session.QuickSlices))
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the cells, the passes and the estimated time, then exit without running or writing anything")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "longest one run of one cell may take before the cell is failed")
	fs.StringVarP(&cfg.Out, "output", "o", "", "results file (default results/sqlbench-<time>.txt, suffixed -2, -3 ... when taken); an existing one is refused unless --force; - writes the results to stdout, the tables to stderr, and no report")
	fs.BoolVar(&cfg.Force, "force", false, "overwrite the -o results file if it exists")
	fs.StringVar(&cfg.Resume, "resume", "", "finish the interrupted session of this journal (results/<name>.journal): the same plan, only the slices it lacks; takes no other flag but --dsn, --cache, --allow-remote and --quiet")
	fs.StringVar(&cfg.Cache, "cache", cfg.Cache, "where built runner binaries are kept (default: sqlbench/runners in the user cache directory, $XDG_CACHE_HOME or ~/.cache)")
	fs.Lookup("cache").DefValue = "" // the machine's own path: said in words, so that the help reads the same everywhere
	fs.StringArrayVar(&f.dsns, "dsn", nil, "use an existing server: DATABASE=DSN, repeatable (or $SQLBENCH_MYSQL_DSN, $SQLBENCH_POSTGRES_DSN); without one, sqlbench starts a throwaway server")
	fs.StringVar(&f.nets, "net", "tcp,unix", "transports to servers sqlbench starts (a given DSN uses its own)")
	fs.StringVar(&f.link, "link", "", "put an emulated network link between the runners and the servers (TCP only; the transport floor too): lan, dc, wan or DELAY[/JITTER][/RATE], DELAY the round trip it adds, like 500us/50us/1gbit (docs/links.md)")
	fs.StringVar(&f.profile, "profile", "durable", "configuration of servers sqlbench starts: durable, fast or seed")
	fs.StringVar(&f.cpu, "cpu", "", "GOMAXPROCS values of the Go runners, comma-separated, like go test -cpu: one cell per value, its name ending in -N (default: unchanged, no suffix)")
	fs.StringVar(&f.pin, "pin", string(session.DefaultPin), "CPU placement of server and runner: none (wherever the scheduler puts them, as the published studies ran), same (one CPU for both) or split (apart)")
	fs.StringVar(&f.thread, "timing-thread", session.ThreadAuto, "locked: each Go cell's timing goroutine keeps one OS thread for the run, whose time is divided into on CPU, run queue and blocked; free: it moves between threads as in a plain Go program (no division); auto: locked on SQLite, free where it waits on a socket (locking adds a thread hand-over per round trip)")
	fs.StringVar(&f.idle, "idle-latency", session.IdleDefault, idleLatencyUsage)
	fs.StringVar(&cfg.Baseline, "baseline", "", "the target the ratio tables set every other against, per workload (default: the first target of each table in catalogue order)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of each cell's timed runs (Go runners; go tool pprof opens it) into this directory")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	fs.StringVar(&f.journal, "sqlite-journal", strings.ToLower(bench.DefaultSQLiteJournal), "SQLite journal mode: delete, truncate, persist, memory, wal or off")
	fs.StringVar(&f.sync, "sqlite-sync", strings.ToLower(bench.DefaultSQLiteSync), "SQLite synchronous level: off, normal, full or extra")
	completeRun(c)
	return cfg
}

// idleLatencyUsage is the help of run's and reproduce's --idle-latency.
const idleLatencyUsage = "CPU idle regime: default (idle states as the kernel's idle driver picks them) or low (hold " + wake.DMALatencyPath +
	" at 0 for the session: no CPU sleeps deeper than polling, so wake-ups are fast; needs root; recorded as idle-latency)"

// parseIdleLatency reads --idle-latency into session.Config.IdleLatency:
// "" for default, session.IdleLow for low.
func parseIdleLatency(v string) (string, error) {
	switch v {
	case session.IdleDefault:
		return "", nil
	case session.IdleLow:
		return session.IdleLow, nil
	}
	return "", usagef("--idle-latency must be default or low, got %q", v)
}

// checkBaseline refuses a --baseline that names no target of the
// catalogue.
func checkBaseline(name string) error {
	if _, ok := targets.Lookup(name); name != "" && !ok {
		return usagef("--baseline: no target %q (sqlbench list names them)", name)
	}
	return nil
}

// checkRanges refuses numbers outside what a session can do.
func checkRanges(cfg *session.Config) error {
	switch {
	case cfg.Count < 1 || cfg.Count > 1000:
		return usagef("--count must be from 1 to 1000, got %d", cfg.Count)
	case cfg.Slices < 1 || cfg.Slices > 100:
		return usagef("--slices must be from 1 to 100, got %d", cfg.Slices)
	case !(cfg.Scale > 0 && cfg.Scale <= 1000):
		return usagef("--scale must be above 0 and at most 1000, got %g", cfg.Scale)
	case !(cfg.Warmup >= 0 && cfg.Warmup <= 10):
		return usagef("--warmup must be from 0 to 10, got %g", cfg.Warmup)
	case cfg.Timeout <= 0:
		return usagef("--timeout must be positive, got %s", cfg.Timeout)
	}
	return nil
}

// apply parses the flags that name things into cfg.
func (f *runFlags) apply(cfg *session.Config) error {
	var err error
	if err := checkBaseline(cfg.Baseline); err != nil {
		return err
	}
	if cfg.Pin, err = pin.ParseMode(f.pin); err != nil {
		return usagef("--pin: %v", err)
	}
	if cfg.IdleLatency, err = parseIdleLatency(f.idle); err != nil {
		return err
	}
	if cfg.TimingThread, err = session.ParseTimingThread(f.thread); err != nil {
		return usagef("--timing-thread %v", err)
	}
	if cfg.Profile, err = servers.ParseProfile(f.profile); err != nil {
		return usagef("--profile: %v", err)
	}
	if cfg.SQLite.Journal, err = bench.ParseSQLiteJournal(f.journal); err != nil {
		return usagef("--sqlite-journal: %v", err)
	}
	if cfg.SQLite.Sync, err = bench.ParseSQLiteSync(f.sync); err != nil {
		return usagef("--sqlite-sync: %v", err)
	}
	for _, n := range strings.Split(f.nets, ",") {
		if n != "tcp" && n != "unix" {
			return usagef("--net: unknown transport %q (valid: tcp, unix)", n)
		}
		cfg.Nets = append(cfg.Nets, n)
	}
	for _, name := range strings.Split(f.dbs, ",") {
		db, err := bench.ParseDB(strings.TrimSpace(name))
		if err != nil {
			return usagef("--db: %v", err)
		}
		cfg.DBs = append(cfg.DBs, db)
	}
	if f.link != "" {
		sp, err := link.Parse(f.link)
		if err != nil {
			return usagef("--link: %v", err)
		}
		cfg.Link = &sp
	}
	if cfg.CPUs, err = parseCPUs(f.cpu); err != nil {
		return err
	}
	cfg.Targets, cfg.Workloads = splitList(f.targets), splitList(f.workloads)
	cfg.DSNs, err = parseDSNFlags(f.dsns)
	return err
}

// splitList splits a comma-separated flag value; empty gives nil.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// parseDSNFlags reads --dsn values ("mariadb=DSN", "postgres=DSN"; mysql is
// accepted for mariadb) into a map by database.
func parseDSNFlags(vals []string) (map[bench.DB]string, error) {
	out := map[bench.DB]string{}
	for _, v := range vals {
		name, dsn, ok := strings.Cut(v, "=")
		if !ok || dsn == "" {
			return nil, usagef("--dsn: want DATABASE=DSN, e.g. --dsn postgres=postgres://user:pw@127.0.0.1/db")
		}
		if name == "mysql" {
			name = string(bench.MariaDB)
		}
		db, err := bench.ParseDB(name)
		if err != nil || !db.Server() {
			return nil, usagef("--dsn: %q is not a server database (valid: mariadb, postgres)", name)
		}
		out[db] = dsn
	}
	return out, nil
}

// completeRun registers the shell completions of run's flags that name
// things.
func completeRun(c *cobra.Command) {
	completeList(c, "db", func() []string { return names(bench.KnownDBs()) })
	completeList(c, "targets", targets.Names)
	completeList(c, "workloads", workloadChoices)
	completeList(c, "net", func() []string { return []string{"tcp", "unix"} })
	complete(c, "profile", func() []string { return names(servers.Profiles()) })
	complete(c, "link", link.PresetNames)
	complete(c, "pin", func() []string { return []string{"none", "same", "split"} })
	complete(c, "idle-latency", func() []string { return []string{session.IdleDefault, session.IdleLow} })
	complete(c, "sqlite-journal", func() []string { return []string{"delete", "truncate", "persist", "memory", "wal", "off"} })
	complete(c, "sqlite-sync", func() []string { return []string{"off", "normal", "full", "extra"} })
}

// workloadChoices lists what --workloads takes by name: all, the families,
// then the workload names.
func workloadChoices() []string {
	out := []string{"all"}
	for _, w := range bench.Workloads() {
		out = appendNew(out, w.Family)
	}
	for _, w := range bench.Workloads() {
		out = appendNew(out, w.Name)
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

// appendNew appends v unless to holds it.
func appendNew(to []string, v string) []string {
	if slices.Contains(to, v) {
		return to
	}
	return append(to, v)
}
