package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/internal/session"
)

// runCommand is sqlbench run: flags to a session.Config, the session,
// then the summary on stdout (or, with --dry-run, the plan).
func runCommand(ctx context.Context, env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [flags]",
		Short: "benchmark workloads on targets and write results (default: SQLite, every driver)",
		Long: `Run benchmarks the selected workloads on the selected targets, interleaved,
and writes a results file in the Go benchmark format (results/sqlbench-<time>.txt)
with a Markdown and an HTML report beside it.

--targets and --workloads take comma-separated names, globs (* ? [...]) and
exclusions (a leading -): --targets 'pgx*,-pgx-native'. A list of exclusions
only starts from the default. See sqlbench list for every name.

A target at another version of its driver is a target of its own in the
same interleaved session: name@version (a release the Go module proxy
serves, or a JDBC driver's Maven release) or name@./dir (a local checkout
of a Go driver, built through a replace), labelled driver=<driver>@<version>
in the results (docs/versions.md).

A spin variant, name+spin=DURATION (mattn+spin=20us, mattn@v1.14.22+spin=1ms),
is a Go target slowed down by a known amount: its runner, the base's own,
busy-spins DURATION after each operation inside the clock and reports the
spin it spent as spin-ns/op. Beside its base with --baseline, it shows
whether the session would see a regression of that size (docs/versions.md).`,
		Example: `  sqlbench run                                   # SQLite, every driver, the classic suite
  sqlbench run --quick --workloads all           # a smoke run of everything
  sqlbench run --db postgres --targets 'pgx*,-pgx-native'
  sqlbench run --targets mattn@v1.14.22,mattn@../go-sqlite3,mattn --baseline mattn
  sqlbench run --targets mattn,mattn+spin=2us --workloads SimpleQueryRow --baseline mattn
  sqlbench run --workloads 'Suite*,-SuiteLarge*' --dry-run
  sqlbench run --db mariadb --dsn mariadb='user:pw@tcp(127.0.0.1:3306)/bench'
  sqlbench run --db postgres --script tpcb.sql --setup tpcb-setup.sql --clients 8 --time 30s
  sqlbench run --resume results/sqlbench-20260101-120000.journal`,
		Args: noArgs,
	}
	flags := defineRun(c, env)
	cfg := flags.cfg
	quietFlag(c, env)
	wideFlag(c, env)
	detailsFlag(c, env)
	c.RunE = func(c *cobra.Command, args []string) error {
		cfg.Command = commandLine(c, args)
		if err := checkRun(flags); err != nil {
			return err
		} else if err := flags.script.apply(c.Flags(), cfg); err != nil {
			return err
		} else if err := flags.refuseNoops(); err != nil {
			return err
		}
		if flags.dryRun {
			return dryRun(cfg, env)
		}
		return runSession(ctx, cfg, env)
	}
	return c
}

// runSession runs a benchmark session and prints its outcome.
func runSession(ctx context.Context, cfg *session.Config, env Env) error {
	var toStdout io.Writer
	if cfg.Out == stdoutName {
		// The results file is written in a directory of its own and
		// copied to stdout at the end; the tables go to stderr, and the
		// reports the session writes beside the file go with the
		// directory.
		tmp, err := os.MkdirTemp("", "sqlbench-out-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		cfg.Out, toStdout, env.Stdout = filepath.Join(tmp, "results.txt"), env.Stdout, env.Stderr
	}
	out, err := session.Run(ctx, cfg, env.session())
	if toStdout != nil {
		if cerr := copyFile(toStdout, out.Results); cerr != nil && err == nil {
			err = cerr
		}
		out.Results, out.Reports = "standard output", nil
		if out.Journal != "" {
			out.Journal = ""
			fmt.Fprintln(env.Stderr,
				"the session did not finish; with -o - it cannot be resumed (the runs it finished were written)")
		}
	}
	if out.Scheduled {
		v := env.outcomeView()
		v.Next = true
		if perr := printOutcome(env.Stdout, out, v); perr != nil && err == nil {
			err = perr
		}
	}
	if out.Journal != "" {
		fmt.Fprintf(env.Stderr, "the session did not finish; every slice it measured is in %s: sqlbench run --resume "+
			"%s finishes it\n", out.Journal, out.Journal)
	}
	switch {
	case err != nil:
		return err
	case out.Partial():
		return errPartial
	}
	return nil
}

// checkRun checks the flags given, which were parsed into f.cfg, and
// completes it: a smoke run's sizes, paths from the working directory.
func checkRun(f *runFlags) error {
	c, cfg, env := f.c, f.cfg, f.env
	if cfg.Resume != "" {
		if err := f.checkResume(); err != nil {
			return err
		}
		if !filepath.IsAbs(cfg.Resume) {
			cfg.Resume = filepath.Join(env.Dir, cfg.Resume)
		}
		return nil
	}
	if f.quick {
		cfg.Quick(set(c, "scale"), set(c, "count"), set(c, "slices"))
	} else if !set(c, "count") && !set(c, "budget") {
		cfg.BudgetTimes = session.DefaultBudgetTimes // the default run: budgeted at twice the fixed design's time
	}
	if err := cfg.CheckRanges(); err != nil {
		return err
	}
	for _, p := range []*string{&cfg.Out, &cfg.CPUProfile} {
		if *p != "" && *p != stdoutName && !filepath.IsAbs(*p) {
			*p = filepath.Join(env.Dir, *p)
		}
	}
	return nil
}

// stdoutName is the -o value that sends the results to stdout.
const stdoutName = "-"

// copyFile copies the file at path to w; there is nothing to copy when
// path is "" or the file is gone (a session that ended before it began).
func copyFile(w io.Writer, path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	} else if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
