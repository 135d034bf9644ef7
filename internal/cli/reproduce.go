package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/studies"
)

// reproduceCommand is sqlbench reproduce: it lists the published
// studies, or reproduces one (or all of them, in turn) — its session as run
// would run it, then the study's published ratios beside the measured ones
// with a verdict — or, with --dry-run, shows what that would run.
func reproduceCommand(ctx context.Context, env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "reproduce [STUDY|all] [flags]",
		Short: "list the published studies, or rerun one: published and measured side by side",
		Long: `Reproduce, without a study, lists the published studies sqlbench reruns. With
one, it runs that study's drivers, workloads and conditions (what this machine
and build can run; the rest is named with the reason), starting servers as run
does, and prints each of the study's headline comparisons: the published ratio,
the measured one with its confidence interval, and a verdict (agrees, disagrees
with its likely cause where a measured one covers the ratio, else "disagrees —
no known cause", or undecided with the runs that would settle it; see
docs/reproduce.md). A measured ratio agrees when its whole interval lies
within --resolution of the published one (default 30%, for the other machine,
OS, Go and driver versions): the equivalence verdict of the measured ratio
over the published one. "all" reproduces every study in turn, each
into its own results file. --dry-run shows the cells, passes and estimated
time without running anything. The results file records the study, so
sqlbench report rebuilds the table.`,
		Example: `  sqlbench reproduce                       # the studies
  sqlbench reproduce go-sqlite-bench --quick
  sqlbench reproduce dbi-2023 --dry-run    # what it would run, for how long
  sqlbench reproduce all --quick           # every study, a verdict per headline
  sqlbench reproduce sqinn-go --scale 1    # the published sizes
  sqlbench reproduce sqlbench-2013-win --versions pinned  # today's drivers
  sqlbench reproduce --markdown            # every study, what differs here, as Markdown`,
		Args: func(_ *cobra.Command, names []string) error {
			if len(names) > 1 {
				return usagef("sqlbench reproduce: one study (or all) at a time, got %d (%v)", len(names), names)
			}
			return nil
		},
	}
	opts := studyOptions{Cache: session.DefaultCache()}
	var dsns []string
	var dry, markdown bool
	var thread, idle, preceding, versions string
	var asPublished bool
	fs := c.Flags()
	fs.SortFlags = false
	fs.BoolVar(&opts.Quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest "+
		"workloads) --count %d --slices %d, the machine's probes before each pass a tenth as long; without --count "+
		"or --scale budgeted at %g times the fixed design's measuring time with %d looks (a verdict per headline in "+
		"minutes)",
		session.QuickScale, session.QuickCount, session.QuickSlices, session.QuickBudgetTimes, session.QuickLooks))
	fs.Float64Var(&opts.Scale, "scale", 0, "multiplies every workload's operation count (default: the study's, a "+
		"size that finishes in minutes; 1 = the published sizes)")
	fs.IntVar(&opts.Count, "count", 0, "timed runs per cell: a fixed design (without it, a budget of twice the "+
		"measuring time of a fixed design of the study's runs, or --quick's as above, spent on the headline "+
		"comparisons still undecided)")
	fs.BoolVar(&dry, "dry-run", false,
		"print the cells, the passes and the estimated time, then exit without running or writing anything")
	fs.BoolVar(&markdown, "markdown", false, "without a study: every study as Markdown (where it was published, what "+
		"it compared, how it runs here, what differs here and the known causes; docs/reproduce.md holds it)")
	fs.StringVar(&versions, "versions", versionsPublished, "the drivers' versions: published, each at the version "+
		"current when the study was published (its period versions: docs/reproduce.md), where it can be had and "+
		"built here, each that cannot falling back to the pinned one, named; pinned, the versions go.mod pins")
	fs.BoolVar(&asPublished, "as-published", false, "the same as --versions published (the default)")
	_ = fs.MarkHidden("as-published")
	fs.BoolVar(&opts.BundledSQLite, "bundled-sqlite", false, "run each SQLite driver on the SQLite it bundles, "+
		"without the study's builds to one SQLite version (dbi-2023)")
	fs.StringVar(&opts.JDBCPreparedExec, "jdbc-prepared-exec", "",
		"the JDBC PreparedExec call: with-sql, ps.execute(sql) as the SQL-Benchmark Java program "+
			"(the default of its studies), or plain, ps.execute() (the JDBC runner's own; default elsewhere)")
	fs.BoolVar(&opts.JITWarmup, "jit-warmup", false, "give JDBC cells the runner's JIT warm-up although the study's "+
		"programs ran cold (default: a cold JVM, as published)")
	fs.StringVarP(&opts.Out, "output", "o", "", "results file (default results/sqlbench-<time>.txt; with all, "+
		"FILE-STUDY.txt each); an existing one is refused unless --force")
	fs.BoolVar(&opts.Force, "force", false, "overwrite the -o results file if it exists")
	fs.StringVar(&opts.Cache, "cache", opts.Cache, "where built runner binaries are kept (default: sqlbench/runners "+
		"in the user cache directory)")
	fs.Lookup("cache").DefValue = ""
	fs.StringArrayVar(&dsns, "dsn", nil,
		"use an existing server: DATABASE=DSN, repeatable; without one, sqlbench starts a throwaway server")
	fs.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	fs.StringVar(&thread, "timing-thread", "free", "free: Go cells' timing goroutines move between OS threads, as in "+
		"the published programs; locked: each keeps one, whose time is divided (as sqlbench run does)")
	fs.StringVar(&idle, "idle-latency", session.IdleAuto, idleLatencyUsage+
		"; auto here: round trips on a virtual machine then vary less (docs/reproduce.md)")
	fs.StringVar(&preceding, "preceding-tests", session.PrecedingReplay, session.PrecedingUsage)
	fs.Var(&resolutionFlag{p: &opts.Resolution, text: "30%"}, "resolution",
		"the band about each published ratio, a fraction or a percentage, "+
			"within which the measured ratio's whole interval agrees with it (the measured over the published ratio "+
			"is "+
			"equivalent to 1); "+
			"the default is for the other machine, OS, Go and driver versions (docs/reproduce.md)")
	quietFlag(c, env)
	wideFlag(c, env)
	detailsFlag(c, env)
	c.RunE = func(c *cobra.Command, names []string) error {
		if markdown {
			if len(names) > 0 || dry {
				return usagef("sqlbench reproduce --markdown lists every study: it takes no study and no --dry-run")
			}
			return writeStudiesMarkdown(env.Stdout)
		}
		if err := reproduceNoops(c, len(names) > 0); err != nil {
			return err
		}
		var err error
		if opts.IdleLatency, err = session.ParseIdleLatency(idle); err != nil {
			return usagef("--idle-latency: %v", err)
		}
		switch opts.JDBCPreparedExec {
		case "", preparedExecWithSQL, preparedExecPlain:
		default:
			return usagef("--jdbc-prepared-exec must be %s or %s, got %q", preparedExecWithSQL, preparedExecPlain,
				opts.JDBCPreparedExec)
		}
		if opts.NoPreceding, err = session.ParsePreceding(preceding); err != nil {
			return usagef("--preceding-tests: %v", err)
		}
		switch {
		case asPublished && versions == versionsPinned:
			return usagef("--as-published and --versions pinned: one or the other")
		case versions == versionsPublished || asPublished:
			opts.AsPublished = true
		case versions != versionsPinned:
			return usagef("--versions must be %s or %s, got %q", versionsPublished, versionsPinned, versions)
		}
		switch thread {
		case "free":
		case "locked":
			opts.LockThread = true
		default:
			return usagef("--timing-thread must be locked or free, got %q", thread)
		}
		opts.Command = commandLine(c, names)
		return reproduceStudies(ctx, opts, dsns, names, dry, env)
	}
	return c
}

