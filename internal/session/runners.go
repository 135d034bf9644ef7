package session

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/internal/launcher"
)

// buildRunners builds one runner per group of the plan's runnable targets
// and returns the command line that starts each group's runner: a Go
// binary, or java with the JDBC runner's jar. The targets of a group that
// fails to build are skipped. The origin says where the runners were built
// from, for the results file (runner-source). Runners are built from a source tree at or
// above dir when there is one, else from the sources embedded in sqlbench.
func buildRunners(ctx context.Context, cfg *Config, p *Plan, variants map[string]launcher.Resolved, dir string, log io.Writer) (bins map[string][]string, origin string) {
	bins = map[string][]string{}
	src, err := launcher.ResolveSource(dir, cfg.Cache, sqlbench.RunnerSource())
	if err != nil {
		for _, t := range slices.Clone(p.Runnable) {
			p.skip(t.Name, err.Error(), true)
		}
		return bins, ""
	}
	origin = "source tree " + src.Dir
	if src.Embedded {
		origin = "embedded " + src.Key
	}
	b := &launcher.Builder{Src: src.Dir, Cache: cfg.Cache, Log: log, Origin: src.String()}
	jb := &launcher.JarBuilder{Src: src.Dir, Cache: cfg.Cache, Log: log, Origin: src.String()}
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
		if t.JVM && t.Version != "" {
			// A JDBC driver at another version: a jar of its own.
			vjar, err := jb.BuildVersion(ctx, t.Module, t.Version)
			if err != nil {
				groupErr[t.Group] = err
				continue
			}
			bins[t.Group] = jb.Command(vjar, jvmOptions(cfg)...)
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
			bins[t.Group] = jb.Command(jar, jvmOptions(cfg)...)
			continue
		}
		var bin string
		var err error
		if t.Version != "" { // built against another version; a spin variant runs in its base's runner
			bin, err = b.BuildVariant(ctx, t.BuildGroup(), t.Cgo, variants[t.Name])
		} else {
			bin, err = b.Build(ctx, t.Group, t.Cgo)
		}
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
	return bins, origin
}

// logSkips logs the skipped targets, one line per reason: a cause every
// target shares (no Go toolchain, no JDK) is said once, not per target.
func logSkips(log io.Writer, p *Plan) {
	var reasons []string
	names := map[string][]string{}
	for _, n := range p.SkippedNames() {
		r := oneLine(p.Skipped[n])
		if names[r] == nil {
			reasons = append(reasons, r)
		}
		names[r] = append(names[r], n)
	}
	for _, r := range reasons {
		fmt.Fprintf(log, "skipped %s: %s\n", strings.Join(names[r], ", "), r)
	}
}

// jvmOptions returns the system properties the JDBC runners start with:
// no JIT warm-up for a cold JVM (ColdJVM), a short one for a smoke run.
func jvmOptions(cfg *Config) []string {
	switch {
	case cfg.ColdJVM:
		return []string{launcher.ColdJIT}
	case cfg.Smoke:
		return []string{launcher.SmokeJITWarmup}
	}
	return nil
}
