package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
)

// runCmd runs a benchmark session: flags to a session.Config, the session,
// then the summary on stdout.
func runCmd(ctx context.Context, args []string, env Env) error {
	cfg, err := parseRun(args, env)
	if err != nil {
		return err
	}
	out, err := session.Run(ctx, cfg, env.session())
	if out.Scheduled {
		if perr := printOutcome(env.Stdout, out); perr != nil && err == nil {
			err = perr
		}
	}
	if out.Journal != "" {
		fmt.Fprintf(env.Stderr, "the session did not finish; every slice it measured is in %s: sqlbench run --resume %s finishes it\n", out.Journal, out.Journal)
	}
	switch {
	case err != nil:
		return err
	case out.Partial():
		return errPartial
	}
	return nil
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// runFlags are sqlbench run's flags as typed; parseRun checks them and
// turns them into the one parsed configuration, a session.Config.
type runFlags struct {
	dbs, targets, workloads, nets, profile, pin, journal, sync, cpu string
	quick                                                           bool
	dsns                                                            listFlag
}

// parseRun parses sqlbench run's flags into a session configuration.
func parseRun(args []string, env Env) (session.Config, error) {
	cfg := session.Config{
		Count: session.DefaultCount, Slices: session.DefaultSlices, Scale: session.DefaultScale,
		Warmup: session.DefaultWarmup, Timeout: session.DefaultTimeout, Cache: launcher.DefaultCache(),
		Command: append([]string{"sqlbench", "run"}, args...),
	}
	var f runFlags
	fs := newFlags("run")
	fs.StringVar(&f.dbs, "db", "sqlite", "databases to benchmark, comma-separated (sqlite, mariadb, postgres; loopback = the transport floor, raw TCP and HTTP on 127.0.0.1, also planned with mariadb or postgres when the floor workloads are selected)")
	fs.StringVar(&f.targets, "targets", "", "targets to run, comma-separated (default: every target of the databases; see sqlbench list)")
	fs.StringVar(&f.workloads, "workloads", "", "workloads to run, comma-separated: families, names or IDs, or all (default: "+session.DefaultWorkloads+"; see sqlbench list)")
	fs.IntVar(&cfg.Count, "count", cfg.Count, "timed runs per cell")
	fs.IntVar(&cfg.Slices, "slices", cfg.Slices, "parts each run is made of, spread over the whole session (1 = every run in one piece)")
	fs.Float64Var(&cfg.Scale, "scale", cfg.Scale, "multiplies every workload's operation count (1 = the published sizes)")
	fs.Float64Var(&cfg.Warmup, "warmup", cfg.Warmup, "untimed operations before each run, as a fraction of the run")
	fs.BoolVar(&f.quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads, recorded as smoke-scales) --count %d --slices %d unless given", session.QuickScale, session.QuickCount, session.QuickSlices))
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "longest one run of one cell may take before the cell is failed")
	fs.StringVar(&cfg.Out, "o", "", "results file (default results/sqlbench-<time>.txt, suffixed -2, -3 ... when taken); an existing one is refused unless --force")
	fs.BoolVar(&cfg.Force, "force", false, "overwrite the -o results file if it exists")
	fs.StringVar(&cfg.Resume, "resume", "", "finish the interrupted session of this journal (results/<name>.journal): the same plan, only the slices it lacks; takes no other flag but --dsn, --cache and --allow-remote")
	fs.StringVar(&cfg.Cache, "cache", cfg.Cache, "where built runner binaries are kept")
	fs.Var(&f.dsns, "dsn", "use an existing server: DATABASE=DSN, repeatable (or $SQLBENCH_MYSQL_DSN, $SQLBENCH_POSTGRES_DSN); without one, sqlbench starts a throwaway server")
	fs.StringVar(&f.nets, "net", "tcp,unix", "transports to servers sqlbench starts (a given DSN uses its own)")
	fs.StringVar(&f.profile, "profile", "durable", "configuration of servers sqlbench starts: durable, fast or seed")
	fs.StringVar(&f.cpu, "cpu", "", "GOMAXPROCS values of the Go runners, comma-separated, like go test -cpu: one cell per value, its name ending in -N (default: unchanged, no suffix)")
	fs.StringVar(&f.pin, "pin", string(session.DefaultPin), "CPU placement of server and runner: split, same or none")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	fs.StringVar(&f.journal, "sqlite-journal", strings.ToLower(bench.DefaultSQLiteJournal), "SQLite journal mode: delete, truncate, persist, memory, wal or off")
	fs.StringVar(&f.sync, "sqlite-sync", strings.ToLower(bench.DefaultSQLiteSync), "SQLite synchronous level: off, normal, full or extra")
	if err := parseFlags(fs, args, env); err != nil {
		return cfg, err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if cfg.Resume != "" {
		for name := range set {
			if name != "resume" && name != "dsn" && name != "cache" && name != "allow-remote" {
				return cfg, usagef("--resume takes the session's own settings from its journal: drop --%s", name)
			}
		}
		if !filepath.IsAbs(cfg.Resume) {
			cfg.Resume = filepath.Join(env.Dir, cfg.Resume)
		}
		var err error
		cfg.DSNs, err = parseDSNFlags(f.dsns)
		return cfg, err
	}
	if f.quick {
		if !set["scale"] {
			cfg.Scale, cfg.Smoke = session.QuickScale, true
		}
		if !set["count"] {
			cfg.Count = session.QuickCount
		}
		if !set["slices"] {
			cfg.Slices = session.QuickSlices
		}
	}
	if err := checkRanges(&cfg); err != nil {
		return cfg, err
	}
	if err := f.apply(&cfg); err != nil {
		return cfg, err
	}
	if cfg.Out != "" && !filepath.IsAbs(cfg.Out) {
		cfg.Out = filepath.Join(env.Dir, cfg.Out)
	}
	return cfg, nil
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
	if cfg.Pin, err = pin.ParseMode(f.pin); err != nil {
		return usagef("--pin: %v", err)
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