// allStudies is the name that reproduces every study in turn.
const allStudies = "all"

// reproduceStudies runs sqlbench reproduce with its flags parsed: the list,
// one study, or all of them; with dry, only their plans.
func reproduceStudies(ctx context.Context, opts studyOptions, dsns, names []string, dry bool, env Env) error {
	var err error
	switch {
	case len(names) == 0:
		return listStudies(env.Stdout)
	case opts.Scale < 0 || opts.Scale > 1000 || opts.Count < 0 || opts.Count > 1000:
		return usagef("--scale must be above 0 and at most 1000, --count from 1 to 1000")
	}
	if opts.DSNs, err = parseDSNFlags(dsns); err != nil {
		return err
	}
	if opts.Out == stdoutName {
		return usagef("reproduce: -o -: reproduce writes its results to files (run -o - writes them to stdout)")
	}
	if opts.Out != "" && !filepath.IsAbs(opts.Out) {
		opts.Out = filepath.Join(env.Dir, opts.Out)
	}
	if names[0] != allStudies {
		opts.Study = names[0]
		if dry {
			_, _, err := reproduceDryRun(opts, env)
			return err
		}
		_, err := reproduceStudy(ctx, opts, env)
		return err
	}
	ids := studies.IDs()
	for _, id := range ids { // bad input is refused before anything runs
		o := opts
		o.Study = id
		if _, err := newStudyPlan(o, env.session()); err != nil {
			return err
		}
	}
	if dry {
		return reproduceAllDryRun(opts, ids, env)
	}
	var tallies []string
	partial := false
	for _, id := range ids {
		o := opts
		o.Study = id
		if opts.Out != "" {
			ext := filepath.Ext(opts.Out)
			o.Out = strings.TrimSuffix(opts.Out, ext) + "-" + id + ext
		}
		fmt.Fprintf(env.Stdout, "\n=== %s\n", id)
		tally, err := reproduceStudy(ctx, o, env)
		tallies = append(tallies, fmt.Sprintf("%-18s %s", id, tally))
		switch {
		case errors.Is(err, context.Canceled) || ctx.Err() != nil:
			return err
		case errors.Is(err, errPartial), errors.Is(err, errNothingRuns):
			partial = true
		case err != nil:
			fmt.Fprintf(env.Stdout, "%s: %s\n", id, oneLine(err.Error()))
			partial = true
		}
	}
	fmt.Fprintln(env.Stdout, "\nevery study:")
	for _, t := range tallies {
		fmt.Fprintln(env.Stdout, "  "+t)
	}
	if partial {
		return errPartial
	}
	return nil
}

// reproduceStudy reproduces the study opts names and prints its table; it
// returns the table's tally of verdicts.
func reproduceStudy(ctx context.Context, opts studyOptions, env Env) (string, error) {
	p, err := newStudyPlan(opts, env.session())
	if err != nil {
		return "", err
	}
	out, err := runStudy(ctx, p, env.session())
	if out != nil && out.Scheduled {
		if perr := printOutcome(env.Stdout, out, env.outcomeView()); perr != nil && err == nil {
			err = perr
		}
	}
	t := studyTable(p, out)
	if perr := printStudy(env.Stdout, p, t, recordedGo(out)); perr != nil && err == nil {
		err = perr
	}
	switch {
	case err != nil:
		return tally(t), err
	case out.Partial():
		return tally(t), errPartial
	}
	return tally(t), nil
}
