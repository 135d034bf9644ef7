package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/pick"
	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
)

// defineRun defines sqlbench run's flags on c, bound straight onto a
// Config holding the defaults, and returns it; quick and dryRun receive the
// two flags that are not the session's, and sf, when not nil, the script
// workload's flags (applied by scriptFlags.apply).
func defineRun(c *cobra.Command, quick, dryRun *bool, sf *scriptFlags) *session.Config {
	cfg := session.Defaults()
	v := cfg.FlagValues()
	fs := c.Flags()
	fs.SortFlags = false
	fs.Var(v["db"], "db", "databases to benchmark, comma-separated (sqlite, mariadb, postgres; loopback = the transport floor, raw TCP and HTTP on 127.0.0.1, also planned with mariadb or postgres when the floor workloads are selected)")
	fs.Var(v["targets"], "targets", "targets to run, comma-separated names, globs, -exclusions, name@version or name@./checkout, name+spin=DURATION (default: every target of the databases; see sqlbench list)")
	fs.Var(v["workloads"], "workloads", "workloads to run, comma-separated: families, names or IDs, globs, -exclusions, or all (default: "+session.DefaultWorkloads+"; see sqlbench list)")
	fs.IntVar(&cfg.Count, "count", cfg.Count, "timed runs per cell: a fixed design (without it, and without "+
		"--budget or --quick, the run is budgeted at twice the measuring time of a fixed design of this many runs; "+
		"with --budget: the first stage's, raised to the fewest a look needs)")
	fs.DurationVar(&cfg.Budget, "budget", 0, "spend up to this much measuring time on the comparisons still "+
		"undecided: a first stage of --count runs, then rounds of more runs for the undecided ratio comparisons "+
		"nearest a verdict, each followed by a look (docs/methodology.md, Budgeted sessions)")
	fs.IntVar(&cfg.Looks, "looks", 0, fmt.Sprintf("in a budgeted run: the looks planned, 5%% error spent over "+
		"them (default %d)", session.DefaultLooks))
	fs.IntVar(&cfg.Slices, "slices", cfg.Slices, "parts each run is made of, spread over the whole session (1 = every run in one piece)")
	fs.Float64Var(&cfg.Scale, "scale", cfg.Scale, "multiplies every workload's operation count (1 = the published sizes)")
	fs.Float64Var(&cfg.Warmup, "warmup", cfg.Warmup, "untimed operations before each run, as a fraction of the run")
	fs.BoolVar(&cfg.WarmupAll, "warmup-all", false, "warm up the workloads whose published program had none (bulk and single-row inserts, the SQLite suites) too; recorded as warmup-all")
	fs.BoolVar(quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads, recorded as smoke-scales) --count %d --slices %d unless given", session.QuickScale, session.QuickCount, session.QuickSlices))
	fs.BoolVar(dryRun, "dry-run", false, "print the cells, the passes and the estimated time, then exit without running or writing anything")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "longest one run of one cell may take before the cell is failed")
	fs.StringVarP(&cfg.Out, "output", "o", "", "results file (default results/sqlbench-<time>.txt, suffixed -2, -3 ... when taken); an existing one is refused unless --force; - writes the results to stdout, the tables to stderr, and no report")
	fs.BoolVar(&cfg.Force, "force", false, "overwrite the -o results file if it exists")
	fs.StringVar(&cfg.Resume, "resume", "", "finish the interrupted session of this journal (results/<name>.journal): the same plan, only the slices it lacks; takes no other flag but --dsn, --cache, --allow-remote, --quiet and --details")
	fs.StringVar(&cfg.Cache, "cache", cfg.Cache, "where built runner binaries are kept (default: sqlbench/runners in the user cache directory, $XDG_CACHE_HOME or ~/.cache)")
	fs.Lookup("cache").DefValue = "" // the machine's own path: said in words, so that the help reads the same everywhere
	fs.Var(v["dsn"], "dsn", "use an existing server: DATABASE=DSN, repeatable (or $SQLBENCH_MYSQL_DSN, $SQLBENCH_POSTGRES_DSN); without one, sqlbench starts a throwaway server")
	fs.Var(v["net"], "net", "transports to servers sqlbench starts (a given DSN uses its own)")
	fs.Var(&linkFlag{cfg: cfg}, "link", "put an emulated network link between the runners and the servers (TCP only; the transport floor too): lan, dc, wan or DELAY[/JITTER][/RATE], DELAY the round trip it adds, like 500us/50us/1gbit (docs/links.md)")
	fs.Var(v["profile"], "profile", "configuration of servers sqlbench starts: durable, fast or seed")
	fs.Var(v["cpu"], "cpu", "GOMAXPROCS values of the Go runners, comma-separated, like go test -cpu: one cell per value, its name ending in -N (default: unchanged, no suffix)")
	fs.Var(v["pin"], "pin", "CPU placement of server and runner: none (wherever the scheduler puts them, as the published studies ran), same (one CPU for both) or split (apart)")
	fs.Var(v["timing-thread"], "timing-thread", "locked: each Go cell's timing goroutine keeps one OS thread for the run, whose time is divided into on CPU, run queue and blocked; free: it moves between threads as in a plain Go program (no division); auto: locked on SQLite, free where it waits on a socket or on sqinn's pipe (locking adds a thread hand-over per round trip) or where its target hands each call to a goroutine of its own (crawshaw in the go-sqlite-bench suite)")
	fs.Var(v["idle-latency"], "idle-latency", idleLatencyUsage)
	fs.Var(v["measure"], "measure", "time, or instructions: also count the instructions each Go cell executes per operation in its timed region under Valgrind's callgrind (instructions/op, deterministic for CI gates; runs ~50x slower; JDBC targets skipped; docs/methodology.md)")
	fs.Var(v["baseline"], "baseline", "the target the ratio tables set every other against, per workload (default: the first target of each table in catalogue order)")
	fs.Var(v["resolution"], "resolution", resolutionUsage)
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of each cell's timed runs (Go runners; go tool pprof opens it) into this directory")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	fs.Var(v["sqlite-journal"], "sqlite-journal", "SQLite journal mode: delete, truncate, persist, memory, wal or off")
	fs.Var(v["sqlite-sync"], "sqlite-sync", "SQLite synchronous level: off, normal, full, extra, or driver (none set: each driver's own, mattn NORMAL, the others FULL)")
	for name, val := range v {
		if fs.Lookup(name) != nil && val.Choices() != nil {
			if name == "db" || name == "targets" || name == "workloads" || name == "net" {
				completeList(c, name, val.Choices)
			} else {
				complete(c, name, val.Choices)
			}
		}
	}
	if sf != nil {
		sf.define(fs)
	}
	return cfg
}

