package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/studies"
	"github.com/sqlbench/sqlbench/targets"
)

// TestAsPublishedPlans checks the targets --as-published gives: the
// period versions as version targets (a prepared copy where the version
// needs edits), the catalogue's build where the period version is the
// pinned one, a fallback named where it cannot run; and without it, the
// catalogue's targets but for the study's own builds.
func TestAsPublishedPlans(t *testing.T) {
	cache := t.TempDir()
	root := filepath.Join(cache, "period")
	for _, c := range []struct {
		study         string
		asPublished   bool
		bundled       bool
		targets       []string // the session's --targets elements
		cells         []string // the names the cells are planned under
		gaps, notGaps []string // what of the gaps' What
		pinned        []string
	}{
		{study: "sqlbench-2013-win", asPublished: true,
			targets: []string{"mysql@" + root + "/mysql/v0.0.0-20130302023314-af17a70cb2d2-edited",
				"mymysql@" + root + "/mymysql/v0.0.0-20130301100320-d072d1daf8b1-edited", "jdbc-mysql"},
			cells: []string{"mysql@local-v0.0.0-20130302023314-af17a70cb2d2-edited",
				"mymysql@local-v0.0.0-20130301100320-d072d1daf8b1-edited", "jdbc-mysql"},
			gaps:    []string{"as published: jdbc-mysql@5.1.23"},
			notGaps: []string{"mymysql and Go-MySQL-Driver as of 2013-03-02"}},
		{study: "sqlbench-2013-win", targets: []string{"mysql", "mymysql", "jdbc-mysql"},
			cells: []string{"mysql", "mymysql", "jdbc-mysql"},
			gaps:  []string{"mymysql and Go-MySQL-Driver as of 2013-03-02"}},
		{study: "sqlbench-2013-osx", asPublished: true,
			targets: []string{"mysql@" + root + "/mysql/v0.0.0-20130316232230-de6141b6766e-edited",
				"mymysql@v0.0.0-20130318031149-fab4e79f6bc2", "jdbc-mysql"},
			gaps: []string{"as published: jdbc-mysql@5.1.24"}},
		{study: "sqinn-go", asPublished: true, targets: []string{"mattn@v2.0.3+incompatible", "crawshaw", "sqinn"},
			cells: []string{"mattn@v2.0.3+incompatible", "crawshaw", "sqinn"},
			gaps:  []string{"as published: sqinn@v1.1.0"}, pinned: []string{"crawshaw"}},
		{study: "dbi-2023",
			targets: []string{"eatonphil", "mattn@" + root + "/mattn/v1.14.52-sqlite-of-gosqlite", "pgx-native", "pq"},
			cells:   []string{"mattn@local-v1.14.52-sqlite-of-gosqlite"}},
		{study: "dbi-2023", bundled: true, targets: []string{"eatonphil", "mattn", "pgx-native", "pq"}},
		{study: "dbi-2023", asPublished: true, targets: []string{"eatonphil@v0.8.0",
			"mattn@" + root + "/mattn/v1.14.14-0.20231005193852-b20e196f602b", "pgx-native@v5.4.3", "pq@v1.10.9"}},
	} {
		opts := studyOptions{Study: c.study, AsPublished: c.asPublished, BundledSQLite: c.bundled, Cache: cache}
		p, err := newStudyPlan(opts, machine())
		if err != nil {
			t.Fatal(err)
		}
		label := c.study
		if c.asPublished {
			label += " --as-published"
		}
		if strings.Contains(c.targets[1], "1.14.52") &&
			pinnedModuleVersion("github.com/mattn/go-sqlite3") != "v1.14.52" {
			c.targets[1] = strings.Replace(c.targets[1], "v1.14.52", pinnedModuleVersion("github.com/mattn/go-sqlite3"),
				1)
			c.cells = nil
		}
		if !slices.Equal(p.Config.Targets, c.targets) {
			t.Errorf("%s: targets\n%q, want\n%q", label, p.Config.Targets, c.targets)
		}
		for _, name := range c.cells {
			if len(p.Config.Cells[name]) == 0 {
				t.Errorf("%s: no cells planned under %s: %v", label, name, p.Config.Cells)
			}
		}
		what := map[string]bool{}
		for _, g := range p.Gaps {
			what[g.What] = true
		}
		for _, g := range c.gaps {
			if !what[g] {
				t.Errorf("%s: gap %q not named: %v", label, g, p.Gaps)
			}
		}
		for _, g := range c.notGaps {
			if what[g] {
				t.Errorf("%s: gap %q named although the period versions run", label, g)
			}
		}
		for _, name := range c.pinned {
			i := slices.IndexFunc(p.Builds, func(b periodTarget) bool { return b.Base == name })
			if i < 0 || !p.Builds[i].Pinned || !strings.Contains(buildLine(p.Builds[i]), "the version go.mod pins") {
				t.Errorf("%s: %s's period version, the pinned one, not said: %v", label, name, p.Builds)
			}
		}
	}
}

