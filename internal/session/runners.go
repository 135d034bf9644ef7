package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/internal/launcher"
)

// buildRunners builds one runner per group of the plan's runnable targets
// and returns the command line that starts each group's runner: a Go
// binary, or java with the JDBC runner's jar. The runners the cache lacks
// are built side by side (launcher.Batch), which logs the plan of builds,
// each build's time and the total; built is the time that took (zero when
// the cache had them all). The targets of a group that fails to build are
// skipped. The origin says where the runners were built from, for the
// results file (runner-source). Runners are built from a source tree at or
// above dir when there is one, else from the sources embedded in sqlbench.
func buildRunners(ctx context.Context, cfg *Config, p *Plan, variants map[string]launcher.Resolved, dir string,
	log io.Writer, tty bool) (bins map[string][]string, origin string, built time.Duration) {
	bins = map[string][]string{}
	src, err := launcher.ResolveSource(dir, cfg.Cache, sqlbench.RunnerSource())
	if err != nil {
		for _, t := range slices.Clone(p.Runnable) {
			p.skip(t.Name, err.Error(), true)
		}
		return bins, "", 0
	}
	origin = "source tree " + src.Dir
	if src.Embedded {
		origin = "embedded " + src.Key
	}
	b := &launcher.Builder{Src: src.Dir, Cache: cfg.Cache, Log: log, Origin: src.String()}
	jb := &launcher.JarBuilder{Src: src.Dir, Cache: cfg.Cache, Log: log, Origin: src.String()}
	groupErr := map[string]error{}
	// The runners of the catalogue's own drivers: from the cache, or built
	// together by the batch.
	pending, paths, lookErrs := pendingBuilds(ctx, p, b, jb)
	for g, e := range lookErrs {
		groupErr[g] = e
	}
	if len(pending) > 0 {
		began := time.Now()
		quiet := &launcher.Builder{Src: src.Dir, Cache: cfg.Cache} // the batch logs, not each build
		jobs, groupsOf := buildJobs(pending, quiet, &launcher.JarBuilder{Src: src.Dir, Cache: cfg.Cache})
		batch := &launcher.Batch{Cache: cfg.Cache, Log: log, TTY: tty, Download: downloader(quiet, pending)}
		for name, e := range batch.Run(ctx, jobs) {
			for _, g := range groupsOf[name] {
				groupErr[g] = e
			}
		}
		built = time.Since(began)
	}
	for _, t := range p.Runnable {
		if _, seen := bins[t.Group]; seen {
			continue
		}
		if _, failed := groupErr[t.Group]; failed {
			continue
		}
		switch {
		case t.JVM && t.Version != "":
			// A JDBC driver at another version: a jar of its own.
			vjar, err := jb.BuildVersion(ctx, t.Module, t.Version)
			if err != nil {
				groupErr[t.Group] = err
				continue
			}
			bins[t.Group] = jb.Command(vjar, jvmOptions(cfg)...)
		case t.JVM:
			// One jar serves every JDBC target; each runs in its own JVM.
			bins[t.Group] = jb.Command(paths[t.Group], jvmOptions(cfg)...)
		case t.Version != "": // built against another version; a spin variant runs in its base's runner
			bin, err := b.BuildVariant(ctx, t.BuildGroup(), t.Cgo, variants[t.Name])
			if err != nil {
				groupErr[t.Group] = err
				continue
			}
			bins[t.Group] = []string{bin}
		default:
			bins[t.Group] = []string{paths[t.Group]}
		}
	}
	for _, t := range slices.Clone(p.Runnable) {
		if err, failed := groupErr[t.Group]; failed {
			p.skip(t.Name, err.Error(), true)
		}
	}
	return bins, origin, built
}

// pendingBuild is a runner of the catalogue's own drivers that the cache
// lacks: a Go group's, or the JDBC runner's (JVM).
type pendingBuild struct {
	group string
	cgo   bool
	jvm   bool
}

// pendingBuilds looks the runners of the plan's runnable targets up in
// the cache, variants left out (each is built on its own), and returns
// those it lacks in catalogue order, the path each group's runner has (or
// will have once built) and the groups whose runner cannot be looked up
// (no Go toolchain, no JDK) with why.
func pendingBuilds(ctx context.Context, p *Plan, b *launcher.Builder, jb *launcher.JarBuilder) (
	pending []pendingBuild, paths map[string]string, errs map[string]error) {
	paths, errs = map[string]string{}, map[string]error{}
	jarLooked, jarPath, jarCached := false, "", false
	var jarErr error
	for _, t := range p.Runnable {
		if _, seen := paths[t.Group]; seen || t.Version != "" || errs[t.Group] != nil {
			continue
		}
		if t.JVM {
			if !jarLooked {
				jarLooked = true
				jarPath, jarCached, jarErr = jb.Cached(ctx)
			}
			if jarErr != nil {
				errs[t.Group] = jarErr
				continue
			}
			paths[t.Group] = jarPath
			if !jarCached {
				pending = append(pending, pendingBuild{group: t.Group, jvm: true})
			}
			continue
		}
		bin, ok, err := b.Cached(ctx, t.Group)
		if err != nil {
			errs[t.Group] = err
			continue
		}
		paths[t.Group] = bin
		if !ok {
			pending = append(pending, pendingBuild{group: t.Group, cgo: t.Cgo})
		}
	}
	return pending, paths, errs
}