// idleLatencyUsage is the help of run's and reproduce's --idle-latency.
const idleLatencyUsage = "CPU idle regime: default (idle states as the kernel's idle driver picks them) or low (hold " + wake.DMALatencyPath +
	" at 0 for the session: no CPU sleeps deeper than polling, so wake-ups are fast; needs root; recorded as idle-latency)"

// resolutionUsage is the help of run's and report's --resolution.
const resolutionUsage = "the smallest relative difference that matters, a fraction or a percentage: a ratio whose whole interval lies within it " +
	"(between 1/(1+P) and 1+P) is equivalent; one whose interval holds 1 and reaches past it, undecided (docs/methodology.md)"

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

// checkBaseline refuses a --baseline that names no target of the
// catalogue, or a variant (name@version, name+spin=DURATION) of none, and
// returns it by the target's name (an alias, xerial, is jdbc-sqlite).
func checkBaseline(name string) (string, error) {
	base, _, _ := strings.Cut(name, targets.SpinSuffix)
	base, _, _ = strings.Cut(base, "@")
	t, ok := targets.Lookup(base)
	if name != "" && !ok {
		return "", usagef("--baseline: no target %q%s", name, pick.DidYouMean(base, targets.Names()))
	}
	if ok && t.Name != base {
		return t.Name + strings.TrimPrefix(name, base), nil
	}
	return name, nil
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

// linkFlag binds --link onto the Config: parsed as it is set, kept as
// typed for the help.
type linkFlag struct {
	cfg   *session.Config
	typed string
}

func (f *linkFlag) String() string { return f.typed }

func (f *linkFlag) Set(v string) error {
	sp, err := link.Parse(v)
	if err != nil {
		return err
	}
	f.typed, f.cfg.Link = v, &sp
	return nil
}

func (f *linkFlag) Type() string { return "string" }
