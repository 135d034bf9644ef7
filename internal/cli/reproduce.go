package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/reproduce"
	"github.com/sqlbench/sqlbench/internal/session"
)

// reproduceCmd lists the published studies, or reproduces one: its
// session as run would run it, then the study's published ratios beside
// the measured ones.
func reproduceCmd(ctx context.Context, args []string, env Env) error {
	opts := reproduce.Options{Cache: launcher.DefaultCache(), Command: append([]string{"sqlbench", "reproduce"}, args...)}
	var dsns listFlag
	fs := newFlags("reproduce")
	fs.BoolVar(&opts.Quick, "quick", false, fmt.Sprintf("smoke-sized run: --scale %g (smaller for the longest workloads) --count %d --slices %d", session.QuickScale, session.QuickCount, session.QuickSlices))
	fs.Float64Var(&opts.Scale, "scale", 0, "multiplies every workload's operation count (default: the study's, a size that finishes in minutes; 1 = the published sizes)")
	fs.IntVar(&opts.Count, "count", 0, "timed runs per cell (default: the study's)")
	fs.StringVar(&opts.Out, "o", "", "results file (default results/sqlbench-<time>.txt); an existing one is refused unless --force")
	fs.BoolVar(&opts.Force, "force", false, "overwrite the -o results file if it exists")
	fs.StringVar(&opts.Cache, "cache", opts.Cache, "where built runner binaries are kept")
	fs.Var(&dsns, "dsn", "use an existing server: DATABASE=DSN, repeatable; without one, sqlbench starts a throwaway server")
	fs.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow a DSN whose server is not on this machine")
	names, err := parseWithFiles(fs, args, env)
	if err != nil {
		return err
	}
	switch {
	case len(names) == 0:
		return reproduce.List(env.Stdout)
	case len(names) > 1:
		return usagef("sqlbench reproduce: one study at a time, got %d (%v)", len(names), names)
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