// TestPeriodVersionWithItsProgramsEngine plans go-sqlite-bench's period
// versions: zombiezen, at the version go.mod pins, still runs as a version
// target, built with the modernc release the program required (the SQLite
// it linked), said in the builds line; crawshaw, with nothing of its own,
// runs as the catalogue's.
func TestPeriodVersionWithItsProgramsEngine(t *testing.T) {
	opts := studyOptions{Study: "go-sqlite-bench", AsPublished: true, Cache: t.TempDir()}
	p, err := newStudyPlan(opts, machine())
	if err != nil {
		t.Fatal(err)
	}
	zombie := "zombiezen@v1.4.2"
	if pinnedModuleVersion("zombiezen.com/go/sqlite") != "v1.4.2" {
		t.Skip("go.mod no longer pins zombiezen v1.4.2, the program's")
	}
	if !slices.Contains(p.Config.Targets, zombie) || len(p.Config.Cells[zombie]) == 0 {
		t.Fatalf("%s not a target with cells: %q", zombie, p.Config.Targets)
	}
	if got := p.Config.VariantWith[zombie]; !slices.Equal(got, []string{"modernc.org/sqlite@v1.38.2"}) {
		t.Errorf("%s built with %q, want modernc.org/sqlite@v1.38.2 (VariantWith %v)", zombie, got,
			p.Config.VariantWith)
	}
	if !slices.Contains(p.Config.Targets, "crawshaw") || len(p.Config.VariantWith) != 1 {
		t.Errorf("crawshaw should run as the catalogue's, alone: %q, %v", p.Config.Targets, p.Config.VariantWith)
	}
	want := "as published: zombiezen (zombiezen.com/go/sqlite v1.4.2, with modernc.org/sqlite v1.38.2)"
	if !strings.Contains(buildsRecord(p), want) {
		t.Errorf("builds line %q\nlacks %q", buildsRecord(p), want)
	}
}