// buildJobs returns the batch's jobs for the pending builds (one for every
// JDBC group: they share a jar) and the groups each job's runner serves,
// by job name.
func buildJobs(pending []pendingBuild, b *launcher.Builder, jb *launcher.JarBuilder) (
	[]launcher.Job, map[string][]string) {
	var jobs []launcher.Job
	groupsOf := map[string][]string{}
	const jarName = "the JDBC runner"
	for _, pb := range pending {
		if pb.jvm {
			if groupsOf[jarName] == nil {
				jobs = append(jobs, launcher.Job{Name: jarName, Note: "Maven", Record: launcher.JarRecord, Apart: true,
					Build: func(ctx context.Context) error { _, err := jb.Build(ctx); return err }})
			}
			groupsOf[jarName] = append(groupsOf[jarName], pb.group)
			continue
		}
		note := ""
		if pb.cgo {
			note = "cgo"
		}
		jobs = append(jobs, launcher.Job{Name: pb.group, Note: note, Record: pb.group,
			Build: func(ctx context.Context) error { _, err := b.Build(ctx, pb.group, pb.cgo); return err }})
		groupsOf[pb.group] = []string{pb.group}
	}
	return jobs, groupsOf
}

// downloader returns what fetches the Go modules of the pending Go builds
// before they start, or nil when only the jar is built.
func downloader(b *launcher.Builder, pending []pendingBuild) func(context.Context) (int, error) {
	var groups []string
	for _, pb := range pending {
		if !pb.jvm {
			groups = append(groups, pb.group)
		}
	}
	if len(groups) == 0 {
		return nil
	}
	return func(ctx context.Context) (int, error) { return b.Download(ctx, groups) }
}

// Builds is what a session of a plan would build before its first run
// (RunnerBuilds).
type Builds struct {
	// Runners counts the runners the cache lacks for the current source;
	// Took is what building them is estimated to take, Known set when the
	// cache records the last build of each (launcher.Estimate).
	Runners int
	Took    time.Duration
	Known   bool
	// Variants counts the variant runners, built or found in the cache
	// only once their module graph is made: not estimated.
	Variants int
}

// RunnerBuilds says which runners a session of the plan would build before
// its first run, and what that would take, without building anything: the
// runners the cache lacks for the current source, timed from the cache's
// records of their last builds at the batch's default width, and how many
// variant runners it would build besides, which are not looked up. A
// runner that cannot be looked up (no toolchain) is left out: the session
// skips its targets at once. Nothing is extracted: when the runners would
// come from sources embedded in sqlbench that are not yet in the cache,
// every runner is built.
func RunnerBuilds(ctx context.Context, cfg *Config, p *Plan, dir string) (Builds, error) {
	jobs, variants, err := runnerJobs(ctx, cfg, p, dir)
	if err != nil {
		return Builds{}, err
	}
	out := Builds{Runners: len(jobs), Variants: variants}
	if len(jobs) > 0 {
		out.Took, out.Known = launcher.Estimate(cfg.Cache, jobs, launcher.DefaultJobs)
	}
	return out, nil
}

// runnerJobs returns the jobs of the runners RunnerBuilds counts (with no
// Build) and how many variant runners there are.
func runnerJobs(ctx context.Context, cfg *Config, p *Plan, dir string) (jobs []launcher.Job, variants int, err error) {
	seen := map[string]bool{}
	for _, t := range p.Runnable {
		if t.Version != "" && !seen[t.Group] {
			seen[t.Group] = true
			variants++
		}
	}
	src, err := launcher.FindSource(dir)
	if err != nil && os.Getenv("SQLBENCH_SRC") != "" {
		return nil, variants, err
	}
	b := &launcher.Builder{Src: src, Cache: cfg.Cache}
	jb := &launcher.JarBuilder{Src: src, Cache: cfg.Cache}
	var pending []pendingBuild
	if err != nil {
		// The embedded sources: built from cache/src-KEY, which a dry run
		// does not write; where that is there already, its runners are
		// looked up as a source tree's.
		extracted, kerr := embeddedDir(cfg.Cache)
		if kerr != nil {
			return nil, variants, kerr
		}
		if extracted == "" {
			for _, t := range p.Runnable {
				if t.Version == "" && !slices.ContainsFunc(pending, func(pb pendingBuild) bool {
					return pb.group == t.Group || pb.jvm && t.JVM
				}) {
					pending = append(pending, pendingBuild{group: t.Group, cgo: t.Cgo, jvm: t.JVM})
				}
			}
			jobs, _ = buildJobs(pending, b, jb)
			return jobs, variants, nil
		}
		b.Src, jb.Src = extracted, extracted
	}
	pending, _, _ = pendingBuilds(ctx, p, b, jb)
	jobs, _ = buildJobs(pending, b, jb)
	return jobs, variants, nil
}

// embeddedDir returns where the sources embedded in sqlbench are extracted
// in cache, or "" when they are not there yet.
func embeddedDir(cache string) (string, error) {
	key, err := launcher.EmbeddedKey(sqlbench.RunnerSource())
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "src-"+key)
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", nil
	}
	return dir, nil
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
	var out []string
	switch {
	case cfg.ColdJVM:
		out = []string{launcher.ColdJIT}
	case cfg.Smoke:
		out = []string{launcher.SmokeJITWarmup}
	}
	if cfg.JDBCPreparedExecSQL {
		out = append(out, launcher.PreparedExecWithSQL)
	}
	return out
}
