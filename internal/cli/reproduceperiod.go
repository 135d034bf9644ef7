package cli

// A reproduction runs some of a study's targets as other builds than the
// catalogue's: by default (--versions published), every driver at the
// version current when the study was published (studies.Period); and the
// builds a study's plan asks for to meet one of its conditions (dbi-2023:
// both SQLite drivers on one SQLite). Each is a version target of the
// session (driver@version, or driver@DIR for a copy of the module with the
// source edits it needs here, prepared in the runner cache); one that
// cannot be had or prepared falls back to the catalogue's target, named in
// one line with the reason.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/targets"
)

// The values of reproduce --versions.
const (
	// versionsPublished runs each driver at the study's period version
	// (the default).
	versionsPublished = "published"
	// versionsPinned runs the versions go.mod pins.
	versionsPinned = "pinned"
)

// periodTarget is one target of a reproduction built otherwise than the
// catalogue's.
type periodTarget struct {
	// Base is the catalogue target; Module its driver's module.
	Base, Module string
	Period       studies.Period
	// Version is the version built: the period's, or the one go.mod pins.
	Version string
	// Dir is the prepared copy of the module; "" for a release built as
	// the module proxy serves it.
	Dir string
	// AsPublished says it comes from the study's period versions (else from
	// its plan's builds).
	AsPublished bool
	// Pinned says the period version is the one go.mod pins: the
	// catalogue's own build runs, as published.
	Pinned bool
}

// element is the --targets element naming the build.
func (t periodTarget) element() string {
	if t.Dir != "" {
		return t.Base + "@" + t.Dir
	}
	return t.Base + "@" + t.Version
}

// name is the session's name of the build's target (session's variant
// names: driver@version, driver@local-DIRNAME).
func (t periodTarget) name() string {
	if t.Dir != "" {
		return t.Base + "@local-" + filepath.Base(t.Dir)
	}
	return t.Base + "@" + t.Version
}