// TestEveryStudyHasItsPeriodVersions checks studies.json: every driver of
// every study has a period version, a well-formed one, dated, with the
// reason where it does not run and what each edit is for.
func TestEveryStudyHasItsPeriodVersions(t *testing.T) {
	semver := regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$`)
	for _, s := range studies.All() {
		for _, name := range s.Targets() {
			spec, ok := targets.Lookup(name)
			if !ok || spec.Module == "" {
				continue // the transport floor: no driver
			}
			p, ok := s.PeriodOf(name)
			if !ok {
				t.Errorf("%s: %s has no period version", s.ID, name)
				continue
			}
			if p.Released == "" || (!spec.JVM && !semver.MatchString(p.Version)) {
				t.Errorf("%s: %s: period version %q released %q", s.ID, name, p.Version, p.Released)
			}
			for _, w := range p.With {
				m, v, ok := strings.Cut(w, "@")
				if !ok || m == "" || m == spec.Module || !semver.MatchString(v) || p.Note == "" {
					t.Errorf("%s: %s: with %q: want another module@version, and a note saying whose", s.ID, name, w)
				}
			}
			for _, e := range p.Edits {
				if e.Why == "" || e.File == "" || (e.Shim == "" && (e.Line < 1 || e.Old == "")) {
					t.Errorf("%s: %s: edit %+v incomplete", s.ID, name, e)
				}
				if e.Shim != "" {
					if _, err := studies.ShimText(e); err != nil {
						t.Errorf("%s: %s: %v", s.ID, name, err)
					}
				}
			}
		}
	}
}

// TestCopyEdits makes a copy's edits: a line edit where the text is on its
// line, refused where it is not; a shim added; a go.mod written where the
// version has none and its module line rewritten for a fork.
func TestCopyEdits(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\n\tfallthrough\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := applyEdit(dir, studies.Edit{File: "a.go", Line: 2, Old: "fallthrough"}); err == nil {
		t.Error("an edit whose text is not on its line was made")
	}
	if err := applyEdit(dir, studies.Edit{File: "a.go", Line: 3, Old: "fallthrough"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(b) != "package a\n\n\t\n}\n" {
		t.Errorf("edited: %q", b)
	}
	if err := applyEdit(dir, studies.Edit{File: "c.go", Shim: "go-sql-driver-reader"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c.go")); !strings.Contains(string(b), "func RegisterReaderHandler(") {
		t.Errorf("shim: %q", b)
	}
	if err := declareModule(dir, "example.com/m"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(b) != "module example.com/m\n" {
		t.Errorf("go.mod written: %q", b)
	}
	if err := declareModule(dir, "example.com/other"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.HasPrefix(string(b), "module example.com/other\n") {
		t.Errorf("go.mod rewritten: %q", b)
	}
}

// TestDBI2023BuildLinksGosqlitesSQLite prepares dbi-2023's default build of
// mattn (both modules pinned in go.mod: no download beyond the module
// cache) and checks that its bundled SQLite is gosqlite's, version and all.
func TestDBI2023BuildLinksGosqlitesSQLite(t *testing.T) {
	p, err := newStudyPlan(studyOptions{Study: "dbi-2023", Cache: t.TempDir()}, machine())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(p.Builds, func(b periodTarget) bool { return b.Base == "mattn" })
	if i < 0 {
		t.Fatalf("no build of mattn: %v", p.Builds)
	}
	if err := prepareBuilds(context.Background(), p, os.Stderr); err != nil || len(p.Builds) == 0 {
		t.Fatalf("prepare: %v; gaps %v", err, p.Gaps)
	}
	b := p.Builds[i]
	const gosqlite = "github.com/eatonphil/gosqlite"
	info, err := downloadModule(context.Background(), gosqlite, pinnedModuleVersion(gosqlite))
	if err != nil {
		t.Fatal(err)
	}
	want := sqliteVersion(t, filepath.Join(info.Dir, "sqlite3.h"))
	if got := sqliteVersion(t, filepath.Join(b.Dir, "sqlite3-binding.h")); got != want || want == "" {
		t.Errorf("mattn's copy bundles SQLite %q, gosqlite %q", got, want)
	}
}

// sqliteVersion reads SQLITE_VERSION from a SQLite header.
func sqliteVersion(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^#define SQLITE_VERSION\s+"([0-9.]+)"`).FindSubmatch(b)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// planBuild plans the reproduction opts and returns it with the index of
// target base's build among its builds.
func planBuild(t *testing.T, opts studyOptions, base string) (*studyPlan, int) {
	t.Helper()
	p, err := newStudyPlan(opts, machine())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(p.Builds, func(b periodTarget) bool { return b.Base == base })
	if i < 0 {
		t.Fatalf("%s: no build of %s: %v", opts.Study, base, p.Builds)
	}
	return p, i
}

