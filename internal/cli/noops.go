package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/session"
)

// idle is a rule of the flags a command line may not combine: when idle
// holds, the flags of names given on the command line would do nothing,
// for the reason why.
type idle struct {
	idle  bool
	names []string
	why   string
}

// refuseIdle returns bad input naming the given flags of the first rule
// whose flags would do nothing, or nil: a flag that changes nothing is a
// mistake the user should hear of, not a silent default.
func refuseIdle(c *cobra.Command, rules ...idle) error {
	for _, r := range rules {
		var given []string
		for _, n := range r.names {
			if set(c, n) {
				given = append(given, "--"+n)
			}
		}
		if r.idle && len(given) > 0 {
			return usagef("%s: %s: %s", strings.TrimPrefix(c.CommandPath(), "sqlbench "), strings.Join(given, ", "), r.why)
		}
	}
	return nil
}

// runIdle refuses the flags of sqlbench run that cfg's session would not
// use (a resumed session's flags are checked by parse).
func runIdle(c *cobra.Command, cfg *session.Config, env Env) error {
	if cfg.Resume != "" {
		return nil
	}
	has := func(db bench.DB) bool { return slices.Contains(cfg.DBs, db) }
	starts, dsns := false, len(cfg.DSNs) > 0 // a server sqlbench starts; a DSN given
	for _, db := range cfg.DBs {
		given := cfg.DSNs[db] != "" || env.Getenv(session.DSNEnv(db)) != ""
		starts = starts || db.Server() && !given
		dsns = dsns || db.Server() && given
	}
	var stray []string // --dsn databases --db does not name
	for db := range cfg.DSNs {
		if !has(db) {
			stray = append(stray, string(db))
		}
	}
	slices.Sort(stray)
	return refuseIdle(c,
		idle{len(stray) > 0, []string{"dsn"}, strings.Join(stray, ", ") + " is not in --db (add it there)"},
		idle{!has(bench.SQLite), []string{"sqlite-journal", "sqlite-sync"}, "only for SQLite, which --db does not name"},
		idle{!starts, []string{"net", "profile"}, "only for servers sqlbench starts, and this run starts none (--db names no server, or a DSN gives each)"},
		idle{!dsns, []string{"allow-remote"}, "only for a --dsn (or $SQLBENCH_*_DSN), and this run uses none"},
		idle{cfg.Out == "" || cfg.Out == stdoutName, []string{"force"}, "only for an -o results file, and none is given"},
		idle{cfg.Warmup == 0, []string{"warmup-all"}, "does nothing with --warmup 0 (no warm-up)"},
		idle{set(c, "scale") && set(c, "count") && set(c, "slices"), []string{"quick"}, "does nothing with --scale, --count and --slices all given"},
	)
}

// formatsOf are the formats of a --format value.
func formatsOf(format string) []string {
	var out []string
	for _, f := range strings.Split(format, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// reportIdle refuses report's flags that the formats asked for would not
// use: --wide without text, -o with text alone.
func reportIdle(c *cobra.Command, format string) error {
	formats := formatsOf(format)
	return refuseIdle(c,
		idle{!slices.Contains(formats, "text"), []string{"wide"}, "only for the text format, which --format does not name"},
		idle{slices.Equal(formats, []string{"text"}), []string{"output"}, "only for files, and the text format goes to stdout"},
	)
}

// compareIdle refuses compare's flags that do nothing: --allow-different
// without --fail-over, --md beside --format.
func compareIdle(c *cobra.Command) error {
	return refuseIdle(c,
		idle{!set(c, "fail-over"), []string{"allow-different"}, "only for the --fail-over gate, which is not given"},
		idle{set(c, "md"), []string{"format"}, "--md sets the format too: give one of them"},
	)
}

// listIdle refuses list's flags that --markdown, the catalogue alone,
// would not use.
func listIdle(c *cobra.Command) error {
	return refuseIdle(c, idle{set(c, "markdown"), []string{"estimate", "json"}, "not with --markdown, which prints the catalogue alone"})
}

// reproduceIdle refuses reproduce's flags that do nothing: any flag
// without a study (reproduce then lists the studies), --force without -o,
// --allow-remote without a DSN.
func reproduceIdle(c *cobra.Command, study bool) error {
	var all []string
	c.Flags().VisitAll(func(f *pflag.Flag) { all = append(all, f.Name) })
	return refuseIdle(c,
		idle{!study, all, "only with a study: without one, reproduce lists the studies"},
		idle{!set(c, "output"), []string{"force"}, "only for an -o results file, and none is given"},
		idle{!set(c, "dsn"), []string{"allow-remote"}, "only for a --dsn, and none is given"},
	)
}