// describe says what the build is, for the what-differs lines.
func (t periodTarget) describe() string {
	p := t.Period
	var b strings.Builder
	if t.Pinned {
		fmt.Fprintf(&b, "%s runs as the catalogue's %s %s, the version go.mod pins", t.Base, t.Module, t.Version)
		if p.Note != "" {
			b.WriteString("; " + p.Note)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s runs as %s", t.Base, t.name())
	from := t.Module
	if p.Source != "" {
		from = p.Source
	}
	fmt.Fprintf(&b, " (%s %s", from, t.Version)
	if p.Commit != "" {
		b.WriteString(", commit " + p.Commit)
	}
	if p.Released != "" {
		b.WriteString(", of " + p.Released)
	}
	b.WriteString(")")
	if p.Amalgamation != "" {
		b.WriteString(", built with the SQLite amalgamation of " + p.Amalgamation + " " +
			pinnedModuleVersion(p.Amalgamation))
	}
	if len(p.With) > 0 {
		b.WriteString(", built with " + withText(p.With))
	}
	for _, e := range p.Edits {
		if e.Shim != "" {
			fmt.Fprintf(&b, "; %s added: %s", e.File, e.Why)
		} else {
			fmt.Fprintf(&b, "; %s:%d edited: %s", e.File, e.Line, e.Why)
		}
	}
	if p.Note != "" {
		b.WriteString("; " + p.Note)
	}
	return b.String()
}

// planBuilds returns the builds the reproduction runs for targets (the
// study's catalogue targets): the study's period versions with asPublished,
// then its plan's builds for the targets that have none; and the gaps of
// the period versions that cannot run here (their Fallback). cache is the
// runner cache, under which the copies are prepared.
func planBuilds(s *studies.Study, names []string, asPublished, bundled bool,
	cache string) ([]periodTarget, []studies.Gap) {
	var out []periodTarget
	var gaps []studies.Gap
	for _, name := range names {
		spec, ok := targets.Lookup(name)
		if !ok {
			continue
		}
		p, ok := s.PeriodOf(name)
		switch {
		case ok && asPublished && p.Fallback != "":
			gaps = append(gaps, studies.Gap{What: "as published: " + name + "@" + p.Version, Why: p.Fallback})
			continue
		case ok && asPublished:
		default:
			i := slices.IndexFunc(s.Plan.Builds, func(b studies.Period) bool { return b.Target == name })
			if i < 0 || bundled {
				continue
			}
			p, ok = s.Plan.Builds[i], false
		}
		out = append(out, newBuild(spec, p, ok, cache))
	}
	return out, gaps
}

// newBuild returns the build p of the catalogue target spec.
func newBuild(spec targets.Spec, p studies.Period, asPublished bool, cache string) periodTarget {
	t := periodTarget{Base: spec.Name, Module: spec.Module, Period: p, Version: p.Version, AsPublished: asPublished}
	if t.Version == "" {
		t.Version = pinnedModuleVersion(spec.Module)
	}
	if !p.NeedsCopy() && !spec.JVM && len(p.With) == 0 && t.Version == pinnedModuleVersion(spec.Module) {
		t.Pinned = true // the catalogue's own build
	}
	if p.NeedsCopy() {
		t.Dir = filepath.Join(periodRoot(cache), spec.Name, copyName(t))
	}
	return t
}

// studyBuild returns the study's own build of target name (Plan.Builds),
// unless --bundled-sqlite leaves them out.
func (p *studyPlan) studyBuild(name string) (periodTarget, bool) {
	i := slices.IndexFunc(p.Study.Plan.Builds, func(b studies.Period) bool { return b.Target == name })
	spec, ok := targets.Lookup(name)
	if i < 0 || !ok || p.bundled {
		return periodTarget{}, false
	}
	return newBuild(spec, p.Study.Plan.Builds[i], false, p.cache), true
}

// replaceBuild puts build b in the session in place of build t (of the
// same target), its cells moved to b's name.
func (p *studyPlan) replaceBuild(t, b periodTarget) {
	cfg := &p.Config
	if i := slices.Index(cfg.Targets, t.element()); i >= 0 {
		cfg.Targets[i] = b.element()
	}
	if cells, ok := cfg.Cells[t.name()]; ok {
		cfg.Cells[b.name()] = cells
		delete(cfg.Cells, t.name())
	}
	delete(cfg.VariantWith, t.name())
	if i := slices.IndexFunc(p.Builds, func(x periodTarget) bool { return x.Base == t.Base }); i >= 0 {
		p.Builds[i] = b
	}
}

// periodRoot is the directory the copies are prepared in.
func periodRoot(cache string) string {
	if cache == "" {
		cache = filepath.Join(os.TempDir(), "sqlbench-runners")
	}
	return filepath.Join(cache, "period")
}

// copyName is the directory name of a build's copy, which its target's
// name ends with: the version, and what was done to it.
func copyName(t periodTarget) string {
	n := t.Version
	if t.Period.Amalgamation != "" {
		n += "-sqlite-of-" + path.Base(t.Period.Amalgamation)
	}
	if len(t.Period.Edits) > 0 {
		n += "-edited"
	}
	return strings.NewReplacer("/", "-", "+", "-").Replace(n)
}

// withText names a period version's With modules: "modernc.org/sqlite
// v1.38.2, modernc.org/libc v1.66.3".
func withText(with []string) string {
	out := make([]string, len(with))
	for i, w := range with {
		out[i] = strings.Replace(w, "@", " ", 1)
	}
	return strings.Join(out, ", ")
}

// applyBuilds puts the builds into the session: each build's element in
// place of its catalogue target, the modules it is built with, and the
// target's cells under the build's name.
func applyBuilds(p *studyPlan) {
	cfg := &p.Config
	for _, t := range p.Builds {
		i := slices.Index(cfg.Targets, t.Base)
		if i < 0 || t.Pinned {
			continue
		}
		cfg.Targets[i] = t.element()
		if len(t.Period.With) > 0 {
			if cfg.VariantWith == nil {
				cfg.VariantWith = map[string][]string{}
			}
			cfg.VariantWith[t.name()] = t.Period.With
		}
		if cells, ok := cfg.Cells[t.Base]; ok {
			cfg.Cells[t.name()] = cells
			delete(cfg.Cells, t.Base)
		}
	}
}

// fallBack takes build t out of the session, the catalogue's target in its
// place, and names why in the plan's gaps.
func (p *studyPlan) fallBack(t periodTarget, why string) {
	cfg := &p.Config
	if i := slices.Index(cfg.Targets, t.element()); i >= 0 {
		cfg.Targets[i] = t.Base
	}
	if cells, ok := cfg.Cells[t.name()]; ok {
		cfg.Cells[t.Base] = cells
		delete(cfg.Cells, t.name())
	}
	delete(cfg.VariantWith, t.name())
	p.Builds = slices.DeleteFunc(p.Builds, func(b periodTarget) bool { return b.Base == t.Base })
	what := "as published: " + t.Base + "@" + t.Version
	if !t.AsPublished {
		what = "the study's build of " + t.Base
	}
	p.Gaps = append(p.Gaps,
		studies.Gap{What: what, Why: oneLine(why) + "; the catalogue's " + t.Base + " runs instead"})
}

// prepareBuilds makes every build of the plan available before its session
// runs: a release must be served by the module proxy, a copy is downloaded
// and edited into place (once: a copy already prepared to the same recipe
// is kept). A build that cannot be had falls back (fallBack).
func prepareBuilds(ctx context.Context, p *studyPlan, log io.Writer) error {
	for _, t := range slices.Clone(p.Builds) {
		err := prepareBuild(ctx, t)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil {
			continue
		}
		if alt, ok := p.studyBuild(t.Base); ok && t.AsPublished {
			// The study's own build meets its condition still (dbi-2023:
			// one SQLite for both drivers).
			fmt.Fprintf(log, "%s: %s: the study's build of %s instead\n", t.name(), oneLine(err.Error()), t.Base)
			p.Gaps = append(p.Gaps, studies.Gap{What: "as published: " + t.Base + "@" + t.Version,
				Why: oneLine(err.Error()) + "; the study's build of " + t.Base + " runs instead"})
			p.replaceBuild(t, alt)
			t, err = alt, prepareBuild(ctx, alt)
			if err == nil {
				continue
			}
		}
		fmt.Fprintf(log, "%s: %s: falling back to the catalogue's version\n", t.name(), oneLine(err.Error()))
		p.fallBack(t, err.Error())
	}
	p.Config.StudyBuilds = buildsRecord(p)
	return nil
}

// buildsRecord is the results file's reproduce-builds line: each build
// (target, module version, what was done to it) and each fallback.
func buildsRecord(p *studyPlan) string {
	var parts []string
	for _, t := range p.Builds {
		kind := "built for the study"
		if t.AsPublished {
			kind = "as published"
		}
		what := t.Module + " " + t.Version
		switch {
		case t.Pinned:
			what += ", the pinned version"
		case t.Period.Source != "":
			what = t.Period.Source + " " + t.Version
		}
		if t.Period.Amalgamation != "" {
			what += " with the SQLite of " + t.Period.Amalgamation + " " + pinnedModuleVersion(t.Period.Amalgamation)
		}
		if n := len(t.Period.Edits); n > 0 {
			what += fmt.Sprintf(", %d edits", n)
		}
		if len(t.Period.With) > 0 {
			what += ", with " + withText(t.Period.With)
		}
		parts = append(parts, fmt.Sprintf("%s: %s (%s)", kind, t.Base, what))
	}
	for _, g := range p.Gaps {
		if strings.HasPrefix(g.What, "as published: ") || strings.HasPrefix(g.What, "the study's build of ") {
			parts = append(parts, "fell back: "+strings.TrimPrefix(g.What, "as published: "))
		}
	}
	return strings.Join(parts, "; ")
}

// prepareBuild makes build t available: its copy prepared, or its release
// downloaded (a JDBC driver's Maven version is the JDBC runner's to
// resolve).
func prepareBuild(ctx context.Context, t periodTarget) error {
	if t.Pinned || lookupJVM(t.Base) {
		return nil
	}
	// The modules it is built with must be had too, or it falls back
	// here rather than failing the session when its variants resolve.
	for _, w := range t.Period.With {
		m, v, _ := strings.Cut(w, "@")
		if _, err := downloadModule(ctx, m, v); err != nil {
			return fmt.Errorf("built with %s: %w", w, err)
		}
	}
	if t.Dir != "" {
		return prepareCopy(ctx, t)
	}
	_, err := downloadModule(ctx, t.Module, t.Version)
	return err
}

// moduleInfo is what go mod download -json says of a module version.
type moduleInfo struct{ Dir, GoMod, Error string }

// downloadModule fetches module@version through the module proxy (go mod
// download) and returns where it is.
func downloadModule(ctx context.Context, module, version string) (moduleInfo, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info moduleInfo
	if jerr := json.Unmarshal(out, &info); jerr != nil {
		return info, fmt.Errorf("%s@%s: go mod download: %v", module, version, errors.Join(err, jerr))
	}
	if info.Error != "" {
		return info,
			fmt.Errorf("%s@%s is not to be had here: %s", module, version, proxyURL.ReplaceAllString(info.Error,
				"$1"))
	}
	return info, nil
}

// proxyURL matches a module proxy address in go's errors, kept to its
// host: the path repeats the module and version the error names already.
var proxyURL = regexp.MustCompile(`(https?://[^/\s]+)/\S*[^:\s]`)

// recipeFile records, in a prepared copy, the recipe it was made to.
const recipeFile = ".sqlbench-period.json"

// prepareCopy makes t's copy: its module version downloaded, copied, its
// go.mod declaring the target's module, the amalgamation replaced and the
// edits made.
func prepareCopy(ctx context.Context, t periodTarget) error {
	recipe, err := copyRecipe(t)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(filepath.Join(t.Dir, recipeFile)); err == nil && bytes.Equal(old, recipe) {
		return nil
	}
	src := t.Module
	if t.Period.Source != "" {
		src = t.Period.Source
	}
	info, err := downloadModule(ctx, src, t.Version)
	if err != nil {
		return err
	}
	tmp := t.Dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := copyTree(info.Dir, tmp); err != nil {
		return fmt.Errorf("copy %s@%s: %w", src, t.Version, err)
	}
	if err := declareModule(tmp, t.Module); err != nil {
		return err
	}
	if a := t.Period.Amalgamation; a != "" {
		if err := replaceAmalgamation(ctx, tmp, a); err != nil {
			return err
		}
	}
	for _, e := range t.Period.Edits {
		if err := applyEdit(tmp, e); err != nil {
			return fmt.Errorf("%s@%s: %w", src, t.Version, err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, recipeFile), recipe, 0o644); err != nil {
		return err
	}
	if err := os.RemoveAll(t.Dir); err != nil {
		return err
	}
	return os.Rename(tmp, t.Dir)
}

// copyRecipe is what a prepared copy of t is made to: its version, its
// period (the edits), the amalgamation's version and the text of every
// shim it adds, so that a copy made before any of them changed (sqlbench's
// adapter growing a call a shim must then provide) is made again.
func copyRecipe(t periodTarget) ([]byte, error) {
	var shims []string
	for _, e := range t.Period.Edits {
		if e.Shim == "" {
			continue
		}
		b, err := studies.ShimText(e)
		if err != nil {
			return nil, err
		}
		shims = append(shims, string(b))
	}
	return json.Marshal(struct {
		Version string
		Period  studies.Period
		Amalg   string
		Shims   []string
	}{t.Version, t.Period, pinnedModuleVersion(t.Period.Amalgamation), shims})
}

// copyTree copies the regular files under src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// declareModule makes dir's go.mod declare module: written where the
// version has none (a release before modules), its module line rewritten
// where it declares another (a fork).
func declareModule(dir, module string) error {
	name := filepath.Join(dir, "go.mod")
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return os.WriteFile(name, []byte("module "+module+"\n"), 0o644)
	}
	if err != nil {
		return err
	}
	f, err := modfile.Parse(name, b, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if f.Module != nil && f.Module.Mod.Path == module {
		return nil
	}
	if err := f.AddModuleStmt(module); err != nil {
		return err
	}
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(name, out, 0o644)
}

// replaceAmalgamation replaces the SQLite of the mattn/go-sqlite3 copy in
// dir (sqlite3-binding.c and .h, each guarded by USE_LIBSQLITE3) with the
// amalgamation (sqlite3.c, sqlite3.h) of module at the version go.mod pins.
func replaceAmalgamation(ctx context.Context, dir, module string) error {
	version := pinnedModuleVersion(module)
	info, err := downloadModule(ctx, module, version)
	if err != nil {
		return err
	}
	for _, f := range []struct{ from, to string }{{"sqlite3.c", "sqlite3-binding.c"},
		{"sqlite3.h", "sqlite3-binding.h"}} {
		b, err := os.ReadFile(filepath.Join(info.Dir, f.from))
		if err != nil {
			return fmt.Errorf("the amalgamation of %s@%s: %w", module, version, err)
		}
		if _, err := os.Stat(filepath.Join(dir, f.to)); err != nil {
			return fmt.Errorf("no %s to replace: %w", f.to, err)
		}
		b = bytes.ReplaceAll(b, []byte(`#include "sqlite3.h"`), []byte(`#include "sqlite3-binding.h"`))
		var out bytes.Buffer
		out.WriteString("#ifndef USE_LIBSQLITE3\n")
		out.Write(b)
		out.WriteString("\n#else // USE_LIBSQLITE3: the system's library instead (sqlbench's copy)\n#endif\n")
		if err := os.WriteFile(filepath.Join(dir, f.to), out.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// applyEdit makes edit e in the copy in dir.
func applyEdit(dir string, e studies.Edit) error {
	name := filepath.Join(dir, filepath.FromSlash(e.File))
	if e.Shim != "" {
		b, err := studies.ShimText(e)
		if err != nil {
			return err
		}
		return os.WriteFile(name, b, 0o644)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	if e.Line < 1 || e.Line > len(lines) || !strings.Contains(lines[e.Line-1], e.Old) {
		return fmt.Errorf("edit of %s:%d does not apply: %q is not on that line", e.File, e.Line, e.Old)
	}
	lines[e.Line-1] = strings.Replace(lines[e.Line-1], e.Old, e.New, 1)
	return os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644)
}

// pinnedModuleVersion returns the version of module that sqlbench's go.mod (the
// runners' sources, embedded) requires; "" when it requires none.
func pinnedModuleVersion(module string) string {
	if module == "" {
		return ""
	}
	b, err := fs.ReadFile(sqlbench.RunnerSource(), "go.mod")
	if err != nil {
		return ""
	}
	f, err := modfile.ParseLax("go.mod", b, nil)
	if err != nil {
		return ""
	}
	for _, r := range f.Require {
		if r.Mod.Path == module {
			return r.Mod.Version
		}
	}
	return ""
}