// TestPeriodBuildWithAnUnservedModuleFallsBack: a period version whose
// program's engine cannot be had (a modernc release the proxy does not
// serve) falls back to the catalogue's target, named in a gap, before the
// session resolves its variants; the other builds stay.
func TestPeriodBuildWithAnUnservedModuleFallsBack(t *testing.T) {
	p, i := planBuild(t, studyOptions{Study: "go-sqlite-bench", AsPublished: true, Cache: t.TempDir()}, "zombiezen")
	zombie := p.Builds[i].name()
	// Only zombiezen's build is prepared here (the others download).
	p.Builds = []periodTarget{p.Builds[i]}
	p.Builds[0].Period.With = []string{"modernc.org/sqlite@v1.99.99"}
	var log strings.Builder
	if err := prepareBuilds(context.Background(), p, &log); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(p.Config.Targets, zombie) || !slices.Contains(p.Config.Targets, "zombiezen") ||
		len(p.Config.Cells[zombie]) != 0 || len(p.Config.Cells["zombiezen"]) == 0 ||
		p.Config.VariantWith[zombie] != nil {
		t.Errorf("%s did not fall back: targets %q, with %v", zombie, p.Config.Targets, p.Config.VariantWith)
	}
	if !strings.Contains(log.String(), "built with modernc.org/sqlite@v1.99.99") ||
		!strings.Contains(buildsRecord(p), "fell back: zombiezen@v1.4.2") {
		t.Errorf("the fallback is not named: log %q, builds %q", log.String(), buildsRecord(p))
	}
}

// TestPreparedExecAsPublished checks the JDBC PreparedExec call of each
// study: ps.execute(sql) for the SQL-Benchmark studies, whose Java program
// called it so, unless --jdbc-prepared-exec plain; ps.execute() elsewhere
// (the JVM's property: session's TestJVMOptionsFollowTheSession).
func TestPreparedExecAsPublished(t *testing.T) {
	for _, s := range studies.All() {
		p, err := newStudyPlan(studyOptions{Study: s.ID}, machine())
		if err != nil {
			t.Fatal(err)
		}
		want := strings.HasPrefix(s.ID, "sqlbench-2013-")
		if p.Config.JDBCPreparedExecSQL != want || strings.Contains(studyConditions(p), "ps.execute(sql)") != want {
			t.Errorf("%s: PreparedExec with the SQL %v, want %v (conditions %q)", s.ID, p.Config.JDBCPreparedExecSQL,
				want,
				studyConditions(p))
		}
		for _, mode := range []string{preparedExecPlain, preparedExecWithSQL} {
			q, _ := newStudyPlan(studyOptions{Study: s.ID, JDBCPreparedExec: mode}, machine())
			if q.Config.JDBCPreparedExecSQL != (mode == preparedExecWithSQL) {
				t.Errorf("%s --jdbc-prepared-exec %s: with the SQL %v", s.ID, mode, q.Config.JDBCPreparedExecSQL)
			}
		}
	}
}

// TestAsPublishedFallsBackToTheStudysBuild: a period version that cannot be
// had gives way to the study's own build where it has one (dbi-2023's mattn
// on gosqlite's SQLite), else to the catalogue's target, each named.
func TestAsPublishedFallsBackToTheStudysBuild(t *testing.T) {
	for _, bundled := range []bool{false, true} {
		cache := t.TempDir()
		opts := studyOptions{Study: "dbi-2023", AsPublished: true, BundledSQLite: bundled, Cache: cache}
		p, i := planBuild(t, opts, "mattn")
		p.Builds[i].Period.Source = "example.invalid/no-such-module" // not to be had
		p.Builds = p.Builds[i : i+1]
		if err := prepareBuilds(context.Background(), p, io.Discard); err != nil {
			t.Fatal(err)
		}
		want := "mattn@" + filepath.Join(cache, "period", "mattn",
			pinnedModuleVersion("github.com/mattn/go-sqlite3")+"-sqlite-of-gosqlite")
		why := "the study's build of mattn runs instead"
		if bundled {
			want, why = "mattn", "the catalogue's mattn runs instead"
		}
		if !slices.Contains(p.Config.Targets, want) {
			t.Errorf("bundled %v: targets %v, want %s", bundled, p.Config.Targets, want)
		}
		named := slices.ContainsFunc(p.Gaps, func(g studies.Gap) bool {
			return strings.HasPrefix(g.What, "as published: mattn@v1.14.14-") && strings.HasSuffix(g.Why, why)
		})
		if !named || !strings.Contains(p.Config.StudyBuilds, "fell back: mattn@v1.14.14-") {
			t.Errorf("bundled %v: the fallback not named: %v; record %q", bundled, p.Gaps, p.Config.StudyBuilds)
		}
	}
}
