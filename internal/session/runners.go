package session

import (
	"context"
	"io"
	"slices"

	"github.com/sqlbench/sqlbench/internal/launcher"
)

// buildRunners builds one runner per group of the plan's runnable targets
// and returns the command line that starts each group's runner: a Go
// binary, or java with the JDBC runner's jar. The targets of a group that
// fails to build are skipped.
func buildRunners(ctx context.Context, cfg *Config, p *Plan, dir string, log io.Writer) map[string][]string {
	bins := map[string][]string{}
	src, err := launcher.FindSource(dir)
	if err != nil {
		for _, t := range slices.Clone(p.Runnable) {
			p.skip(t.Name, err.Error(), true)
		}
		return bins
	}
	b := &launcher.Builder{Src: src, Cache: cfg.Cache, Log: log}
	jb := &launcher.JarBuilder{Src: src, Cache: cfg.Cache, Log: log}
	var jar string
	var jarErr error
	groupErr := map[string]error{}
	for _, t := range p.Runnable {
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
			if cfg.Smoke {
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
	for _, t := range slices.Clone(p.Runnable) {
		if err, failed := groupErr[t.Group]; failed {
			p.skip(t.Name, err.Error(), true)
		}
	}
	return bins
}
