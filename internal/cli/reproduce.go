package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/reproduce"
	"github.com/sqlbench/sqlbench/internal/session"
)

// reproduceCommand is sqlbench reproduce: it lists the published
// studies, or reproduces one — its session as run would run it, then the
// study's published ratios beside the measured ones.
func reproduceCommand(ctx context.Context, env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "reproduce [STUDY] [flags]",
		Short: "list the published studies, or rerun one: published and measured side by side",
		Long: `Reproduce, without a study, lists the published studies sqlbench reruns. With
one, it runs that study's drivers, workloads and conditions (what this machine
and build can run; the rest is named with the reason), starting servers as run
does, and prints each of the study's headline comparisons: the published ratio,
the measured one with its confidence interval, and whether they agree. The
results file records the study, so sqlbench report rebuilds the table.`,
		Example: `  sqlbench reproduce                       # the studies
  sqlbench reproduce go-sqlite-bench --quick
  sqlbench reproduce dbi-2023              # the database/sql-overhead study (starts PostgreSQL)
  sqlbench reproduce sqinn-go --scale 1    # the published sizes`,
		Args: func(_ *cobra.Command, names []string) error {
			if len(names) > 1 {
				return usagef("sqlbench reproduce: one study at a time, got %d (%v)", len(names), names)
			}
			return nil
		},
	}
	opts := reproduce.Options{Cache: launcher.DefaultCache()}
	var dsns []string
	fs := c.Flags()
	fs.SortFlags = false
	fs.BoolVar(&opts.Quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads) --count %d --slices %d", session.QuickScale, session.QuickCount, session.QuickSlices))
	fs.Float64Var(&opts.Scale, "scale", 0, "multiplies every workload's operation count (default: the study's, a size that finishes in minutes; 1 = the published sizes)")
	fs.IntVar(&opts.Count, "count", 0, "timed runs per cell (default: the study's)")
	fs.StringVarP(&opts.Out, "output", "o", "", "results file (default results/sqlbench-<time>.txt); an existing one is refused unless --force")
	fs.BoolVar(&opts.Force, "force", false, "overwrite the -o results file if it exists")
	fs.StringVar(&opts.Cache, "cache", opts.Cache, "where built runner binaries are kept (default: sqlbench/runners in the user cache directory)")
	fs.Lookup("cache").DefValue = ""
	fs.StringArrayVar(&dsns, "dsn", nil, "use an existing server: DATABASE=DSN, repeatable; without one, sqlbench starts a throwaway server")
	fs.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	c.RunE = func(_ *cobra.Command, names []string) error {
		opts.Command = append([]string{"sqlbench"}, env.args...)
		return reproduceStudy(ctx, opts, dsns, names, env)
	}
	return c
}

// reproduceStudy runs sqlbench reproduce with its flags parsed.
func reproduceStudy(ctx context.Context, opts reproduce.Options, dsns, names []string, env Env) error {
	var err error
	switch {
	case len(names) == 0:
		return reproduce.List(env.Stdout)
	case opts.Scale < 0 || opts.Scale > 1000 || opts.Count < 0 || opts.Count > 1000:
		return usagef("--scale must be above 0 and at most 1000, --count from 1 to 1000")
	}
	opts.Study = names[0]
	if opts.DSNs, err = parseDSNFlags(dsns); err != nil {
		return err
	}
	if opts.Out != "" && !filepath.IsAbs(opts.Out) {
		opts.Out = filepath.Join(env.Dir, opts.Out)
	}
	p, err := reproduce.NewPlan(opts, env.session())
	if err != nil {
		return err
	}
	out, err := reproduce.Run(ctx, p, env.session())
	if out != nil && out.Scheduled {
		if perr := printOutcome(env.Stdout, out); perr != nil && err == nil {
			err = perr
		}
	}
	if perr := reproduce.Print(env.Stdout, p, reproduce.Table(p, out)); perr != nil && err == nil {
		err = perr
	}
	switch {
	case err != nil:
		return err
	case out.Partial():
		return errPartial
	}
	return nil
}
